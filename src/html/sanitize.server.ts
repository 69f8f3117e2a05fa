// Allowlist HTML sanitizer for pin descriptions (spec: "title, sanitized descriptionHtml"),
// built on workerd's HTMLRewriter (lol-html): DOMPurify and sanitize-html need a DOM or Node.
//
// HTMLRewriter is used as a TOKENIZER only. Its own output (which passes unmatched source
// bytes through) is discarded; the result is rebuilt from the tokens it reports:
//   - text is re-emitted with `<` and `>` escaped, so no source `<` can ever open a tag and no
//     character reference (`&lt;script&gt;`) is ever decoded into markup;
//   - only allowlisted tags are written, by this module, with no attributes except a validated,
//     re-serialised `href` on `a` (plus a fixed `rel`);
//   - every tag written is closed, properly nested, with the HTML parser's implied closings
//     (`<p>` in `<p>`, `<li>` in `<li>`, `<a>` in `<a>`, heading in heading) applied here, so the
//     tree a browser builds from the output is the tree this module built.
// A parser differential between lol-html and a browser (mutation XSS) can therefore only change
// which text survives, never turn text into markup. The output is then parsed again and checked
// against the allowlist; if that check ever fails, the text alone is returned.
import { isAllowedLink } from "~/pins/pin.ts";

export interface SanitizeOptions {
  /** Hosts links may not point at (subdomains included), lower case. */
  blockedHosts: ReadonlySet<string>;
  /** Input bound in UTF-16 code units; longer input is cut before parsing. Default 20,000. */
  maxLength?: number;
}

const DEFAULT_MAX_LENGTH = 20_000;
/** Elements kept (with no attributes, except `href` on `a`). */
const ALLOWED_ELEMENTS: ReadonlySet<string> = new Set([
  "p", "br", "b", "strong", "i", "em", "u", "s", "ul", "ol", "li", "blockquote", "h3", "h4", "a",
]);
/** Elements removed together with everything inside them. */
const DROPPED_ELEMENTS: ReadonlySet<string> = new Set([
  "script", "style", "iframe", "frame", "frameset", "object", "embed", "applet", "template", "noscript",
  "svg", "math", "form", "input", "button", "textarea", "select", "option", "link", "meta", "base",
  "title", "head", "img", "video", "audio", "source", "picture", "canvas", "dialog",
]);
/** The `rel` every kept link carries. `target` is never written. */
export const LINK_REL = "nofollow ugc noopener noreferrer";

const HTML_NAMESPACE = "http://www.w3.org/1999/xhtml";
/** Unwrapped elements whose content the HTML parser reads as raw text (no character references). */
const RAW_TEXT_ELEMENTS: ReadonlySet<string> = new Set(["xmp", "noembed", "noframes", "plaintext"]);
/** Starting one of these closes an open `p` (HTML "close a p element" in button scope). */
const CLOSES_P: ReadonlySet<string> = new Set(["p", "ul", "ol", "li", "blockquote", "h3", "h4"]);
/** Special elements that stop the search for an open `li` (p, a and inline elements do not). */
const LI_SCOPE_STOP: ReadonlySet<string> = new Set(["ul", "ol", "blockquote", "h3", "h4"]);
/** Elements that break lines in plain text. */
const TEXT_BLOCKS: ReadonlySet<string> = new Set([
  "p", "div", "li", "ul", "ol", "blockquote", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "tr", "table",
  "section", "article", "header", "footer", "aside", "nav", "main", "figure", "figcaption", "dl", "dt", "dd",
  "address", "hr", "details", "summary", "center", "listing", "xmp", "plaintext",
]);

// ---------------------------------------------------------------------------------------------
// Escaping and character references

const ESCAPES: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escapes text for HTML content and (quoted) attribute values: & < > " '. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);
}

