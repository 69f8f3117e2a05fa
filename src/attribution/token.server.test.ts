import { createHmac } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { checkAttributionToken, DEVELOPMENT_ATTRIBUTION_SECRET, attributionSecret, linkAttributionToken, signAttributionToken } from "./token.server.ts";

const SECRET = "unit-test-attribution-secret-0123456789";
/** 2023-11-14T22:13:20Z: its ten-minute bucket ends at 1700000400, and a token lives an hour past that. */
const NOW = 1_700_000_000_000;
const EXPIRY = 1_700_004_000;
const subject = { pinId: "5001", advertiserId: "42" };

describe("the attribution token", () => {
  it("is the expiry and an HMAC-SHA-256 of the pin, the advertiser and the expiry", async () => {
    const mac = createHmac("sha256", SECRET).update(`pinloom-attribution-v1\n5001\n42\n${EXPIRY}`).digest("hex");
    expect(await signAttributionToken(SECRET, subject, NOW)).toBe(`${EXPIRY}.${mac}`);
  });

  it("is the same for every render in one ten-minute bucket (cached and fresh pages agree)", async () => {
    expect(await signAttributionToken(SECRET, subject, NOW + 399_000)).toBe(await signAttributionToken(SECRET, subject, NOW));
    expect(await signAttributionToken(SECRET, subject, NOW + 400_000)).toMatch(/^1700004600\./);
  });

  it("is valid for its own pin and advertiser until it expires", async () => {
    const token = await signAttributionToken(SECRET, subject, NOW);
    expect(await checkAttributionToken(SECRET, token, subject, NOW)).toBe("valid");
    expect(await checkAttributionToken(SECRET, token, subject, EXPIRY * 1000 - 1)).toBe("valid");
    expect(await checkAttributionToken(SECRET, token, subject, EXPIRY * 1000)).toBe("expired");
  });

  it.each([
    ["another pin", { pinId: "5002", advertiserId: "42" }],
    ["another advertiser", { pinId: "5001", advertiserId: "43" }],
  ])("is forged for %s", async (_name, other) => {
    expect(await checkAttributionToken(SECRET, await signAttributionToken(SECRET, subject, NOW), other, NOW)).toBe("forged");
  });

  it("is forged with a pushed-back expiry, another secret's MAC, or a malformed text", async () => {
    const [, mac] = (await signAttributionToken(SECRET, subject, NOW)).split(".");
    expect(await checkAttributionToken(SECRET, `${EXPIRY + 86_400}.${mac}`, subject, NOW)).toBe("forged");
    expect(await checkAttributionToken(SECRET, await signAttributionToken("another-secret-of-at-least-32-characters", subject, NOW), subject, NOW)).toBe("forged");
    expect(await checkAttributionToken(SECRET, "1700004000.xyz", subject, NOW)).toBe("forged");
  });
});

describe("the signing secret", () => {
  it("is ATTRIBUTION_SECRET when it is long enough", () => {
    expect(attributionSecret({ ATTRIBUTION_SECRET: SECRET, ENVIRONMENT: "production" })).toBe(SECRET);
  });

  it("falls back to the documented local secret in development only", () => {
    expect(attributionSecret({ ENVIRONMENT: "development" })).toBe(DEVELOPMENT_ATTRIBUTION_SECRET);
  });

  it("is none in production without a usable secret: pages carry no token, so nothing is counted", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    expect(attributionSecret({ ENVIRONMENT: "production" })).toBeNull();
    expect(attributionSecret({ ATTRIBUTION_SECRET: "short", ENVIRONMENT: "production" })).toBeNull();
    expect(attributionSecret({ ATTRIBUTION_SECRET: "short", ENVIRONMENT: "development" })).toBeNull();
    expect(await linkAttributionToken({ ENVIRONMENT: "production" }, 5001, "42", NOW)).toBeNull();
    log.mockRestore();
  });

  it("gives a promoted pin's link its token, and an organic pin none", async () => {
    const env = { ATTRIBUTION_SECRET: SECRET, ENVIRONMENT: "production" };
    expect(await linkAttributionToken(env, 5001, "42", NOW)).toBe(await signAttributionToken(SECRET, subject, NOW));
    expect(await linkAttributionToken(env, 5001, null, NOW)).toBeNull();
  });
});
