import { describe, expect, it, vi } from "vitest";
import { AUTHENTICATION_FAILED, LOGOUT_FLAG, passwordAskedFor, signOut, switchAccount } from "./session.client.ts";
import { fakeTransport, fail } from "~/api/fake-transport.ts";

const resourceOk = (data: unknown) => ({ status: 200, body: { resource_response: { status: "success", code: 0, message: "ok", data } } });
const memory = () => {
  const map = new Map<string, string>();
  return { map, getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v), removeItem: (k: string) => void map.delete(k) };
};

describe("signOut", () => {
  it("deletes the session, disabling the auth-failure redirect, and goes to the answered redirect_url", async () => {
    const { transport, seen } = fakeTransport([resourceOk({ redirect_url: "/pin/5/" })]);
    const navigate = vi.fn();
    await expect(signOut({ next: "/pin/5/" }, { transport, flags: memory(), navigate })).resolves.toBe("/pin/5/");
    expect(seen[0]!.url).toBe("/resource/UserSessionResource/delete/");
    expect(JSON.parse(seen[0]!.body!)).toEqual({ options: { disable_auth_failure_redirect: true, next: "/pin/5/" } });
    expect(navigate).toHaveBeenCalledWith("/pin/5/");
  });

  it("never follows an off-site redirect_url", async () => {
    const { transport } = fakeTransport([resourceOk({ redirect_url: "//evil.example/" })]);
    const navigate = vi.fn();
    await signOut({ next: "https://evil.example/" }, { transport, flags: memory(), navigate });
    expect(navigate).toHaveBeenCalledWith("/");
  });

  it("a second authentication_failed sign-out while the flag is set does nothing", async () => {
    const flags = memory();
    const { transport, seen } = fakeTransport([resourceOk({ redirect_url: "/" })]);
    const navigate = vi.fn();
    await signOut({ reason: AUTHENTICATION_FAILED }, { transport, flags, navigate });
    expect(flags.map.has(LOGOUT_FLAG)).toBe(true);
    await expect(signOut({ reason: AUTHENTICATION_FAILED }, { transport, flags, navigate })).resolves.toBeNull();
    expect(seen).toHaveLength(1);
    expect(navigate).toHaveBeenCalledTimes(1);
  });

  it("the guard is only for authentication_failed: a person's own sign-out always runs", async () => {
    const flags = memory();
    flags.setItem(LOGOUT_FLAG, "1");
    const { transport, seen } = fakeTransport([resourceOk({ redirect_url: "/" })]);
    await signOut({}, { transport, flags, navigate: vi.fn() });
    expect(seen).toHaveLength(1);
  });

  it("a failed sign-out clears the flag and is rethrown", async () => {
    const flags = memory();
    const { transport } = fakeTransport([fail(500, 99)]);
    await expect(signOut({ reason: AUTHENTICATION_FAILED }, { transport, flags, navigate: vi.fn() })).rejects.toThrow();
    expect(flags.map.has(LOGOUT_FLAG)).toBe(false);
  });

  it("an aborted sign-out is ignored", async () => {
    const { transport } = fakeTransport([{ throws: new DOMException("aborted", "AbortError") }]);
    // fetch rejections become NetworkError in call(); the abort is its cause
    await expect(signOut({}, { transport, flags: memory(), navigate: vi.fn() })).resolves.toBeNull();
  });
});

describe("switchAccount", () => {
  it("asks UserSessionResource create to switch and reads the device's accounts", async () => {
    const { transport, seen } = fakeTransport([resourceOk({ session_accounts: [{ id: "7", username: "sam" }] })]);
    await expect(switchAccount("7", transport)).resolves.toEqual([{ id: "7", username: "sam" }]);
    expect(JSON.parse(seen[0]!.body!)).toEqual({ options: { session_accounts: true, switch_to_user_id: "7" } });
  });
});

describe("a switch to an account whose session expired", () => {
  const refused = (status: number, code: number, extraData: unknown) => ({
    status,
    body: { resource_response: { status: "failure", code, message: "m", data: null, error: { code, extra_data: extraData } } },
  });
  const reasonOf = async (answer: ReturnType<typeof refused>) => {
    const { transport } = fakeTransport([answer]);
    return switchAccount("7", transport).then(
      () => "switched",
      (error: unknown) => passwordAskedFor(error, "entry_name"),
    );
  };

  it("asks for the password of the account the server names (401 code 19)", async () => {
    expect(await reasonOf(refused(401, 19, { username_or_email: "sam" }))).toBe("sam");
  });

  it("falls back to the entry's own username when the server names none", async () => {
    expect(await reasonOf(refused(401, 19, null))).toBe("entry_name");
  });

  it("is no password question for any other refusal", async () => {
    expect(await reasonOf(refused(403, 3, null))).toBeNull();
    expect(await reasonOf(refused(409, 6, null))).toBeNull();
    expect(passwordAskedFor(new TypeError("offline"), "entry_name")).toBeNull();
  });
});