/** Character references decoded by `htmlToText` and in `href` values. Others stay as written. */
const NAMED_REFERENCES: Readonly<Record<string, string>> = {
  amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0", Tab: "\t", NewLine: "\n",
  AMP: "&", LT: "<", GT: ">", QUOT: '"',
  colon: ":", semi: ";", comma: ",", period: ".", sol: "/", bsol: "\\", quest: "?", excl: "!", equals: "=",
  num: "#", percnt: "%", commat: "@", lowbar: "_", lpar: "(", rpar: ")", lsqb: "[", rsqb: "]", lbrack: "[",
  rbrack: "]", lcub: "{", rcub: "}", lbrace: "{", rbrace: "}", verbar: "|", vert: "|", grave: "`", Hat: "^",
  dollar: "$", plus: "+", ast: "*", midast: "*",
  copy: "\u00a9", reg: "\u00ae", trade: "\u2122", deg: "\u00b0", middot: "\u00b7", bull: "\u2022",
  hellip: "\u2026", mdash: "\u2014", ndash: "\u2013", lsquo: "\u2018", rsquo: "\u2019", sbquo: "\u201a",
  ldquo: "\u201c", rdquo: "\u201d", bdquo: "\u201e", laquo: "\u00ab", raquo: "\u00bb", euro: "\u20ac",
  pound: "\u00a3", yen: "\u00a5", cent: "\u00a2", sect: "\u00a7", para: "\u00b6", times: "\u00d7",
  divide: "\u00f7", frac12: "\u00bd", frac14: "\u00bc", frac34: "\u00be", iexcl: "\u00a1", iquest: "\u00bf",
  shy: "\u00ad", zwj: "\u200d", zwnj: "\u200c", ensp: "\u2002", emsp: "\u2003", thinsp: "\u2009",
};
/** Names the HTML parser also accepts without `;` (subset of the legacy list), longest first. */
const LEGACY_REFERENCES = ["QUOT", "quot", "nbsp", "copy", "AMP", "amp", "reg", "deg", "LT", "lt", "GT", "gt"];
/** HTML's remapping of numeric references 0x80–0x9F (windows-1252). */
const C1_REMAP: Readonly<Record<number, number>> = {
  0x80: 0x20ac, 0x82: 0x201a, 0x83: 0x0192, 0x84: 0x201e, 0x85: 0x2026, 0x86: 0x2020, 0x87: 0x2021,
  0x88: 0x02c6, 0x89: 0x2030, 0x8a: 0x0160, 0x8b: 0x2039, 0x8c: 0x0152, 0x8e: 0x017d, 0x91: 0x2018,
  0x92: 0x2019, 0x93: 0x201c, 0x94: 0x201d, 0x95: 0x2022, 0x96: 0x2013, 0x97: 0x2014, 0x98: 0x02dc,
  0x99: 0x2122, 0x9a: 0x0161, 0x9b: 0x203a, 0x9c: 0x0153, 0x9e: 0x017e, 0x9f: 0x0178,
};

function codePointText(value: number): string {
  if (value === 0 || value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff)) return "\ufffd";
  return String.fromCodePoint(C1_REMAP[value] ?? value);
}

/**
 * Decodes numeric references and the names in NAMED_REFERENCES, as the HTML parser would in
 * text (`inAttribute` false) or in an attribute value (legacy names without `;` are not decoded
 * before `=` or an alphanumeric). Unknown names are left as written.
 */
function decodeCharacterReferences(text: string, inAttribute = false): string {
  if (!text.includes("&")) return text;
  return text.replace(/&(?:#[xX]([0-9a-fA-F]+);?|#([0-9]+);?|([A-Za-z][A-Za-z0-9]*)(;?))/g, (match, hex?: string, dec?: string, name?: string, semi?: string) => {
    if (hex !== undefined) return codePointText(parseInt(hex, 16));
    if (dec !== undefined) return codePointText(parseInt(dec, 10));
    if (name === undefined) return match;
    if (semi) {
      const named = NAMED_REFERENCES[name];
      if (named !== undefined) return named;
    }
    for (const legacy of LEGACY_REFERENCES) {
      if (!name.startsWith(legacy)) continue;
      const rest = name.slice(legacy.length) + (semi ?? "");
      // In attributes `&ampx` and `&amp=` stay literal; `&amp;` was handled above.
      if (inAttribute && rest !== "") return match;
      return NAMED_REFERENCES[legacy]! + rest;
    }
    return match;
  });
}

// ---------------------------------------------------------------------------------------------
// Tokenizing with HTMLRewriter

/** Cuts input to maxLength without splitting a surrogate pair or leaving half a tag at the end. */
function boundInput(html: string, maxLength: number): string {
  let text = html.replace(/\0/g, "");
  if (text.length <= maxLength) return text;
  let cut = Math.max(0, Math.floor(maxLength));
  const last = text.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut--;
  text = text.slice(0, cut);
  // A `<` after the last `>` may start a tag the cut left unfinished: drop it, it has no text.
  const open = text.lastIndexOf("<");
  if (open > text.lastIndexOf(">")) text = text.slice(0, open);
  return text;
}

interface TokenSink {
  /** A start tag outside dropped content; returns what to run at its end tag, if anything. */
  start(name: string, element: Element): (() => void) | undefined;
  /** Source text outside dropped content, as written; `literal` when not entity-decoded by HTML. */
  text(raw: string, literal: boolean): void;
}

