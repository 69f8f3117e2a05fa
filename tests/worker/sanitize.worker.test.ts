// The description sanitizer, run inside workerd (it needs HTMLRewriter). Every output is read
// back with an HTML parser, not only searched as text.
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from "vitest";
import { escapeHtml, htmlToText, LINK_REL, sanitizeHtml } from "~/html/sanitize.server.ts";

const blockedHosts: ReadonlySet<string> = new Set(["spam.example", "evil.example"]);
const ALLOWED = new Set(["p", "br", "b", "strong", "i", "em", "u", "s", "ul", "ol", "li", "blockquote", "h3", "h4", "a"]);

function sanitize(html: string, maxLength?: number): Promise<string> {
  return sanitizeHtml(html, maxLength === undefined ? { blockedHosts } : { blockedHosts, maxLength });
}

interface Parsed {
  elements: { name: string; namespace: string; attributes: [string, string][] }[];
  opened: number;
  closed: number;
  comments: number;
  doctypes: number;
  texts: string[];
}

/** What an HTML parser (lol-html, independent of the sanitizer's own check) finds in html. */
async function parse(html: string): Promise<Parsed> {
  const parsed: Parsed = { elements: [], opened: 0, closed: 0, comments: 0, doctypes: 0, texts: [] };
  await new HTMLRewriter()
    .on("*", {
      element(element) {
        parsed.elements.push({
          name: element.tagName,
          namespace: element.namespaceURI ?? "",
          // HTMLRewriter yields [name, value] pairs; lib.dom's NamedNodeMap type wins the merge.
          attributes: [...(element.attributes as unknown as Iterable<[string, string]>)],
        });
        try {
          element.onEndTag(() => {
            parsed.closed++;
          });
          parsed.opened++;
        } catch {
          // void element
        }
      },
    })
    .onDocument({
      text(chunk) {
        if (chunk.text !== "") parsed.texts.push(chunk.text);
      },
      comments() {
        parsed.comments++;
      },
      doctype() {
        parsed.doctypes++;
      },
    })
    .transform(new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } }))
    .arrayBuffer();
  return parsed;
}

/** The attribute value as a browser reads it (the sanitizer writes only these references). */
function attributeValue(value: string): string {
  return value.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" })[name]!);
}

/** Asserts the structural guarantees the sanitizer makes for ANY input. */
async function expectSafeStructure(output: string): Promise<void> {
  const parsed = await parse(output);
  for (const element of parsed.elements) {
    expect(ALLOWED, `element <${element.name}> in ${output}`).toContain(element.name);
    expect(element.namespace).toBe("http://www.w3.org/1999/xhtml");
    const names = element.attributes.map(([name]) => name);
    if (element.name === "a") {
      expect(names.sort(), `attributes of <a> in ${output}`).toEqual(["href", "rel"]);
      for (const [name, value] of element.attributes) {
        if (name === "rel") expect(value).toBe(LINK_REL);
        if (name === "href") {
          const url = new URL(attributeValue(value));
          expect(["http:", "https:"], `href ${value}`).toContain(url.protocol);
          expect(url.hostname.replace(/\.+$/, "")).not.toMatch(/(^|\.)(spam|evil)\.example$/);
        }
      }
    } else {
      expect(names, `attributes of <${element.name}> in ${output}`).toEqual([]);
    }
  }
  expect(parsed.opened, `every element closed in ${output}`).toBe(parsed.closed);
  expect(parsed.comments).toBe(0);
  expect(parsed.doctypes).toBe(0);
  for (const text of parsed.texts) expect(text, `text in ${output}`).not.toMatch(/[<>]/);
}

describe("the structural check itself", () => {
  // Guards against a vacuous check: each of these must fail it.
  it.each([
    "<img src=x>",
    "<svg></svg>",
    "<p class=x>t</p>",
    '<a href="https://ok.example/">no rel</a>',
    `<a href="javascript:alert(1)" rel="${LINK_REL}">x</a>`,
    `<a href="https://sub.spam.example/" rel="${LINK_REL}">x</a>`,
    `<a href="https://ok.example/" rel="${LINK_REL}" target="_blank">x</a>`,
    "<b>left open",
    "<!-- comment -->",
    "a < b",
  ])("rejects %j", async (bad) => {
    await expect(expectSafeStructure(bad)).rejects.toThrow();
  });
});

