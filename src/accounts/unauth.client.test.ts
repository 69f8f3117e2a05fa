import { describe, expect, it } from "vitest";
import { COMMENT_KEY, SAVE_KEY, pinIdOfPath, rememberIntent, takePendingIntent } from "./unauth.client.ts";

const memory = () => {
  const map = new Map<string, string>();
  return { map, getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v), removeItem: (k: string) => void map.delete(k) };
};

describe("signed-out intents", () => {
  it("remembers the pin under the spec's names", () => {
    const storage = memory();
    rememberIntent({ kind: "save", pinId: "100001" }, storage);
    rememberIntent({ kind: "comment", pinId: "100002" }, storage);
    expect(storage.map.get(SAVE_KEY)).toBe("100001");
    expect(storage.map.get(COMMENT_KEY)).toBe("100002");
  });

  it("hands the intent back once", () => {
    const storage = memory();
    rememberIntent({ kind: "save", pinId: "100001" }, storage);
    expect(takePendingIntent("100001", storage)).toEqual({ kind: "save", pinId: "100001" });
    expect(takePendingIntent("100001", storage)).toBeNull();
  });

  it("on another pin's page leaves the intent for its own pin", () => {
    const storage = memory();
    rememberIntent({ kind: "comment", pinId: "7" }, storage);
    expect(takePendingIntent("8", storage)).toBeNull();
    expect(takePendingIntent(null, storage)).toEqual({ kind: "comment", pinId: "7" });
  });

  it("refuses ids that are not pin ids", () => {
    const storage = memory();
    expect(rememberIntent({ kind: "save", pinId: "../x" }, storage)).toBe(false);
    storage.setItem(SAVE_KEY, "<script>");
    expect(takePendingIntent(null, storage)).toBeNull();
    expect(storage.map.has(SAVE_KEY)).toBe(false);
  });

  it.each([
    ["/pin/100001/", "100001"],
    ["/pin/100001/sent/", "100001"],
    ["/pin/abc/", null],
    ["/pins/1/", null],
  ])("pinIdOfPath(%s) = %s", (path, id) => {
    expect(pinIdOfPath(path)).toBe(id);
  });
});
