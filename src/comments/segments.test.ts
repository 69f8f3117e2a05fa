// The comment rendering rule: plain text → text, mention and link segments.
import { describe, expect, it } from "vitest";
import { INJECTION_CORPUS } from "./fixtures/injection-corpus.ts";
import { COMMENT_LINK_REL, MAX_LINKS, MAX_MENTIONS, isBlockedHost, toSegments, type CommentTag, type Segment, type SegmentUser } from "./segments.ts";

const ana: SegmentUser = { id: "11", username: "ana", full_name: "Ana" };
const ben: SegmentUser = { id: "12", username: "ben", full_name: "Ben" };
const blocked = new Set(["evil.example"]);
const tag = (user_id: string, offset: number, length: number): CommentTag => ({ user_id, offset, length });
const text = (t: string): Segment => ({ type: "text", text: t });
const link = (t: string, href = t): Segment => ({ type: "link", text: t, href });

describe("toSegments", () => {
  it.each<[string, string, CommentTag[], Segment[]]>([
    ["plain text is one text segment", "Lovely colours", [], [text("Lovely colours")]],
    ["an empty text has no segments", "", [], []],
    ["an https URL becomes a link", "see https://a.example/x", [], [text("see "), link("https://a.example/x")]],
    ["an http URL becomes a link", "http://a.example", [], [link("http://a.example", "http://a.example/")]],
    ["sentence punctuation after a URL stays text", "go to https://a.example/p.", [], [text("go to "), link("https://a.example/p"), text(".")]],
    ["a blocked host stays text", "https://evil.example/x", [], [text("https://evil.example/x")]],
    ["a subdomain of a blocked host stays text", "https://www.evil.example", [], [text("https://www.evil.example")]],
    ["a lookalike of a blocked host is a link", "https://notevil.example/", [], [link("https://notevil.example/")]],
    ["a bare domain without a scheme stays text", "www.a.example", [], [text("www.a.example")]],
    ["a URL with credentials stays text", "https://user:pw@a.example/", [], [text("https://user:pw@a.example/")]],
    ["a single-label host stays text", "http://localhost/", [], [text("http://localhost/")]],
    ["a tag makes a mention", "hi @ana!", [tag("11", 3, 4)], [text("hi "), { type: "mention", text: "@ana", user: ana }, text("!")]],
    ["an @name without a tag stays text", "hi @ana", [], [text("hi @ana")]],
    ["a tag for a user not in tagged_users stays text", "hi @zed", [tag("99", 3, 4)], [text("hi @zed")]],
    ["a tag past the end stays text", "hi @ana", [tag("11", 3, 10)], [text("hi @ana")]],
    ["a negative offset stays text", "hi @ana", [tag("11", -1, 2)], [text("hi @ana")]],
    ["overlapping tags keep the first", "@ana@ben", [tag("11", 0, 5), tag("12", 4, 4)], [{ type: "mention", text: "@ana@", user: ana }, text("ben")]],
    [
      "tags out of order are sorted",
      "@ben and @ana",
      [tag("11", 9, 4), tag("12", 0, 4)],
      [{ type: "mention", text: "@ben", user: ben }, text(" and "), { type: "mention", text: "@ana", user: ana }],
    ],
    ["a mention wins over a URL it covers", "https://a.example", [tag("11", 0, 17)], [{ type: "mention", text: "https://a.example", user: ana }]],
  ])("%s", (_, input, tags, expected) => {
    expect(toSegments(input, tags, [ana, ben], blocked)).toEqual(expected);
  });

  it("bounds mentions and links; the rest stays text", () => {
    const many = Array.from({ length: 30 }, (_, i) => `https://a${i}.example`).join(" ");
    const segments = toSegments(many, [], [], blocked);
    expect(segments.filter((s) => s.type === "link")).toHaveLength(MAX_LINKS);
    const names = "@ana ".repeat(30);
    const tags = Array.from({ length: 30 }, (_, i) => tag("11", i * 5, 4));
    expect(toSegments(names, tags, [ana], blocked).filter((s) => s.type === "mention")).toHaveLength(MAX_MENTIONS);
  });

  it("the links' rel is nofollow ugc noopener", () => {
    expect(COMMENT_LINK_REL).toBe("nofollow ugc noopener");
  });
});

describe("isBlockedHost", () => {
  it.each<[string, boolean]>([
    ["evil.example", true],
    ["EVIL.example", true],
    ["a.b.evil.example", true],
    ["evil.example.", true],
    ["evil.example.org", false],
    ["devil.example", false],
  ])("%s → %s", (host, expected) => {
    expect(isBlockedHost(host, blocked)).toBe(expected);
  });
});


// Whatever the corpus holds, segments are data: joined, their text gives back the input exactly
// (so a renderer escaping text nodes shows it verbatim), and every href is an http(s) URL the
// URL parser re-serialised, free of quotes, angle brackets, whitespace and bidirectional
// controls, so it cannot break out of an attribute or disguise its target.
describe("injection corpus: nothing becomes markup", () => {
  it.each(INJECTION_CORPUS.map((input) => [input]))("%j", (input) => {
    const segments = toSegments(input, [], [], blocked);
    expect(segments.map((s) => s.text).join("")).toBe(input);
    for (const segment of segments) {
      if (segment.type !== "link") continue;
      expect(segment.href).toMatch(/^https?:\/\/[^/]+\.[^/]+\//u);
      expect(segment.href).not.toMatch(/["'<>`\s\u202a-\u202e\u2066-\u2069]/u);
      expect(new URL(segment.href).hostname).not.toMatch(/evil\.example$/u);
    }
  });

  it("no javascript: or data: text ever becomes a link", () => {
    for (const input of INJECTION_CORPUS.filter((s) => /^(javascript|data):/iu.test(s))) {
      expect(toSegments(input, [], [], blocked)).toEqual([text(input)]);
    }
  });
});
