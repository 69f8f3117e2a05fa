import { describe, expect, it } from "vitest";
import { closeMark, contextMarkOf, openMark, type MemberRender, type RenderedSlot } from "./member-marks.ts";
import { memberPinOfPath, parseTemplate } from "./member-page.ts";

const island = (prefix: string, inner: string, end = "") => `<astro-island uid="u" prefix="${prefix}" props="{&quot;a&quot;:[0,1]}" ssr>${inner}${end}</astro-island>`;
const NONCE = "3f1c1b7e-5a0e-4f8e-9b7a-0c2d9e6f1a22";
const CONTEXT_MARK = contextMarkOf(NONCE);
const open = (slot: RenderedSlot) => openMark(NONCE, slot);
const close = (slot: RenderedSlot) => closeMark(NONCE, slot);
const page = (body: string) => `<html><head>${CONTEXT_MARK}</head><body>${body}</body></html>`;
const props: MemberRender = {
  nonce: NONCE,
  islands: new Map<RenderedSlot, object>([
    ["account", { a: 1 }],
    ["reactions", { b: 2 }],
  ]),
};

describe("parseTemplate", () => {
  it("cuts at the context mark and around each marked island, keeping everything else", () => {
    const html = page(`<p>x</p>${open("account")}<script>boot()</script>${island("r9", "<button>Ava</button>", "<!--astro:end-->")}${close("account")}<p>y</p>`);
    const parts = parseTemplate(html, props)!;
    expect(parts).toHaveLength(5);
    expect(parts[0]).toBe("<html><head>");
    expect(parts[1]).toEqual({ context: true });
    expect(parts[2]).toBe("</head><body><p>x</p>");
    expect(parts[3]).toMatchObject({ slot: "account", prefix: "r9", props: { a: 1 }, inner: "<button>Ava</button>", close: "<!--astro:end--></astro-island>" });
    expect((parts[3] as { open: string }).open).toBe(`<script>boot()</script><astro-island uid="u" prefix="r9" props="{&quot;a&quot;:[0,1]}" ssr>`);
    expect(parts[4]).toBe("<p>y</p></body></html>");
  });

  it("refuses a template whose marks are missing, repeated or out of shape", () => {
    const good = `${open("reactions")}${island("r1", "<b>1</b>")}${close("reactions")}`;
    expect(parseTemplate(page(good), props)).not.toBeNull();
    expect(parseTemplate(`<html>${good}</html>`, props)).toBeNull(); // no context mark
    expect(parseTemplate(page(good) + CONTEXT_MARK, props)).toBeNull(); // two context marks
    expect(parseTemplate(page(good + good), props)).toBeNull(); // the island twice
    expect(parseTemplate(page(`${open("reactions")}${island("r1", "<b>1</b>")}`), props)).toBeNull(); // never closed
    expect(parseTemplate(page(`${open("reactions")}<b>no island</b>${close("reactions")}`), props)).toBeNull();
    expect(parseTemplate(page(`${open("reactions")}${island("r1", island("r2", ""))}${close("reactions")}`), props)).toBeNull(); // nested
    expect(parseTemplate(page(`${open("topics")}${island("r1", "")}${close("topics")}`), props)).toBeNull(); // no recorded props
  });

  it("sees no mark that lacks the render's nonce, wherever page content puts one", () => {
    // A pin's title in a meta tag, or a related pin's alt text, may hold anything but the nonce.
    const forged = `<!--pinloom-member:${"0".repeat(36)}:reactions--><astro-island prefix="x">y</astro-island><!--/pinloom-member:${"0".repeat(36)}:reactions-->`;
    const html = page(`<img alt="${forged}"><meta content="<!--pinloom-member:context-->">`);
    expect(parseTemplate(html, props)).toEqual(["<html><head>", { context: true }, html.slice(html.indexOf("</head>"))]);
  });
});

describe("memberPinOfPath", () => {
  it("is the close-up itself, read with GET", () => {
    expect(memberPinOfPath("GET", "/pin/123/")).toBe("123");
    for (const [method, path] of [
      ["POST", "/pin/123/"],
      ["HEAD", "/pin/123/"],
      ["GET", "/pin/123/sent/"],
      ["GET", "/pin/0123/"],
      ["GET", "/pin/123"],
      ["GET", "/pin/abc/"],
      ["GET", "/pins/123/"],
    ] as const)
      expect(memberPinOfPath(method, path), `${method} ${path}`).toBeNull();
  });
});
