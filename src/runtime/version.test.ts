import { describe, expect, it } from "vitest";
import { isPlainNavigation, noteVersion, parseSeen, reloadOnNavigation, SLOW_EFFECTIVE_TYPES, STALE_RELOAD_MS } from "./version.ts";

const HOUR = 60 * 60 * 1000;

describe("version constants (spec 000 §4)", () => {
  it("defers on slow-2g, 2g and 3g only, for 24 hours", () => {
    expect([...SLOW_EFFECTIVE_TYPES].sort()).toEqual(["2g", "3g", "slow-2g"]);
    expect(STALE_RELOAD_MS).toBe(24 * HOUR);
  });
});

describe("noteVersion", () => {
  it.each([
    ["no header", null],
    ["an empty header", ""],
  ])("ignores %s", (_name, header) => {
    expect(noteVersion("v1", header, null, 5)).toEqual({ seen: null, isNew: false });
    expect(noteVersion("v1", header, { version: "v2", seenAt: 1 }, 5)).toEqual({ seen: { version: "v2", seenAt: 1 }, isNew: false });
  });

  it("forgets a pending version once the server answers with ours again", () => {
    expect(noteVersion("v1", "v1", { version: "v2", seenAt: 1 }, 5)).toEqual({ seen: null, isNew: false });
  });

  it("reports a new version once, keeping when it was first seen", () => {
    const first = noteVersion("v1", "v2", null, 100);
    expect(first).toEqual({ seen: { version: "v2", seenAt: 100 }, isNew: true });
    const again = noteVersion("v1", "v2", first.seen, 900);
    expect(again).toEqual({ seen: { version: "v2", seenAt: 100 }, isNew: false });
  });

  it("reports a newer version again", () => {
    expect(noteVersion("v1", "v3", { version: "v2", seenAt: 100 }, 900)).toEqual({ seen: { version: "v3", seenAt: 900 }, isNew: true });
  });

  it("bounds the header it keeps", () => {
    expect(noteVersion("v1", "x".repeat(500), null, 1).seen?.version).toHaveLength(64);
  });
});

describe("reloadOnNavigation", () => {
  const seen = { version: "v2", seenAt: 0 };
  it.each([
    ["nothing seen", null, 0, "4g", false],
    ["our own version seen", { version: "v1", seenAt: 0 }, 0, "4g", false],
    ["new version on 4g", seen, 1, "4g", true],
    ["new version, connection unknown", seen, 1, undefined, true],
    ["slow-2g, fresh", seen, 23 * HOUR, "slow-2g", false],
    ["2g, fresh", seen, 1, "2g", false],
    ["3g, one ms short of 24 h", seen, 24 * HOUR - 1, "3g", false],
    ["3g, 24 h stale", seen, 24 * HOUR, "3g", true],
    ["2g, 30 h stale", seen, 30 * HOUR, "2g", true],
  ] as const)("%s → %s", (_name, state, now, type, expected) => {
    expect(reloadOnNavigation("v1", state, now, type)).toBe(expected);
  });
});

describe("parseSeen", () => {
  it.each([null, "", "{", "[]", '{"version":1,"seenAt":2}', '{"version":"v","seenAt":"x"}'])("rejects %j", (text) => {
    expect(parseSeen(text)).toBeNull();
  });
  it("reads what noteVersion stored", () => {
    expect(parseSeen(JSON.stringify({ version: "v2", seenAt: 7 }))).toEqual({ version: "v2", seenAt: 7 });
  });
});

describe("isPlainNavigation", () => {
  const click = { button: 0, metaKey: false, ctrlKey: false, shiftKey: false, altKey: false, defaultPrevented: false };
  const link = { href: "https://pinloom.test/pin/1/", target: "", hasDownload: false };
  const origin = "https://pinloom.test";
  it("takes a plain left click on a same-origin link", () => {
    expect(isPlainNavigation(click, link, origin)).toBe(true);
    expect(isPlainNavigation(click, { ...link, href: "/pin/2/", target: "_self" }, origin)).toBe(true);
  });
  it.each([
    ["a modified click", { ...click, ctrlKey: true }, link],
    ["a middle click", { ...click, button: 1 }, link],
    ["a handled click", { ...click, defaultPrevented: true }, link],
    ["another origin", click, { ...link, href: "https://elsewhere.test/" }],
    ["a new tab", click, { ...link, target: "_blank" }],
    ["a download", click, { ...link, hasDownload: true }],
    ["a mailto link", click, { ...link, href: "mailto:a@b.test" }],
  ])("leaves %s alone", (_name, event, target) => {
    expect(isPlainNavigation(event, target, origin)).toBe(false);
  });
});
