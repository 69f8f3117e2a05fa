// The parental passcode and the protected settings, end to end through the built Worker.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "~/accounts/password.ts";
import { BASE, BROWSER_UA, fetchWorker } from "./fixtures.ts";
import { createSession, type TestSession } from "./session-fixture.ts";

const CSRF = "c".repeat(64);
const PASSWORD = "Parent pass 1!";
const PASSCODE = "1234";

const USERS = { guard: 20, kid: 21, free: 22, other: 23, limited: 24, setup: 25 } as const;
const sessions = {} as Record<keyof typeof USERS, TestSession>;

interface Answer {
  status: string;
  code: number;
  message: string;
  message_detail?: string | null;
  extra_data?: Record<string, unknown> | null;
  data: Record<string, unknown> | null;
}

async function call(method: string, path: string, body: unknown, session: TestSession | null, form = false): Promise<{ status: number; body: Answer }> {
  const cookie = [`csrftoken=${CSRF}`, session?.cookie].filter(Boolean).join("; ");
  const response = await fetchWorker(path, {
    method,
    body: form ? new URLSearchParams(body as Record<string, string>).toString() : JSON.stringify(body),
    headers: {
      origin: BASE,
      cookie,
      "x-csrftoken": CSRF,
      "user-agent": BROWSER_UA,
      "content-type": form ? "application/x-www-form-urlencoded" : "application/json",
    },
  });
  return { status: response.status, body: await response.json<Answer>() };
}

interface UserRow {
  email: string;
  password_hash: string;
  is_private_profile: number;
  settings: string;
  parental_passcode_failures: number;
  parental_passcode_locked_at: number | null;
  is_parental_control_passcode_enabled: number;
  parental_control_anonymized_email: string | null;
  parental_passcode_backup_email: string | null;
}
const user = (id: number) => env.DB.prepare("SELECT * FROM users WHERE id = ?1").bind(id).first<UserRow>().then((row) => row!);

beforeAll(async () => {
  const [passwordHash, passcodeHash] = await Promise.all([hashPassword(PASSWORD), hashPassword(PASSCODE)]);
  const insert = (id: number, name: string, passcode: boolean, loginState = "full") =>
    env.DB.prepare(
      `INSERT INTO users (id, username, email, password_hash, login_state, is_parental_control_passcode_enabled,
                          parental_passcode_hash, parental_control_anonymized_email, created_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 0)`,
    ).bind(id, name, `${name}@pinloom.test`, passwordHash, loginState, passcode ? 1 : 0, passcode ? passcodeHash : null, passcode ? "p****@example.com" : null);
  await env.DB.batch([
    insert(USERS.guard, "guard", true),
    insert(USERS.kid, "kid", true),
    insert(USERS.free, "free", false),
    insert(USERS.other, "other", true),
    insert(USERS.limited, "limited", true, "limited"),
    insert(USERS.setup, "setup", false),
  ]);
  for (const [name, id] of Object.entries(USERS)) sessions[name as keyof typeof USERS] = await createSession(id);
});

