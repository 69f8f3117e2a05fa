import { describe, expect, it } from "vitest";
import { CONTEXT_MARK, closeMark, openMark } from "./member-marks.ts";
import { memberPinOfPath, parseTemplate } from "./member-page.ts";

const island = (prefix: string, inner: string, end = "") => `<astro-island uid="u" prefix="${prefix}" props="{&quot;a&quot;:[0,1]}" ssr>${inner}${end}</astro-island>`;
const page = (body: string) => `<html><head>${CONTEXT_MARK}</head><body>${body}</body></html>`;
const props = new Map<string, object>([
  ["account", { a: 1 }],
  ["reactions", { b: 2 }],
]);

describe("parseTemplate", () => {
  it("cuts at the context mark and around each marked island, keeping everything else", () => {
    const html = page(`<p>x</p>${openMark("account")}<script>boot()</script>${island("r9", "<button>Ava</button>", "<!--astro:end-->")}${closeMark("account")}<p>y</p>`);
    const parts = parseTemplate(html, props)!;
    expect(parts).toHaveLength(5);
    expect(parts[0]).toBe("<html><head>");
    expect(parts[1]).toEqual({ context: true });
    expect(parts[2]).toBe("</head><body><p>x</p>");
    expect(parts[3]).toMatchObject({ slot: "account", prefix: "r9", props: { a: 1 }, close: "<!--astro:end--></astro-island>" });
    expect((parts[3] as { open: string }).open).toBe(`<script>boot()</script><astro-island uid="u" prefix="r9" props="{&quot;a&quot;:[0,1]}" ssr>`);
    expect(parts[4]).toBe("<p>y</p></body></html>");
  });

  it("refuses a template whose marks are missing, repeated or out of shape", () => {
    const good = `${openMark("reactions")}${island("r1", "<b>1</b>")}${closeMark("reactions")}`;
    expect(parseTemplate(page(good), props)).not.toBeNull();
    expect(parseTemplate(`<html>${good}</html>`, props)).toBeNull(); // no context mark
    expect(parseTemplate(page(good) + CONTEXT_MARK, props)).toBeNull(); // two context marks
    expect(parseTemplate(page(good + good), props)).toBeNull(); // the island twice
    expect(parseTemplate(page(`${openMark("reactions")}${island("r1", "<b>1</b>")}`), props)).toBeNull(); // never closed
    expect(parseTemplate(page(`${openMark("reactions")}<b>no island</b>${closeMark("reactions")}`), props)).toBeNull();
    expect(parseTemplate(page(`${openMark("reactions")}${island("r1", island("r2", ""))}${closeMark("reactions")}`), props)).toBeNull(); // nested
    expect(parseTemplate(page(`${openMark("topics")}${island("r1", "")}${closeMark("topics")}`), props)).toBeNull(); // no recorded props
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