let warn: MockInstance<typeof console.warn>;
beforeEach(() => {
  warn = vi.spyOn(console, "warn");
});
afterEach(() => {
  // The defence-in-depth fallback must never be what made an output safe.
  expect(warn).not.toHaveBeenCalled();
  warn.mockRestore();
});

describe("allowed markup survives exactly", () => {
  const cases: [string, string][] = [
    ["<p>Hi <b>there</b></p>", "<p>Hi <b>there</b></p>"],
    [
      "<p>One <i>i</i> <em>em</em> <strong>strong</strong> <u>u</u> <s>s</s><br>next</p>",
      "<p>One <i>i</i> <em>em</em> <strong>strong</strong> <u>u</u> <s>s</s><br>next</p>",
    ],
    ["<ul><li>a</li><li>b</li></ul><ol><li>c</li></ol>", "<ul><li>a</li><li>b</li></ul><ol><li>c</li></ol>"],
    ["<blockquote>quote</blockquote><h3>three</h3><h4>four</h4>", "<blockquote>quote</blockquote><h3>three</h3><h4>four</h4>"],
    ["<p>héllo 😀 مرحبا 你好</p>", "<p>héllo 😀 مرحبا 你好</p>"],
    ["Tom &amp; Jerry &copy; 2024 &#8212; AT&T", "Tom &amp; Jerry &copy; 2024 &#8212; AT&T"],
    ["&lt;script&gt;alert(1)&lt;/script&gt;", "&lt;script&gt;alert(1)&lt;/script&gt;"],
    ["plain text", "plain text"],
    ["   ", "   "],
  ];
  it.each(cases)("%s", async (input, expected) => {
    const output = await sanitize(input);
    expect(output).toBe(expected);
    await expectSafeStructure(output);
  });
});

describe("attributes are stripped, other elements unwrapped, nesting repaired", () => {
  const cases: [string, string][] = [
    ['<p class="x" style="color:red" id="y" title="t" onclick="alert(1)" data-x="1">t</p>', "<p>t</p>"],
    ["<P>Upper <B>case</B></P>", "<p>Upper <b>case</b></p>"],
    ["<br/><br class=x>", "<br><br>"],
    ['<div>a <span style="x">b</span> <font color=red>c</font></div>', "a b c"],
    ["<table><tr><td>cell</td><td>two</td></tr></table>", "celltwo"],
    ["<my-widget foo=bar>custom</my-widget><x:y>ns</x:y>", "customns"],
    ["<h1>big</h1><h2>title</h2><pre>pre</pre><code>code</code>", "bigtitleprecode"],
    ["<details><summary>s</summary>d</details><marquee>m</marquee>", "sdm"],
    ["<b>unclosed", "<b>unclosed</b>"],
    ["<p>a<p>b", "<p>a</p><p>b</p>"],
    ["<ul><li>a<li>b</ul>", "<ul><li>a</li><li>b</li></ul>"],
    ["<ul><li>a<ul><li>b</ul></ul>", "<ul><li>a<ul><li>b</li></ul></li></ul>"],
    ["<b><i>x</b>y</i>z", "<b><i>x</i></b>yz"],
    ["<p><b>x<ul><li>y</li></ul>", "<p><b>x</b></p><ul><li>y</li></ul>"],
    ["<h3>a<h4>b</h4></h3>", "<h3>a</h3><h4>b</h4>"],
    ["</p>stray</b></li>", "stray"],
    ['<a href="https://a.example/">one<a href="https://b.example/">two</a></a>', `<a href="https://a.example/" rel="${LINK_REL}">one</a><a href="https://b.example/" rel="${LINK_REL}">two</a>`],
    ["a < b > c", "a &lt; b &gt; c"],
    ["<!-- comment -->x<!DOCTYPE html><?xml version='1.0'?>y<![CDATA[z]]>", "xy"],
    ["<script>alert(1)</script>after", "after"],
    ["<img src=x>picture<video><source src=v></video>", "picture"],
    ["<xmp><b>&amp;</b></xmp>", "&lt;b&gt;&amp;amp;&lt;/b&gt;"],
  ];
  it.each(cases)("%s", async (input, expected) => {
    const output = await sanitize(input);
    expect(output).toBe(expected);
    await expectSafeStructure(output);
  });
});

