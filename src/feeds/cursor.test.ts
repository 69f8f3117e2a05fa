import { describe, expect, it } from "vitest";
import { decodeKeyset, decodeTimeCursor, encodeKeyset, keysetPageOf } from "./cursor.ts";

describe("keyset cursors", () => {
  it.each([
    ["a board position", -3.5, 17],
    ["a time", 1_700_000_000_123, 42],
    ["a board name in any script", "وصفات العائلة", 9],
    ["a name with quotes and slashes", 'A "b"/c\\d', 1],
  ] as const)("round-trip %s", (_name, key, id) => {
    const cursor = encodeKeyset(key, id);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeKeyset(cursor)).toEqual({ key, id });
  });

  it.each([
    ["empty", ""],
    ["not base64url", "a+b/c="],
    ["not JSON", btoa("nope")],
    ["the wrong shape", btoa(JSON.stringify({ key: 1, id: 2 }))],
    ["a fractional id", btoa(JSON.stringify([1, 2.5]))],
    ["an object key", btoa(JSON.stringify([{}, 2]))],
    ["too long", "A".repeat(401)],
  ])("refuse %s", (_name, cursor) => {
    expect(decodeKeyset(cursor.replace(/=+$/, ""))).toBeNull();
  });
});

describe("time cursors (newest-first feeds)", () => {
  it("read the created_at and id a keyset cursor holds", () => {
    expect(decodeTimeCursor(encodeKeyset(1_700_000_000_123, 42))).toEqual({ createdAt: 1_700_000_000_123, id: 42 });
    // Written by hand: base64url of [1700000000123,42].
    expect(decodeTimeCursor("WzE3MDAwMDAwMDAxMjMsNDJd")).toEqual({ createdAt: 1_700_000_000_123, id: 42 });
  });

  it.each([
    ["a name key", encodeKeyset("Dinners", 3)],
    ["a fractional key", encodeKeyset(-3.5, 17)],
    ["an unsafe key", encodeKeyset(2 ** 60, 1)],
    ["anything not a keyset", "abc"],
  ])("refuse %s", (_name, cursor) => {
    expect(decodeTimeCursor(cursor)).toBeNull();
  });
});

describe("keysetPageOf", () => {
  const rows = [1, 2, 3, 4].map((id) => ({ id, key: id * 10 }));
  const cursorOf = (row: { id: number; key: number }) => encodeKeyset(row.key, row.id);
  it("takes the page and names the last row of it when one more row came back", () => {
    const page = keysetPageOf(rows, 3, cursorOf, (row) => row.id);
    expect(page).toEqual({ items: [1, 2, 3], hasNextPage: true, endCursor: encodeKeyset(30, 3) });
  });
  it("has no cursor on the last page", () => {
    expect(keysetPageOf(rows, 4, cursorOf, (row) => row.id)).toEqual({ items: [1, 2, 3, 4], hasNextPage: false, endCursor: null });
  });
  it("keeps paging past rows the re-check refuses: the cursor is the last row fetched", () => {
    const page = keysetPageOf(rows, 3, cursorOf, (row) => row.id, (row) => row.id !== 3);
    expect(page.items).toEqual([1, 2]);
    expect(page.endCursor).toBe(encodeKeyset(30, 3));
  });
});
