import { describe, expect, it } from "vitest";
import { closeMark, contextMarkOf, openMark, type MemberRender, type RenderedSlot } from "./marks.ts";
import { memberPinOfPath, memberStateFrom, parseTemplate } from "./member-page.server.ts";

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

describe("memberStateFrom", () => {
  const row = (overrides: Record<string, unknown> = {}) => ({
    viewer_id: 7,
    updated_at: 1000,
    comment_count: 2,
    save_count: 3,
    board_updated_at: 900,
    public: 1,
    related: 0,
    did_it_images_count: 1,
    sponsorship: null,
    did_it_id: null,
    reaction_by_me: null,
    counts: [{ reaction_type: 1, count: 4 }],
    topics: [{ id: 41, key: "food", name: "Food", followed: 0 }],
    people: null,
    ...overrides,
  });
  const state = (overrides: Record<string, unknown> = {}) => memberStateFrom("9", JSON.stringify(row(overrides)))!;

  it("reads the JSON arrays whether SQLite kept them as JSON or as text", () => {
    const asText = state({ counts: JSON.stringify(row().counts), topics: JSON.stringify(row().topics) });
    expect(asText).toEqual(state());
    expect(state().social.reactions.reaction_counts).toEqual([{ reaction_type: 1, count: 4 }]);
    expect(state().social.topics.map((topic) => topic.id)).toEqual(["41"]);
  });

  it("is null for no pin, and reads visibility and relation as flags", () => {
    expect(memberStateFrom("9", null)).toBeNull();
    expect(state()).toMatchObject({ pinId: "9", viewerId: 7, public: true, related: false });
    expect(state({ public: null })).toMatchObject({ public: false });
    expect(state({ related: 1 })).toMatchObject({ related: true });
  });

  it("has a version that follows what the page shows of the pin, and nothing of the viewer's", () => {
    const base = state().version;
    for (const change of [
      { updated_at: 1001 },
      { comment_count: 3 },
      { save_count: 4 },
      { did_it_images_count: 2 },
      { board_updated_at: 901 },
      { counts: [{ reaction_type: 2, count: 4 }] },
      { topics: [{ id: 42, key: "travel", name: "Travel", followed: 0 }] },
    ]) {
      expect(state(change).version, JSON.stringify(change)).not.toBe(base);
    }
    // Another viewer, with their own reaction, tried-it and follows, shares the version.
    expect(state({ viewer_id: 8, reaction_by_me: 1, did_it_id: 5, topics: [{ id: 41, key: "food", name: "Food", followed: 1 }] }).version).toBe(base);
  });
});