describe("links", () => {
  const kept: [string, string][] = [
    ['<a href="https://ok.example/path?q=1&amp;r=2#top">ok</a>', "https://ok.example/path?q=1&amp;r=2#top"],
    ['<a href="http://ok.example">ok</a>', "http://ok.example/"],
    ['<a href="HTTPS://OK.EXAMPLE/A">ok</a>', "https://ok.example/A"],
    ['<a href="  https://ok.example/x  ">ok</a>', "https://ok.example/x"],
    ['<a href="https://ok.example/?q=<script>&quot;x\'">ok</a>', "https://ok.example/?q=%3Cscript%3E%22x%27"],
    ['<a href="https://notspam.example/">ok</a>', "https://notspam.example/"],
    ['<a href="https://ok.example/" target="_blank" rel="opener" class="x" onclick="alert(1)" style="x">ok</a>', "https://ok.example/"],
  ];
  it.each(kept)("keeps %s with rel and no target", async (input, href) => {
    const output = await sanitize(input);
    expect(output).toBe(`<a href="${href}" rel="${LINK_REL}">ok</a>`);
    await expectSafeStructure(output);
  });

  const unwrapped = [
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    " javascript:alert(1)",
    "jav&#x09;ascript:alert(1)",
    "jav&#x0A;ascript:alert(1)",
    "jav&Tab;ascript:alert(1)",
    "javascript&colon;alert(1)",
    "&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)",
    "&#x6A;avascript:alert(1)",
    "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
    "vbscript:msgbox(1)",
    "/relative/path",
    "relative.html",
    "?q=1",
    "#fragment",
    "//evil.example/x",
    "//ok.example/x",
    "\\\\ok.example\\x",
    "mailto:a@ok.example",
    "ftp://ok.example/file",
    "https://spam.example/",
    "https://SPAM.EXAMPLE/",
    "https://sub.spam.example/deal",
    "https://spam.example./",
    "https://spam.example%2e/",
    "https://ok.example@spam.example/",
    "http://evil.example:8080/",
    "",
    "https://",
  ];
  it.each(unwrapped)("unwraps href=%j, keeping the text", async (href) => {
    const output = await sanitize(`<p><a href="${href}" onclick="x">click <b>me</b></a></p>`);
    expect(output).toBe("<p>click <b>me</b></p>");
    await expectSafeStructure(output);
  });

  it("unwraps an a without href", async () => {
    expect(await sanitize('<a name="x">anchor</a><a>bare</a>')).toBe("anchorbare");
  });
});

// Every payload's output must satisfy the structural guarantees AND contain none of these.
const FORBIDDEN_SUBSTRINGS = ["<script", "onerror", "onload", "javascript:", "<iframe", "<svg"];