describe("the lockout", () => {
  it("50 parallel wrong guesses: all counted, exactly 5 evaluated, then locked", async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => call("POST", "/v3/users/parental_passcode/verify/", { passcode: String(5000 + i) }, sessions.guard)),
    );
    const evaluated = answers.filter((answer) => answer.body.code === 16);
    const refused = answers.filter((answer) => answer.body.code === 15);
    expect(evaluated).toHaveLength(5);
    expect(refused).toHaveLength(45);
    expect(answers.every((answer) => answer.status === 403)).toBe(true);
    expect(evaluated.map((answer) => answer.body.extra_data?.["remaining_tries"]).sort()).toEqual([0, 1, 2, 3, 4]);
    expect(refused[0]!.body.message).toBe("Too many wrong passcodes. Reset your passcode with your account password to continue.");
    const row = await user(USERS.guard);
    expect(row.parental_passcode_failures).toBe(5);
    expect(row.parental_passcode_locked_at).not.toBeNull();
  });

  it("once locked, even the right passcode is refused, for checks and for protected changes", async () => {
    const verify = await call("POST", "/v3/users/parental_passcode/verify/", { passcode: PASSCODE }, sessions.guard);
    expect([verify.status, verify.body.code]).toEqual([403, 15]);
    const change = await call("PUT", "/v3/users/settings/privacy/", { is_private_profile: true, passcode: PASSCODE }, sessions.guard);
    expect([change.status, change.body.code]).toEqual([403, 15]);
    expect((await user(USERS.guard)).is_private_profile).toBe(0);
  });

  it("a reset with the wrong account password is refused and leaves the lock", async () => {
    const reset = await call("POST", "/v3/users/parental_passcode/reset/", { password: "not it", passcode: "9876", confirm_passcode: "9876" }, sessions.guard);
    expect(reset.status).toBe(400);
    expect(reset.body.message_detail).toBe("password: That password isn't right");
    expect((await user(USERS.guard)).parental_passcode_locked_at).not.toBeNull();
  });

  it("a reset with the account password sets a new passcode and lifts the lock", async () => {
    const reset = await call("POST", "/v3/users/parental_passcode/reset/", { password: PASSWORD, passcode: "9876", confirm_passcode: "9876" }, sessions.guard);
    expect(reset.status).toBe(200);
    const row = await user(USERS.guard);
    expect([row.parental_passcode_failures, row.parental_passcode_locked_at]).toEqual([0, null]);
    expect((await call("POST", "/v3/users/parental_passcode/verify/", { passcode: PASSCODE }, sessions.guard)).body.code).toBe(16);
    expect((await call("POST", "/v3/users/parental_passcode/verify/", { passcode: "9876" }, sessions.guard)).status).toBe(200);
    // The success refunded the wrong try before it.
    expect((await user(USERS.guard)).parental_passcode_failures).toBe(0);
  });

  it("a malformed passcode is a 400 on the field and costs no try", async () => {
    const answer = await call("POST", "/v3/users/parental_passcode/verify/", { passcode: "12a" }, sessions.guard);
    expect(answer.status).toBe(400);
    expect(answer.body.message_detail).toBe("passcode: Please only use numbers");
    expect((await user(USERS.guard)).parental_passcode_failures).toBe(0);
  });
});

type Row = UserRow;
const settingsOf = (row: Row) => JSON.parse(row.settings) as Record<string, unknown>;

const GROUPS: Array<{ name: string; path: string; body: Record<string, unknown>; read: (row: Row) => unknown; expected: unknown }> = [
  {
    name: "permissions",
    path: "/v3/users/settings/permissions/",
    body: { comments: "following", show_reactions: false, allow_saves: true },
    read: (row) => settingsOf(row)["permissions"] ?? null,
    expected: { comments: "following", show_reactions: false, allow_saves: true },
  },
  { name: "mentions", path: "/v3/users/settings/mentions/", body: { from: "off" }, read: (row) => settingsOf(row)["mentions"] ?? null, expected: { from: "off" } },
  {
    name: "messages",
    path: "/v3/users/settings/messages/",
    body: { from: "anyone", contact_requests: false, read_receipts: false },
    read: (row) => settingsOf(row)["messages"] ?? null,
    expected: { from: "anyone", contact_requests: false, read_receipts: false },
  },
  { name: "privacy", path: "/v3/users/settings/privacy/", body: { is_private_profile: true }, read: (row) => row.is_private_profile, expected: 1 },
  { name: "email", path: "/v3/users/settings/email/", body: { email: "kid.new@pinloom.test", current_password: PASSWORD }, read: (row) => row.email, expected: "kid.new@pinloom.test" },
  {
    name: "password",
    path: "/v3/users/settings/password/",
    body: { current_password: PASSWORD, new_password: "A brand new pass 2" },
    read: (row) => row.password_hash.slice(-20),
    expected: "changed",
  },
];

