import { describe, expect, it } from "vitest";
import { decodeBase32, generateTotp, stepAt, verifyTotp } from "./totp.ts";

// RFC 6238 appendix B, SHA-1 rows, secret "12345678901234567890", last six digits.
const RFC_SECRET = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
const DEMO_SECRET = "PINLOOMDEMOTOTPSECRETKEY23456ABC";

describe("TOTP (RFC 6238, SHA-1, 6 digits, 30 s)", () => {
  it.each([
    [59, "287082"],
    [1111111109, "081804"],
    [1111111111, "050471"],
    [1234567890, "005924"],
    [2000000000, "279037"],
    [20000000000, "353130"],
  ])("at %i s the code is %s", async (seconds, code) => {
    expect(await generateTotp(RFC_SECRET, seconds * 1000)).toBe(code);
  });

  it("decodes base32 in any case, ignoring spaces and padding", () => {
    expect(decodeBase32("gezd gnbv===")).toEqual(decodeBase32("GEZDGNBV"));
    expect(decodeBase32("GEZ1")).toBeNull();
    expect(decodeBase32("")).toBeNull();
  });

  it("accepts the current step and one either side, not two", async () => {
    const now = 1_800_000_000_000;
    for (const offset of [-1, 0, 1]) {
      const code = await generateTotp(DEMO_SECRET, now + offset * 30_000);
      expect(await verifyTotp(DEMO_SECRET, code, now)).toBe(stepAt(now) + offset);
    }
    for (const offset of [-2, 2]) {
      const code = await generateTotp(DEMO_SECRET, now + offset * 30_000);
      expect(await verifyTotp(DEMO_SECRET, code, now)).toBeNull();
    }
  });

  it("refuses a code for a step at or before the last accepted one (replay)", async () => {
    const now = 1_800_000_000_000;
    const code = await generateTotp(DEMO_SECRET, now);
    const step = await verifyTotp(DEMO_SECRET, code, now);
    expect(step).not.toBeNull();
    expect(await verifyTotp(DEMO_SECRET, code, now, step)).toBeNull();
    expect(await verifyTotp(DEMO_SECRET, code, now + 10_000, step)).toBeNull();
    expect(await verifyTotp(DEMO_SECRET, code, now, step! - 1)).toBe(step);
  });

  it.each(["", "12345", "1234567", "12345a", " 123456"])("refuses the malformed code %j", async (code) => {
    expect(await verifyTotp(DEMO_SECRET, code)).toBeNull();
  });

  it("refuses a wrong code", async () => {
    const now = 1_800_000_000_000;
    const code = await generateTotp(DEMO_SECRET, now);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, "0");
    expect(await verifyTotp(DEMO_SECRET, wrong, now)).toBeNull();
  });
});