/** Feeds html through HTMLRewriter, dropping dangerous elements with their content. */
async function tokenize(html: string, sink: TokenSink): Promise<void> {
  const dropping = new Set<object>();
  let literalDepth = 0;
  let pending = "";
  let pendingLiteral = false;
  const flush = (): void => {
    if (pending !== "") sink.text(pending, pendingLiteral);
    pending = "";
  };
  await new HTMLRewriter()
    .on("*", {
      element(element) {
        flush();
        if (dropping.size > 0) return;
        const name = element.tagName.toLowerCase();
        if (DROPPED_ELEMENTS.has(name)) {
          const marker = {};
          try {
            element.onEndTag(() => {
              dropping.delete(marker);
            });
            dropping.add(marker);
          } catch {
            // No end tag (void or self-closing foreign element): nothing inside to drop.
          }
          return;
        }
        const literal = RAW_TEXT_ELEMENTS.has(name) && element.namespaceURI === HTML_NAMESPACE;
        const onEnd = sink.start(name, element);
        if (!literal && !onEnd) return;
        try {
          element.onEndTag(() => {
            flush();
            if (literal) literalDepth--;
            onEnd?.();
          });
          if (literal) literalDepth++;
        } catch {
          // Void element: no end tag, no content.
        }
      },
    })
    .onDocument({
      text(chunk) {
        if (dropping.size > 0 || chunk.text === "") return;
        const literal = literalDepth > 0;
        if (literal !== pendingLiteral) flush();
        pendingLiteral = literal;
        pending += chunk.text;
      },
      comments() {
        flush();
      },
      doctype() {
        flush();
      },
      end() {
        flush();
      },
    })
    .transform(new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } }))
    .arrayBuffer();
}

// ---------------------------------------------------------------------------------------------
// Building the sanitized tree

interface Frame {
  readonly name: string;
}

/** Writes allowlisted tags properly nested, applying the HTML parser's implied end tags. */
class TreeWriter {
  readonly #out: string[] = [];
  readonly #text: string[] = [];
  readonly #stack: Frame[] = [];

  text(escaped: string): void {
    this.#out.push(escaped);
    this.#text.push(escaped);
  }

  empty(name: string): void {
    this.#out.push(`<${name}>`);
  }

  open(name: string, attributes = ""): Frame {
    this.#impliedEnds(name);
    const frame: Frame = { name };
    this.#stack.push(frame);
    this.#out.push(`<${name}${attributes}>`);
    return frame;
  }

  /** Closes frame and everything opened inside it; nothing when it is already closed. */
  close(frame: Frame): void {
    const index = this.#stack.lastIndexOf(frame);
    if (index < 0) return;
    while (this.#stack.length > index) this.#out.push(`</${this.#stack.pop()!.name}>`);
  }

  #nearest(predicate: (frame: Frame) => boolean, stopAt?: ReadonlySet<string>): Frame | undefined {
    for (let i = this.#stack.length - 1; i >= 0; i--) {
      const frame = this.#stack[i]!;
      if (predicate(frame)) return frame;
      if (stopAt?.has(frame.name)) return undefined;
    }
    return undefined;
  }

  #impliedEnds(name: string): void {
    if (name === "li") {
      const li = this.#nearest((frame) => frame.name === "li", LI_SCOPE_STOP);
      if (li) this.close(li);
    }
    if (CLOSES_P.has(name)) {
      const p = this.#nearest((frame) => frame.name === "p");
      if (p) this.close(p);
    }
    if (name === "h3" || name === "h4") {
      const top = this.#stack.at(-1);
      if (top && (top.name === "h3" || top.name === "h4")) this.close(top);
    }
    if (name === "a") {
      const a = this.#nearest((frame) => frame.name === "a");
      if (a) this.close(a);
    }
  }

  finish(): { html: string; text: string } {
    if (this.#stack.length > 0) this.close(this.#stack[0]!);
    return { html: this.#out.join(""), text: this.#text.join("") };
  }
}

/** The href to write for a link (an attribute value as written), or null to unwrap the link. */
function safeHref(raw: string | null, blockedHosts: ReadonlySet<string>): string | null {
  if (raw === null) return null;
  const decoded = decodeCharacterReferences(raw, true);
  if (!isAllowedLink(decoded, blockedHosts)) return null;
  const url = new URL(decoded);
  // `spam.example.` is the same host as `spam.example` to DNS, but not to isAllowedLink.
  const host = url.hostname.replace(/\.+$/, "");
  if (host !== url.hostname && !isAllowedLink(`${url.protocol}//${host}/`, blockedHosts)) return null;
  // Write the URL parser's own serialisation: what the browser reads back is what was checked.
  return url.href;
}

function escapeText(raw: string, literal: boolean): string {
  return literal ? escapeHtml(raw) : raw.replace(/[<>]/g, (char) => ESCAPES[char]!);
}

/**
 * An element's attributes as HTMLRewriter yields them, `[name, value]` pairs. The project's
 * types also load lib.dom, whose `Element.attributes` (a NamedNodeMap) wins the declaration merge.
 */
function attributesOf(element: Element): [name: string, value: string][] {
  return [...(element.attributes as unknown as Iterable<[string, string]>)];
}

/**
 * Checks sanitized output with a second, independent parse: only allowlisted elements, no
 * attributes except `href` (allowed http/https) and the fixed `rel` on `a`, every element
 * closed, no comments or doctype, no `<` left in text. Returns the first problem, or null.
 */
async function findProblem(html: string, blockedHosts: ReadonlySet<string>): Promise<string | null> {
  const problems: string[] = [];
  let opened = 0;
  let closed = 0;
  await new HTMLRewriter()
    .on("*", {
      element(element) {
        const name = element.tagName;
        if (!ALLOWED_ELEMENTS.has(name) || element.namespaceURI !== HTML_NAMESPACE) problems.push(`element ${name}`);
        for (const [attribute, value] of attributesOf(element)) {
          const ok =
            name === "a" &&
            ((attribute === "rel" && value === LINK_REL) ||
              (attribute === "href" && safeHref(value, blockedHosts) !== null));
          if (!ok) problems.push(`attribute ${name}[${attribute}]`);
        }
        if (name === "a" && (!element.hasAttribute("href") || element.getAttribute("rel") !== LINK_REL)) problems.push("a without href or rel");
        if (name === "br") return;
        opened++;
        try {
          element.onEndTag(() => {
            closed++;
          });
        } catch {
          problems.push(`${name} cannot be closed`);
        }
      },
    })
    .onDocument({
      text(chunk) {
        if (chunk.text.includes("<")) problems.push("'<' in text");
      },
      comments() {
        problems.push("comment");
      },
      doctype() {
        problems.push("doctype");
      },
    })
    .transform(new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } }))
    .arrayBuffer();
  if (opened !== closed) problems.push(`${opened - closed} element(s) left open`);
  return problems[0] ?? null;
}