describe("every protected group", () => {
  it.each(GROUPS)("$name: refused without the passcode and with a wrong one, applied with the right one", async ({ path, body, read, expected }) => {
    const before = read(await user(USERS.kid));

    const missing = await call("PUT", path, body, sessions.kid);
    expect([missing.status, missing.body.code]).toEqual([403, 14]);
    expect(missing.body.message).toBe("Enter your parental passcode to make this change");
    expect(read(await user(USERS.kid))).toEqual(before);

    const wrong = await call("PUT", path, { ...body, passcode: "0000" }, sessions.kid);
    expect([wrong.status, wrong.body.code]).toEqual([403, 16]);
    expect(wrong.body.message).toBe("That passcode isn't right. You have 4 tries left.");
    expect(read(await user(USERS.kid))).toEqual(before);

    const right = await call("PUT", path, { ...body, passcode: PASSCODE }, sessions.kid);
    expect(right.status).toBe(200);
    expect(right.body.status).toBe("success");
    const after = read(await user(USERS.kid));
    if (expected === "changed") expect(after).not.toEqual(before);
    else expect(after).toEqual(expected);
    expect((await user(USERS.kid)).parental_passcode_failures).toBe(0);
  });

  it("a form-encoded body works the same as JSON", async () => {
    const answer = await call("PUT", "/v3/users/settings/mentions/", { from: "following", passcode: PASSCODE }, sessions.kid, true);
    expect(answer.status).toBe(200);
    expect(settingsOf(await user(USERS.kid))["mentions"]).toEqual({ from: "following" });
  });

  it("changing one group keeps the others", async () => {
    const row = await user(USERS.kid);
    expect(settingsOf(row)["permissions"]).toEqual(GROUPS[0]!.expected);
    expect(settingsOf(row)["messages"]).toEqual(GROUPS[2]!.expected);
  });

  it("an account without a passcode changes settings without one", async () => {
    const answer = await call("PUT", "/v3/users/settings/privacy/", { is_private_profile: true }, sessions.free);
    expect(answer.status).toBe(200);
    expect((await user(USERS.free)).is_private_profile).toBe(1);
  });
});

describe("nothing half-applied", () => {
  it.each([
    ["an unknown audience", "/v3/users/settings/mentions/", { from: "friends", passcode: PASSCODE }, "from: must be one of: anyone, following, off"],
    ["a missing field", "/v3/users/settings/messages/", { from: "off", read_receipts: true, passcode: PASSCODE }, "contact_requests: is required"],
    ["an unknown field", "/v3/users/settings/privacy/", { is_private_profile: false, colour: "red", passcode: PASSCODE }, "colour: is not a known option"],
    ["an invalid email", "/v3/users/settings/email/", { email: "nope", current_password: PASSWORD, passcode: PASSCODE }, "email: Please enter a valid email address"],
    ["an empty email", "/v3/users/settings/email/", { email: " ", current_password: PASSWORD, passcode: PASSCODE }, "email: Required"],
    [
      "a password with symbols beyond the basic ones",
      "/v3/users/settings/password/",
      { current_password: "A brand new pass 2", new_password: "pässwörd-très-long", passcode: PASSCODE },
      "new_password: Oops! Your password can only have letters, numbers and basic symbols.",
    ],
    ["a short password", "/v3/users/settings/password/", { current_password: "x", new_password: "short", passcode: PASSCODE }, "new_password: Your password must be at least 8 characters"],
  ])("%s is a 400 naming the field, and nothing changes", async (_name, path, body, detail) => {
    const before = await user(USERS.kid);
    const answer = await call("PUT", path, body, sessions.kid);
    expect(answer.status).toBe(400);
    expect(answer.body.message_detail).toBe(detail);
    expect(await user(USERS.kid)).toEqual(before);
  });

  it("a wrong current password changes neither the password nor other sessions", async () => {
    const elsewhere = await createSession(USERS.kid);
    const before = await user(USERS.kid);
    const answer = await call("PUT", "/v3/users/settings/password/", { current_password: "wrong one", new_password: "Another new pass 3", passcode: PASSCODE }, sessions.kid);
    expect(answer.status).toBe(400);
    expect(answer.body.message_detail).toBe("current_password: That password isn't right");
    expect((await user(USERS.kid)).password_hash).toBe(before.password_hash);
    const revoked = await env.DB.prepare("SELECT revoked_at FROM sessions WHERE id = ?1").bind(elsewhere.id).first<{ revoked_at: number | null }>();
    expect(revoked?.revoked_at).toBeNull();
  });

  it("a new password signs out the account's other sessions, in the same write", async () => {
    const elsewhere = await createSession(USERS.kid);
    const answer = await call("PUT", "/v3/users/settings/password/", { current_password: "A brand new pass 2", new_password: "Another new pass 3", passcode: PASSCODE }, sessions.kid);
    expect(answer.status).toBe(200);
    const rows = await env.DB.prepare("SELECT id, revoked_at FROM sessions WHERE id IN (?1, ?2)").bind(elsewhere.id, sessions.kid.id).all<{ id: string; revoked_at: number | null }>();
    const byId = Object.fromEntries(rows.results.map((row) => [row.id, row.revoked_at]));
    expect(byId[elsewhere.id]).not.toBeNull();
    expect(byId[sessions.kid.id]).toBeNull();
  });

  it("an email another account uses is a 409 after the passcode, and nothing changes", async () => {
    const before = await user(USERS.kid);
    // The kid's password is the one the test above changed it to.
    const answer = await call("PUT", "/v3/users/settings/email/", { email: "OTHER@pinloom.test", current_password: "Another new pass 3", passcode: PASSCODE }, sessions.kid);
    expect([answer.status, answer.body.code, answer.body.extra_data]).toEqual([409, 6, { field: "email" }]);
    expect(answer.body.message).toBe("That email address is already used by another account");
    expect((await user(USERS.kid)).email).toBe(before.email);
    const withoutPasscode = await call("PUT", "/v3/users/settings/email/", { email: "other@pinloom.test", current_password: PASSWORD }, sessions.kid);
    expect(withoutPasscode.body.code).toBe(14);
  });
});

