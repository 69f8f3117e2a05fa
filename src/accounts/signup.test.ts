import { describe, expect, it } from "vitest";
import { ageOn, loginSchema, namesOf, registrationTypeOf, signupProblems, signupSchema } from "./signup.ts";

const base = {
  email: "new@pinloom.test",
  username: "new_person",
  password: "Sunny-Day#42",
  first_name: "Nina",
  last_name: "Park",
  country: "us",
  locale: "en-US",
  referrer: "",
};

function problemsOf(input: Record<string, unknown>) {
  const parsed = signupSchema.safeParse(input);
  expect(parsed.success).toBe(false);
  return parsed.success ? [] : signupProblems(parsed.error, input);
}

describe("sign-up body", () => {
  it("accepts the spec's payload and normalises country and locale", () => {
    const parsed = signupSchema.parse(base);
    expect(parsed.country).toBe("US");
    expect(parsed.locale).toBe("en_US");
  });

  it.each(["pass word!", "Ab1!Ab1!", "émilie123", "密码密码密码密码", "a~`{}[]|\\:;\"'<>,.?/"])("accepts the password %j", (password) => {
    expect(signupSchema.safeParse({ ...base, password }).success).toBe(true);
  });

  it.each(["emoji😀pass", "tab\tpassword", "newline\npassword", "zero\u200bwidth"])("refuses %j with the spec's words", (password) => {
    expect(problemsOf({ ...base, password })).toContainEqual({
      field: "password",
      reason: "accounts:validation.passwordCharacters",
    });
  });

  it("bounds the first name at 30 characters", () => {
    expect(signupSchema.safeParse({ ...base, first_name: "x".repeat(30) }).success).toBe(true);
    expect(problemsOf({ ...base, first_name: "x".repeat(31) })).toContainEqual({ field: "first_name", reason: "validation.tooLong", values: { maximum: 30 } });
  });

  it.each([
    ["ab", "too short"],
    ["12345", "digits only"],
    ["has space", "a space"],
    ["dash-name", "a dash"],
    ["x".repeat(31), "too long"],
  ])("refuses the username %j (%s)", (username) => {
    expect(problemsOf({ ...base, username }).map((p) => p.field)).toContain("username");
  });

  it.each(["settings", "Today", "v3", "login"])("refuses the reserved username %j", (username) => {
    expect(problemsOf({ ...base, username })).toContainEqual({ field: "username", reason: "accounts:validation.usernameReserved" });
  });

  it("refuses a malformed e-mail", () => {
    expect(problemsOf({ ...base, email: "not-an-email" }).map((p) => p.field)).toContain("email");
  });

  it("refuses an impossible birthday", () => {
    expect(problemsOf({ ...base, birthday: "2001-02-30" })).toContainEqual({ field: "birthday", reason: "accounts:validation.birthday" });
  });

  it("refuses unknown fields", () => {
    expect(problemsOf({ ...base, is_employee: "1" })).toContainEqual({ field: "is_employee", reason: "validation.unknownKey" });
  });

  it("treats empty optional fields as not sent", () => {
    const parsed = signupSchema.parse({ ...base, business_name: "", facebook_id: "", birthday: "", gender: "" });
    expect(registrationTypeOf(parsed)).toBe("email");
    expect(parsed.birthday).toBeUndefined();
  });

  it("reads visited_pages and user_behavior_data as JSON text", () => {
    const parsed = signupSchema.parse({ ...base, visited_pages: '["/", "/pin/1/"]', user_behavior_data: '{"k": 1}' });
    expect(parsed.visited_pages).toEqual(["/", "/pin/1/"]);
    expect(problemsOf({ ...base, visited_pages: "[nope" }).map((p) => p.field)).toContain("visited_pages");
  });
});

describe("registration type (spec 000 §5)", () => {
  it.each([
    [{}, "email"],
    [{ business_name: "Bake Shop" }, "partner"],
    [{ facebook_id: "123" }, "facebook"],
    [{ business_name: "Bake Shop", facebook_id: "123" }, "partner"],
  ] as const)("%o is %s", (extra, type) => {
    expect(registrationTypeOf(extra)).toBe(type);
  });

  it("a business's first name is its business name", () => {
    const parsed = signupSchema.parse({ ...base, first_name: undefined, last_name: undefined, business_name: "Bake Shop" });
    expect(namesOf(parsed)).toEqual({ firstName: "Bake Shop", lastName: "", fullName: "Bake Shop" });
  });

  it("needs a first name unless a business, a password unless Facebook, a token for Facebook", () => {
    expect(problemsOf({ ...base, first_name: undefined }).map((p) => p.field)).toContain("first_name");
    expect(problemsOf({ ...base, password: undefined }).map((p) => p.field)).toContain("password");
    expect(problemsOf({ ...base, facebook_id: "123" })).toContainEqual({ field: "facebook_token", reason: "accounts:validation.facebookToken" });
    expect(signupSchema.safeParse({ ...base, password: undefined, facebook_id: "123", facebook_token: "t" }).success).toBe(true);
  });
});

describe("age", () => {
  it.each([
    ["2013-06-15", "2026-06-14", 12],
    ["2013-06-15", "2026-06-15", 13],
    ["2008-02-29", "2026-02-28", 17],
    ["2008-02-29", "2026-03-01", 18],
  ])("born %s is %i on %s", (birthday, today, age) => {
    expect(ageOn(birthday, new Date(`${today}T12:00:00Z`))).toBe(age);
  });
});

describe("login body", () => {
  it("trims the username or e-mail (spec 000 §5)", () => {
    expect(loginSchema.parse({ username_or_email: "  demo ", password: "x" }).username_or_email).toBe("demo");
  });
  it("refuses a blank identifier", () => {
    expect(loginSchema.safeParse({ username_or_email: "   ", password: "x" }).success).toBe(false);
  });
});
