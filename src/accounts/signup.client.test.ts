import { describe, expect, it, vi } from "vitest";
import { AGE_COOKIE_STRING, NO_TOKEN_MESSAGE, SIGNUP_RETRIES, fieldProblems, installId, registrationType, signUp, signupBody, type SignupInput } from "./signup.client.ts";
import { fail, fakeTransport, ok } from "~/api/fake-transport.ts";

const base: SignupInput = { email: " new@pinloom.example ", username: "newbie", password: "Secret#123", first_name: "Nia", last_name: "Reed", country: "US", locale: "en-US" };
const session = { user: { id: "9", username: "newbie" }, viewer_type: "AUTH", days_to_expiration: 365 };
const deps = (transport: ReturnType<typeof fakeTransport>["transport"]) => ({
  transport,
  installId: "00000000-0000-4000-8000-000000000000",
  setCookie: vi.fn(),
  logFailure: vi.fn(),
  sleep: () => Promise.resolve(),
});

describe("registration type (spec §5)", () => {
  it.each([
    [{}, "email"],
    [{ business_name: "Bake & Bloom" }, "partner"],
    [{ facebook_id: "123" }, "facebook"],
    [{ business_name: "Shop", facebook_id: "123" }, "partner"],
    [{ business_name: "   " }, "email"],
  ] as const)("%j → %s", (input, type) => {
    expect(registrationType(input)).toBe(type);
  });
});

describe("the sign-up body", () => {
  it("sends optional fields only when present", () => {
    const body = signupBody({ ...base, birthday: "", gender: undefined, invite_code: "inv1" });
    expect(body).toEqual({ email: "new@pinloom.example", username: "newbie", password: "Secret#123", first_name: "Nia", last_name: "Reed", country: "US", locale: "en-US", referrer: "", invite_code: "inv1" });
  });
  it("a business's first_name is its business name", () => {
    const body = signupBody({ ...base, business_name: " Bake & Bloom " });
    expect(body["first_name"]).toBe("Bake & Bloom");
    expect(body["business_name"]).toBe("Bake & Bloom");
  });
  it("lists are sent as JSON text", () => {
    expect(signupBody({ ...base, visited_pages: ["/pin/1/"] })["visited_pages"]).toBe('["/pin/1/"]');
  });
});

describe("signUp", () => {
  it("posts the form to the handshake of its type with the install id, then exchanges the token as a registration", async () => {
    const { transport, seen } = fakeTransport([ok({ token: "reg-token" }), ok(session)]);
    const result = await signUp({ ...base, business_name: "Shop" }, deps(transport));
    expect(result.kind).toBe("success");
    expect(seen[0]!.url).toBe("/v3/register/partner/handshake/");
    expect(seen[0]!.headers["X-Pinloom-Install-Id"]).toBe("00000000-0000-4000-8000-000000000000");
    expect(seen[0]!.headers["Content-Type"]).toBe("application/x-www-form-urlencoded");
    expect(seen[1]!.url).toBe("/v3/sessions/exchange/");
    expect(JSON.parse(seen[1]!.body!)).toEqual({ token: "reg-token", isRegistration: true });
  });

  it("retries network errors and answers with no code up to 3 times, then logs the failure", async () => {
    const { transport, seen } = fakeTransport([
      { throws: new TypeError("offline") },
      { status: 502, body: "<html></html>" },
      { throws: new TypeError("offline") },
      { status: 503, body: "" },
    ]);
    const d = deps(transport);
    const result = await signUp(base, d);
    expect(result.kind).toBe("failed");
    expect(seen).toHaveLength(1 + SIGNUP_RETRIES);
    expect(d.logFailure).toHaveBeenCalledTimes(1);
  });

  it("every try of one sign-up names the same client request id; the next sign-up a new one", async () => {
    const { transport, seen } = fakeTransport([{ throws: new TypeError("offline") }, ok({ token: "t" }), ok(session), ok({ token: "u" }), ok(session)]);
    await signUp(base, deps(transport));
    await signUp(base, deps(transport));
    const ids = seen.filter((request) => request.url.includes("/handshake/")).map((request) => request.headers["X-Client-Request-Id"]);
    expect(ids).toHaveLength(3);
    expect(ids[0]).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
    expect(ids[1]).toBe(ids[0]);
    expect(ids[2]).not.toBe(ids[0]);
  });

  it("a retry that succeeds carries on", async () => {
    const { transport, seen } = fakeTransport([{ throws: new TypeError("offline") }, ok({ token: "t" }), ok(session)]);
    expect((await signUp(base, deps(transport))).kind).toBe("success");
    expect(seen).toHaveLength(3);
  });

  it("an answer with a code is never retried", async () => {
    const { transport, seen } = fakeTransport([fail(429, 9)]);
    const result = await signUp(base, deps(transport));
    expect(result).toMatchObject({ kind: "failed", message: "failure 9" });
    expect(seen).toHaveLength(1);
  });

  it("the age-restriction code sets the cookie", async () => {
    const { transport } = fakeTransport([fail(409, 13)]);
    const d = deps(transport);
    expect((await signUp({ ...base, birthday: "2020-01-01" }, d)).kind).toBe("ageRestricted");
    expect(d.setCookie).toHaveBeenCalledWith(AGE_COOKIE_STRING);
    expect(AGE_COOKIE_STRING).toBe("pinloom_age_restricted=1; Path=/; Max-Age=86400; Secure; SameSite=Lax");
  });

  it("a taken email or username names its field", async () => {
    const { transport } = fakeTransport([fail(409, 6, { extra_data: { field: "username" } })]);
    expect(await signUp(base, deps(transport))).toMatchObject({ kind: "conflict", field: "username" });
  });

  it("a 400 hands back its field problems", async () => {
    const detail = "password: Oops! Your password can only have letters, numbers and basic symbols.; email: has an invalid format";
    const { transport } = fakeTransport([fail(400, 1, { message_detail: detail })]);
    expect(await signUp(base, deps(transport))).toMatchObject({
      kind: "invalid",
      fields: { password: "Oops! Your password can only have letters, numbers and basic symbols.", email: "has an invalid format" },
    });
  });

  it("a success without a token shows the spec's sentence", async () => {
    const { transport } = fakeTransport([ok({})]);
    expect(await signUp(base, deps(transport))).toEqual({ kind: "noToken", message: NO_TOKEN_MESSAGE });
    expect(NO_TOKEN_MESSAGE).toBe("We were able to create your account, but there was a problem logging you in. Try refreshing the page to continue.");
  });

  it("an exchange that fails after the account was made shows the same sentence", async () => {
    const { transport } = fakeTransport([ok({ token: "t" }), fail(401, 2)]);
    expect((await signUp(base, deps(transport))).kind).toBe("noToken");
  });
});

describe("helpers", () => {
  it("fieldProblems keeps the first reason per field", () => {
    expect(fieldProblems("a: x; a: y; b: z")).toEqual({ a: "x", b: "z" });
    expect(fieldProblems(null)).toEqual({});
  });
  it("installId is stable once stored", () => {
    const map = new Map<string, string>();
    const storage = { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v) };
    const first = installId(storage, () => "11111111-1111-4111-8111-111111111111");
    expect(installId(storage, () => "22222222-2222-4222-8222-222222222222")).toBe(first);
  });
});