const ENDPOINTS: Array<[string, string, Record<string, unknown>]> = [
  ["POST", "/v3/users/parental_passcode/", { passcode: "1234", confirm_passcode: "1234", backup_email: "a@b.co", confirm_backup_email: "a@b.co" }],
  ["POST", "/v3/users/parental_passcode/verify/", { passcode: PASSCODE }],
  ["POST", "/v3/users/parental_passcode/reset/", { password: PASSWORD, passcode: "1111", confirm_passcode: "1111" }],
  ["DELETE", "/v3/users/parental_passcode/", { passcode: PASSCODE }],
  ...GROUPS.map((group): [string, string, Record<string, unknown>] => ["PUT", group.path, { ...group.body, passcode: PASSCODE }]),
];

describe("authorization", () => {
  it.each(ENDPOINTS)("%s %s: signed out is a 401, limited login a 403 (code 17)", async (method, path, body) => {
    const signedOut = await call(method, path, body, null);
    expect([signedOut.status, signedOut.body.code]).toEqual([401, 2]);
    const limited = await call(method, path, body, sessions.limited);
    expect([limited.status, limited.body.code]).toEqual([403, 17]);
  });

  it("another user's data is untouched by everything above", async () => {
    const row = await user(USERS.other);
    expect([row.email, row.is_private_profile, row.settings, row.parental_passcode_failures]).toEqual(["other@pinloom.test", 0, "{}", 0]);
    expect(row.is_parental_control_passcode_enabled).toBe(1);
  });
});