const PAYLOADS: string[] = [
  "<script>alert(1)</script>",
  "<SCRIPT SRC=https://evil.example/xss.js></SCRIPT>",
  "<ScRiPt>alert(1)</sCrIpT>",
  "<script>alert(1)",
  "<img src=x onerror=alert(1)>",
  "<IMG SRC=\"javascript:alert('XSS');\">",
  "<IMG SRC=JaVaScRiPt:alert('XSS')>",
  '<img src=x onerror="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058alert(1)">',
  "<img src=x onerror=alert(1)//",
  '<img """><script>alert(1)</script>">',
  "<svg onload=alert(1)>",
  "<svg/onload=alert(1)>",
  "<svg><script>alert(1)</script></svg>",
  '<svg><animate onbegin=alert(1) attributeName=x dur=1s>',
  '<svg><a xlink:href="javascript:alert(1)"><text x="20" y="20">XSS</text></a></svg>',
  "<svg><style><img src=x onerror=alert(1)></style></svg>",
  "<scr<script>ipt>alert(1)</script>",
  "<<script>script>alert(1)<</script>/script>",
  '<a href="javascript:alert(1)">x</a>',
  '<a href="jav&#x09;ascript:alert(1)">x</a>',
  '<a href="jav&#x0D;ascript:alert(1)">x</a>',
  '<a href=" &#14;  javascript:alert(1)">x</a>',
  '<a href="javas&#99;ript:alert(1)">x</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
  '<a href="vbscript:msgbox(1)">x</a>',
  '<a href="https://ok.example" onclick="alert(1)">ok</a>',
  "<a href=https://ok.example/ onmouseover=alert(1)>ok</a>",
  '<a href="https://ok.example/"onmouseover="alert(1)">ok</a>',
  '<a href="https://ok.example/?x=&quot;><script>alert(1)</script>">ok</a>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<iframe srcdoc="&lt;script&gt;alert(1)&lt;/script&gt;"></iframe>',
  "<iframe src=https://evil.example/ <",
  '<math><mi xlink:href="javascript:alert(1)">x</mi></math>',
  '<math><a xlink:href="javascript:alert(1)">click</a></math>',
  "<math><style><img src=x onerror=alert(1)></style></math>",
  "<style>@import 'https://evil.example/xss.css';</style>",
  '<style>body{background:url("javascript:alert(1)")}</style>',
  "<!--<script>alert(1)</script>-->",
  "<!--[if gte IE 4]><script>alert(1)</script><![endif]-->",
  "<!-- --!><img src=x onerror=alert(1)> -->",
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<svg></p><style><a id="</style><img src=1 onerror=alert(1)>">',
  '<math><mtext><table><mglyph><style><!--</style><img title="--&gt;&lt;/mglyph&gt;&lt;img&Tab;src=1&Tab;onerror=alert(1)&gt;">',
  "<form><math><mtext></form><form><mglyph><style></math><img src onerror=alert(1)>",
  "<svg><![CDATA[</svg><img src=x onerror=alert(1)>]]></svg>",
  "<![CDATA[<script>alert(1)</script>]]>",
  "<BODY ONLOAD=alert('XSS')>",
  '<p style="background:url(javascript:alert(1))">x</p>',
  "<div style=\"width: expression(alert('XSS'));\">x</div>",
  '<object data="javascript:alert(1)"></object>',
  '<embed src="data:image/svg+xml;base64,PHN2Zy9vbmxvYWQ9YWxlcnQoMSk+">',
  "<applet code=x.class>a</applet>",
  "<input autofocus onfocus=alert(1)>",
  "<button formaction=javascript:alert(1)>x</button>",
  "<details open ontoggle=alert(1)>d</details>",
  '<video><source onerror="alert(1)"></video>',
  "<audio src=x onerror=alert(1)>",
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="javascript:alert(1)//">',
  '<link rel=stylesheet href="javascript:alert(1)">',
  '<table background="javascript:alert(1)"><tr><td>x</td></tr></table>',
  "<textarea><script>alert(1)</script></textarea>",
  "<title><script>alert(1)</script></title>",
  "<template><script>alert(1)</script></template>",
  "<dialog open><img src=x onerror=alert(1)></dialog>",
  "<select><option><img src=x onerror=alert(1)></option></select>",
  "<frameset onload=alert(1)>",
  "<x onclick=alert(1)>click</x>",
  '<p onmouseover="alert(1)">x</p>',
  "<marquee onstart=alert(1)>x</marquee>",
  "<isindex action=javascript:alert(1) type=image>",
  "<scr\0ipt>alert(1)</scr\0ipt>",
  "<img src=x one\0rror=alert(1)>",
  '<a href="java\0script:alert(1)">x</a>',
  "<?xml version=\"1.0\"?><script>alert(1)</script>",
  '"><script>alert(1)</script>',
  "'';!--\"<XSS>=&{()}",
  '<a href="jaVasCript:/*-/*`/*\\`/*\'/*&quot;/**/(/* */oNcliCk=alert() )//%0D%0A%0d%0a//</stYle/</titLe/</teXtarEa/</scRipt/--!>\\x3csVg/<sVg/oNloAd=alert()//>\\x3e">x</a>',
  "<b <script>alert(1)//<</b>",
  '<p><a href="https://ok.example/"><b>bold<script>alert(1)</script></a>',
];

