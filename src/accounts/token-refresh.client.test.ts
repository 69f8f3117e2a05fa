import { describe, expect, it } from "vitest";
import { readEmbeddedContext, refreshAction, refreshTokens } from "./token-refresh.client.ts";
import { fakeTransport, ok } from "~/api/fake-transport.ts";

describe("the token refresh rule (spec §4, 90 days)", () => {
  it.each([
    [true, 365, null],
    [true, 91, null],
    [true, 90, "refresh_token"],
    [true, 1, "refresh_token"],
    [true, 0.5, "refresh_token"],
    [true, 0, "refresh_stored_accounts"],
    [true, -3, "refresh_stored_accounts"],
    [true, null, null],
    [false, 10, null],
    [false, 0, null],
  ] as const)("signed in %s, %s days → %s", (signedIn, days, action) => {
    expect(refreshAction(signedIn, days)).toBe(action);
  });

  it("calls GET /refresh_token inside the window", async () => {
    const { transport, seen } = fakeTransport([ok({ days_to_expiration: 365 })]);
    await expect(refreshTokens({ loginState: "AUTH", daysToExpiration: 30 }, transport)).resolves.toBe("refresh_token");
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual(["GET /refresh_token"]);
  });

  it("calls GET /refresh_stored_accounts when expired", async () => {
    const { transport, seen } = fakeTransport([ok({ session_accounts: [] })]);
    await refreshTokens({ loginState: "AUTH", daysToExpiration: 0 }, transport);
    expect(seen.map((s) => s.url)).toEqual(["/refresh_stored_accounts"]);
  });

  it("signed out pages call nothing", async () => {
    const { transport, seen } = fakeTransport([]);
    await expect(refreshTokens({ loginState: "UNAUTH", daysToExpiration: null }, transport)).resolves.toBeNull();
    expect(seen).toHaveLength(0);
  });

  it("reads daysToExpiration from #pinloom-context", () => {
    const doc = { getElementById: (id: string) => (id === "pinloom-context" ? ({ textContent: '{"loginState":"AUTH","daysToExpiration":12}' } as HTMLElement) : null) };
    expect(readEmbeddedContext(doc).daysToExpiration).toBe(12);
    expect(readEmbeddedContext({ getElementById: () => ({ textContent: "{oops" }) as HTMLElement })).toEqual({});
  });
});
