import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "./password.ts";

describe("password hashing", () => {
  it("verifies the right password and refuses a wrong one", async () => {
    const stored = await hashPassword("correct horse battery staple");
    expect(stored).toMatch(/^pbkdf2-sha256\$6x100000\$/);
    expect(await verifyPassword("correct horse battery staple", stored)).toBe(true);
    expect(await verifyPassword("correct horse battery stapler", stored)).toBe(false);
  });

  it("salts: the same password hashes differently each time", async () => {
    expect(await hashPassword("same")).not.toBe(await hashPassword("same"));
  });

  it("is deterministic for a given salt (the seed relies on it)", async () => {
    const salt = new Uint8Array(16).fill(7);
    expect(await hashPassword("demo", salt)).toBe(await hashPassword("demo", new Uint8Array(16).fill(7)));
  });

  it.each(["", "plain", "pbkdf2-sha256$6x100000$$", "pbkdf2-sha256$6x999999$AAAA$AAAA", "md5$abc"])("refuses malformed %s", async (stored) => {
    expect(await verifyPassword("x", stored)).toBe(false);
  });
});