describe("script-injection corpus", () => {
  it("has at least 40 payloads", () => {
    expect(PAYLOADS.length).toBeGreaterThanOrEqual(40);
  });
  it.each(PAYLOADS)("%j", async (payload) => {
    const output = await sanitize(payload);
    await expectSafeStructure(output);
    for (const forbidden of FORBIDDEN_SUBSTRINGS) expect(output.toLowerCase(), output).not.toContain(forbidden);
  });
});

// Payloads whose TEXT legitimately contains a forbidden word: the structure is checked and the
// exact output shows the words arrive as escaped text, never as markup.
describe("raw-text payloads stay text", () => {
  const cases: [string, string][] = [
    ["<xmp><img src=x onerror=alert(1)></xmp>", "&lt;img src=x onerror=alert(1)&gt;"],
    ["<noembed><img src=x onerror=alert(1)></noembed>", "&lt;img src=x onerror=alert(1)&gt;"],
    ["<noframes><script>alert(1)</script></noframes>", "&lt;script&gt;alert(1)&lt;/script&gt;"],
    ["<plaintext><svg onload=alert(1)>", "&lt;svg onload=alert(1)&gt;"],
    ["a <script>x</script>< script>alert(1)</script>", "a &lt; script&gt;alert(1)"],
  ];
  it.each(cases)("%j", async (input, expected) => {
    const output = await sanitize(input);
    expect(output).toBe(expected);
    await expectSafeStructure(output);
  });
});

describe("bounded input", () => {
  it("empty input gives an empty string", async () => {
    expect(await sanitize("")).toBe("");
    expect(await sanitize("\0")).toBe("");
  });

  it("cuts long input at 20,000 characters and closes what was open", async () => {
    const output = await sanitize(`<p><b>${"x".repeat(50_000)}</b></p>`);
    expect(output).toBe(`<p><b>${"x".repeat(20_000 - 6)}</b></p>`);
    await expectSafeStructure(output);
  });

  it("drops a tag the cut left unfinished", async () => {
    const output = await sanitize(`${"a".repeat(19_990)}<a href="https://ok.example/a/long/path">link</a>`);
    expect(output).toBe("a".repeat(19_990));
  });

  it("keeps structure when the cut falls inside a list", async () => {
    const output = await sanitize("<ul>" + "<li>item <em>one</em></li>".repeat(2_000) + "</ul>");
    expect(output.length).toBeLessThan(21_000);
    expect(output.startsWith("<ul><li>item <em>one</em></li>")).toBe(true);
    expect(output.endsWith("</ul>")).toBe(true);
    await expectSafeStructure(output);
  });

  it("bounds deep nesting", async () => {
    const output = await sanitize("<b>".repeat(20_000) + "deep");
    expect(output).toBe("<b>".repeat(6_666) + "</b>".repeat(6_666));
    await expectSafeStructure(output);
  });

  it("honours maxLength and never splits a surrogate pair", async () => {
    expect(await sanitize("<p>hello world</p>", 8)).toBe("<p>hello</p>");
    expect(await sanitize("😀😀", 3)).toBe("😀");
  });

  it("a cut inside a dropped element drops the rest", async () => {
    expect(await sanitize("<p>ok</p><script>" + "x".repeat(30_000) + "</script><p>after</p>")).toBe("<p>ok</p>");
  });
});

describe("escapeHtml and htmlToText", () => {
  it("escapes & < > \" '", () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  });

  it("gives plain text without dropped content, with line breaks for blocks", async () => {
    expect(
      await htmlToText("<p>Tom &amp; Jerry&#39;s  <b>best</b></p><p>Line<br>two</p><script>alert(1)</script><ul><li>a</li><li>b</li></ul>&lt;tag&gt;"),
    ).toBe("Tom & Jerry's best\nLine\ntwo\na\nb\n<tag>");
    expect(await htmlToText("")).toBe("");
  });
});
