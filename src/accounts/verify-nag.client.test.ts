import { describe, expect, it } from "vitest";
import { VERIFY_NAG_KEY, shouldNagVerify } from "./verify-nag.client.ts";

const memory = () => {
  const map = new Map<string, string>();
  return { map, getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v) };
};

describe("the verify-email reminder", () => {
  it("opens once per session for a viewer with the verify_email nag", () => {
    const storage = memory();
    expect(shouldNagVerify({ viewer: { nags: ["verify_email"] } }, storage)).toBe(true);
    expect(storage.map.get(VERIFY_NAG_KEY)).toBe("1");
    expect(shouldNagVerify({ viewer: { nags: ["verify_email"] } }, storage)).toBe(false);
  });
  it.each([{}, { viewer: null }, { viewer: { nags: [] } }, { viewer: { nags: "verify_email" } }])("never for %j", (context) => {
    expect(shouldNagVerify(context, memory())).toBe(false);
  });
});
