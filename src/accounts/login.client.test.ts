import { describe, expect, it } from "vitest";
import { cleanOtp, logIn, logInWithCode } from "./login.client.ts";
import { fail, fakeTransport, ok } from "~/api/fake-transport.ts";

const session = { user: { id: "1", username: "demo" }, viewer_type: "AUTH", days_to_expiration: 365 };

describe("logIn", () => {
  it("trims the username or email and exchanges the login token", async () => {
    const { transport, seen } = fakeTransport([ok({ token: "login-token" }), ok(session)]);
    const result = await logIn({ username_or_email: "  demo@pinloom.example \n", password: " pw " }, transport);
    expect(result.kind).toBe("success");
    expect(seen[0]!.url).toBe("/v3/login/handshake/");
    const body = new URLSearchParams(seen[0]!.body);
    expect(body.get("username_or_email")).toBe("demo@pinloom.example");
    expect(body.get("password")).toBe(" pw ");
    expect(JSON.parse(seen[1]!.body!)).toEqual({ token: "login-token", isRegistration: false });
  });

  it("a 409 with code 12 switches to the code step with the challenge token", async () => {
    const { transport } = fakeTransport([{ status: 409, body: { status: "failure", code: 12, message: "mfa", data: { token: "challenge" } } }]);
    expect(await logIn({ username_or_email: "noah_secure ", password: "x" }, transport)).toEqual({ kind: "mfa", challenge: "challenge", username_or_email: "noah_secure" });
  });

  it("wrong credentials come back as an error with the server's message", async () => {
    const { transport } = fakeTransport([fail(401, 2)]);
    expect(await logIn({ username_or_email: "x", password: "y" }, transport)).toEqual({ kind: "error", code: 2, httpStatus: 401, message: "failure 2" });
  });

  it("a network failure is an error without a code", async () => {
    const { transport } = fakeTransport([{ throws: new TypeError("offline") }]);
    expect(await logIn({ username_or_email: "x", password: "y" }, transport)).toMatchObject({ kind: "error", code: null });
  });
});

describe("logInWithCode", () => {
  it("posts the code and the challenge to the MFA handshake, then exchanges", async () => {
    const { transport, seen } = fakeTransport([ok({ token: "t" }), ok(session)]);
    const result = await logInWithCode({ challenge: "c", username_or_email: "noah_secure", code: "123 456" }, transport);
    expect(result.kind).toBe("success");
    expect(seen[0]!.url).toBe("/v3/login/mfa/handshake/");
    expect(Object.fromEntries(new URLSearchParams(seen[0]!.body))).toEqual({ username_or_email: "noah_secure", mfa_token: "123456", token: "c" });
  });
  it("cleanOtp keeps six digits", () => {
    expect(cleanOtp(" 12a3-4567 8")).toBe("123456");
  });
});