/**
 * Sanitizes user or partner HTML to the allowlist: `p br b strong i em u s ul ol li blockquote
 * h3 h4 a`, no attributes except an absolute http(s) `href` to a host that is not blocked on
 * `a` (which then gets `rel="nofollow ugc noopener noreferrer"`; other links are unwrapped).
 * Dangerous elements (script, style, iframe, svg, math, form controls, img, media, ...) go with
 * their content; any other element is unwrapped; comments, doctype and processing
 * instructions go. Text stays escaped. Input beyond maxLength (default 20,000) is cut first.
 */
export async function sanitizeHtml(html: string, options: SanitizeOptions): Promise<string> {
  const { blockedHosts } = options;
  const input = boundInput(html, options.maxLength ?? DEFAULT_MAX_LENGTH);
  if (input === "") return "";
  const writer = new TreeWriter();
  try {
    await tokenize(input, {
      start(name, element) {
        if (!ALLOWED_ELEMENTS.has(name) || element.namespaceURI !== HTML_NAMESPACE) return undefined;
        if (name === "br") {
          writer.empty("br");
          return undefined;
        }
        let attributes = "";
        if (name === "a") {
          const href = safeHref(element.getAttribute("href"), blockedHosts);
          if (href === null) return undefined;
          attributes = ` href="${escapeHtml(href)}" rel="${LINK_REL}"`;
        }
        const frame = writer.open(name, attributes);
        return () => writer.close(frame);
      },
      text(raw, literal) {
        writer.text(escapeText(raw, literal));
      },
    });
  } catch (error) {
    console.warn("sanitizeHtml: HTMLRewriter failed; returning escaped text", error);
    return escapeHtml(input);
  }
  const result = writer.finish();
  const problem = await findProblem(result.html, blockedHosts);
  if (problem === null) return result.html;
  console.warn(`sanitizeHtml: output failed re-verification (${problem}); returning text only`);
  return result.text.replace(/[<>]/g, (char) => ESCAPES[char]!);
}

/**
 * Plain text of an HTML fragment (for meta descriptions, previews, search): dropped elements'
 * content removed, tags removed, block elements and `br` as line breaks, runs of whitespace
 * collapsed, common character references decoded. The result is TEXT: escape it to put it in HTML.
 */
export async function htmlToText(html: string, options: { maxLength?: number } = {}): Promise<string> {
  const input = boundInput(html, options.maxLength ?? DEFAULT_MAX_LENGTH);
  const parts: string[] = [];
  try {
    await tokenize(input, {
      start(name) {
        if (name === "br") {
          parts.push("\n");
          return undefined;
        }
        if (!TEXT_BLOCKS.has(name)) return undefined;
        parts.push("\n");
        return () => parts.push("\n");
      },
      text(raw, literal) {
        parts.push((literal ? raw : decodeCharacterReferences(raw)).replace(/[ \t\n\f\r]+/g, " "));
      },
    });
  } catch (error) {
    console.warn("htmlToText: HTMLRewriter failed", error);
    return "";
  }
  return parts
    .join("")
    .replace(/ *\n[ \n]*/g, "\n")
    .trim();
}