describe("setting up, changing and turning off the passcode", () => {
  const valid = { passcode: "4321", confirm_passcode: "4321", backup_email: "mum@example.com", confirm_backup_email: "mum@example.com" };

  it.each([
    [{ ...valid, passcode: "", confirm_passcode: "" }, "passcode: Required; confirm_passcode: Required"],
    [{ ...valid, passcode: "43a1", confirm_passcode: "43a1" }, "passcode: Please only use numbers"],
    [{ ...valid, passcode: "432", confirm_passcode: "432" }, "passcode: Please enter four digits"],
    [{ ...valid, confirm_passcode: "4322" }, "confirm_passcode: Please make sure your passcodes match"],
    [{ ...valid, backup_email: "", confirm_backup_email: "" }, "backup_email: Required; confirm_backup_email: Required"],
    [{ ...valid, backup_email: "mum@", confirm_backup_email: "mum@" }, "backup_email: Please enter a valid email address"],
    [
      { ...valid, backup_email: "setup@pinloom.test", confirm_backup_email: "setup@pinloom.test" },
      "backup_email: This email address is already used for this account. Please enter a different one",
    ],
    [{ ...valid, confirm_backup_email: "dad@example.com" }, "confirm_backup_email: Please make sure your email addresses match"],
  ])("%j is refused with %j", async (body, detail) => {
    const answer = await call("POST", "/v3/users/parental_passcode/", body, sessions.setup);
    expect(answer.status).toBe(400);
    expect(answer.body.message_detail).toBe(detail);
    expect((await user(USERS.setup)).is_parental_control_passcode_enabled).toBe(0);
  });

  it("sets one up with a backup email, shown only anonymized", async () => {
    const answer = await call("POST", "/v3/users/parental_passcode/", { ...valid, passcode: " 43 21", confirm_passcode: "4321" }, sessions.setup);
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({ is_parental_control_passcode_enabled: true, parental_control_anonymized_email: "m****@example.com" });
    const row = await user(USERS.setup);
    expect([row.is_parental_control_passcode_enabled, row.parental_passcode_backup_email]).toEqual([1, "mum@example.com"]);
    expect((await call("POST", "/v3/users/parental_passcode/verify/", { passcode: "4321" }, sessions.setup)).status).toBe(200);
  });

  it("changing it needs the current passcode", async () => {
    const next = { ...valid, passcode: "5555", confirm_passcode: "5555" };
    expect((await call("POST", "/v3/users/parental_passcode/", next, sessions.setup)).body.code).toBe(14);
    expect((await call("POST", "/v3/users/parental_passcode/", { ...next, current_passcode: "1111" }, sessions.setup)).body.code).toBe(16);
    expect((await call("POST", "/v3/users/parental_passcode/", { ...next, current_passcode: "4321" }, sessions.setup)).status).toBe(200);
    expect((await call("POST", "/v3/users/parental_passcode/verify/", { passcode: "5555" }, sessions.setup)).status).toBe(200);
  });

  it("turning it off needs the passcode, then protected changes need none", async () => {
    expect((await call("DELETE", "/v3/users/parental_passcode/", {}, sessions.setup)).body.code).toBe(14);
    expect((await call("DELETE", "/v3/users/parental_passcode/", { passcode: "5555" }, sessions.setup)).status).toBe(200);
    const row = await user(USERS.setup);
    expect([row.is_parental_control_passcode_enabled, row.parental_passcode_backup_email, row.parental_control_anonymized_email]).toEqual([0, null, null]);
    expect((await call("PUT", "/v3/users/settings/mentions/", { from: "off" }, sessions.setup)).status).toBe(200);
    expect((await call("POST", "/v3/users/parental_passcode/verify/", { passcode: "5555" }, sessions.setup)).status).toBe(409);
  });
});

describe("pages", () => {
  const PAGES = [
    "/settings/permissions",
    "/settings/edit/mentions",
    "/settings/messages",
    "/settings/messages/requests",
    "/settings/privacy",
    "/settings/edit/email",
    "/settings/edit/password",
    "/settings/account-settings",
    "/settings/account-settings/",
    "/parental-passcode",
    "/parental-passcode/",
  ];
  const page = (path: string, session: TestSession | null) =>
    fetchWorker(path, { redirect: "manual", headers: { "user-agent": BROWSER_UA, ...(session ? { cookie: session.cookie } : {}) } });

  it.each(PAGES)("%s signed out: 302 to the login page with next", async (path) => {
    const response = await page(path, null);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`/login/?next=${encodeURIComponent(path)}`);
  });

  it.each(PAGES)("%s signed in: a private page with its form", async (path) => {
    const response = await page(path, sessions.other);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toMatch(/no-store/);
    const html = await response.text();
    expect(html).toMatch(/<form[^>]+data-settings-form/);
  });

  it("an unknown messages sub-page is a 404", async () => {
    expect((await page("/settings/messages/nope", sessions.other)).status).toBe(404);
  });

  it("the privacy page shows the stored value", async () => {
    const html = await (await page("/settings/privacy", sessions.free)).text();
    expect(html).toMatch(/<input[^>]*name="is_private_profile"[^>]*checked/);
  });
});
