// Accounts in a real browser, in English and in Arabic (right to left): sign up, the
// verify-email reminder, log out, log in from the header modal, MFA with a TOTP computed
// here, switching accounts in one click, sign-out revoking the old session, and the
// signed-out Save that resumes on its pin after login. Each project uses its own demo
// accounts, so the per-account login throttle (10 per 15 min) holds across a few runs.
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { visitorAddress } from "./session.ts";

const PASSWORD = "PinloomDemo#2026";
const MFA_SECRET = "PINLOOMDEMOTOTPSECRETKEY23456ABC"; // docs/demo-accounts.md
const SESSION_COOKIE = "__Host-pinloom_sess";

type Strings = { [key: string]: string | Strings };
const load = (locale: string, ns: string) => JSON.parse(readFileSync(new URL(`../../locales/${locale}/${ns}.json`, import.meta.url), "utf8")) as Strings;
const STRINGS = { en: { auth: load("en_US", "auth"), shell: load("en_US", "shell") }, ar: { auth: load("ar_SA", "auth"), shell: load("ar_SA", "shell") } };
type Project = keyof typeof STRINGS;
const projectOf = (name: string): Project => (name === "ar" ? "ar" : "en");
function text(project: Project, path: string): string {
  const [ns, ...keys] = path.split(".");
  let node: string | Strings = STRINGS[project][ns as "auth" | "shell"];
  for (const key of keys) node = (node as Strings)[key]!;
  return node as string;
}

/** RFC 6238 TOTP: SHA-1, 6 digits, 30 s steps. */
function totp(secret: string, step = Math.floor(Date.now() / 30_000)): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const char of secret.replace(/=+$/, "")) bits += alphabet.indexOf(char).toString(2).padStart(5, "0");
  const key = Buffer.from(bits.match(/.{8}/g)!.map((byte) => parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const digest = createHmac("sha1", key).update(counter).digest();
  const offset = digest[digest.length - 1]! & 0x0f;
  const value = (digest.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return String(value).padStart(6, "0");
}

test("the TOTP helper matches RFC 6238's SHA-1 test vector", () => {
  // RFC 6238 appendix B: secret "12345678901234567890", T = 59 s → 94287082 (8 digits) → 287082.
  const base32 = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
  expect(totp(base32, 1)).toBe("287082");
});

/** Logs in through the dialog the header's Log in opens (or that is already open). */
async function logInInDialog(page: Page, project: Project, username: string) {
  const dialog = page.getByRole("dialog", { name: text(project, "auth.login.heading") });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel(text(project, "auth.login.usernameOrEmail")).fill(`  ${username} `);
  await dialog.getByLabel(text(project, "auth.login.password"), { exact: true }).fill(PASSWORD);
  await dialog.getByRole("button", { name: text(project, "auth.login.submit"), exact: true }).click();
}

const accountButton = (page: Page, project: Project) => page.locator("header").getByRole("button", { name: text(project, "auth.header.menu") });

async function logOut(page: Page, project: Project) {
  await accountButton(page, project).click();
  await page.getByRole("button", { name: text(project, "auth.header.logOut") }).click();
  await expect(page.locator("header").getByRole("link", { name: text(project, "auth.header.logIn"), exact: true })).toBeVisible();
}

test("sign up a new account, see the verify-email reminder once, log out", async ({ page }, testInfo) => {
  const project = projectOf(testInfo.project.name);
  const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
  const username = `e2e_${project}_${stamp}`.slice(0, 30);
  // From an address of its own: the suite signs up more accounts than the throttle's 10 an hour per address.
  await page.setExtraHTTPHeaders({ "cf-connecting-ip": visitorAddress() });
  await page.goto("/signup/");
  await expect(page.locator("html")).toHaveAttribute("dir", project === "ar" ? "rtl" : "ltr");
  const form = page.locator("main form");
  // The password rule's exact words, before any call.
  await form.getByLabel(text(project, "auth.signup.password"), { exact: true }).fill("emoji🙂password");
  await form.getByRole("button", { name: text(project, "auth.signup.submit") }).click();
  await expect(form.getByText(text(project, "auth.field.passwordCharacters"))).toBeVisible();
  if (project === "en") await expect(form.getByText("Oops! Your password can only have letters, numbers and basic symbols.")).toBeVisible();

  await form.getByLabel(text(project, "auth.signup.email")).fill(`${username}@e2e.pinloom.test`);
  const password = form.getByLabel(text(project, "auth.signup.password"), { exact: true });
  await password.fill("Loom#e2e-2026");
  // Show password toggles the field's type and back.
  await form.getByRole("button", { name: text(project, "auth.field.showPassword") }).click();
  await expect(password).toHaveAttribute("type", "text");
  await form.getByRole("button", { name: text(project, "auth.field.hidePassword") }).click();
  await expect(password).toHaveAttribute("type", "password");
  await form.getByLabel(text(project, "auth.signup.firstName")).fill("Robin");
  await form.getByLabel(text(project, "auth.signup.username")).fill(username);
  await form.getByRole("button", { name: text(project, "auth.signup.submit") }).click();

  // Sign-up lands in onboarding (tests/e2e/onboarding.spec.ts goes through it).
  await expect(page).toHaveURL(/\/onboarding\/$/);
  // A new account's email is unverified: the reminder opens by itself.
  const reminder = page.getByRole("dialog", { name: text(project, "shell.verify.title") });
  await expect(reminder).toBeVisible();
  await expect(reminder).toContainText(text(project, "shell.verify.text"));
  const resend = reminder.getByRole("button", { name: text(project, "shell.verify.resend") });
  const sent = page.waitForResponse((response) => response.url().endsWith("/v3/users/email/verify/resend/"));
  await resend.click();
  expect((await sent).status()).toBe(200);
  await expect(reminder.getByRole("button", { name: text(project, "shell.verify.sent") })).toBeDisabled();
  await reminder.getByRole("button", { name: text(project, "shell.verify.gotIt") }).click();
  await expect(reminder).toBeHidden();
  await page.reload();
  await expect(accountButton(page, project)).toBeVisible();
  await expect(page.getByRole("dialog", { name: text(project, "shell.verify.title") })).toBeHidden();

  await logOut(page, project);
  expect((await page.request.get("/v3/users/me/")).status()).toBe(401);
});

test("log in with MFA: the code step appears and a TOTP code finishes it", async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  const project = projectOf(testInfo.project.name);
  await page.goto("/login/");
  const form = page.locator("main form");
  await form.getByLabel(text(project, "auth.login.usernameOrEmail")).fill("noah_secure");
  await form.getByLabel(text(project, "auth.login.password"), { exact: true }).fill(PASSWORD);
  await form.getByRole("button", { name: text(project, "auth.login.submit"), exact: true }).click();
  const code = page.getByLabel(text(project, "auth.login.mfaCode"));
  await expect(code).toBeFocused();
  await expect(code).toHaveAttribute("autocomplete", "one-time-code");
  // A used code cannot be replayed (the other project may have spent this step's): wait for a fresh step when refused.
  for (let attempt = 0; attempt < 3; attempt++) {
    await code.fill(totp(MFA_SECRET));
    await page.getByRole("button", { name: text(project, "auth.login.mfaSubmit") }).click();
    const outcome = await Promise.race([
      page.waitForURL((url) => url.pathname === "/", { timeout: 10_000 }).then(() => "in" as const),
      page.locator("main [role=alert]").waitFor({ timeout: 10_000 }).then(() => "refused" as const),
    ]);
    if (outcome === "in") break;
    await page.waitForTimeout(30_000 - (Date.now() % 30_000) + 500);
  }
  await expect(page).toHaveURL(/\/$/);
  await expect(accountButton(page, project)).toBeVisible();
  const me = await page.request.get("/v3/users/me/");
  expect(me.status()).toBe(200);
  expect(((await me.json()) as { data: { email: string } }).data.email).toBe("noah@pinloom.example");
});

test("log in from the header, add a second account, switch in one click, sign out", async ({ page, context, request }, testInfo) => {
  const project = projectOf(testInfo.project.name);
  const [first, second] = project === "en" ? ["sam", "bakeandbloom"] : ["mia_sketches", "demo"];
  await page.goto("/pin/100001/");
  await page.locator("header").getByRole("link", { name: text(project, "auth.header.logIn"), exact: true }).click();
  await logInInDialog(page, project, first);
  await expect(page).toHaveURL(/\/pin\/100001\/$/);
  await expect(accountButton(page, project)).toBeVisible();
  const me = async () => ((await (await page.request.get("/v3/users/me/")).json()) as { data?: { email?: string } }).data?.email ?? null;
  const firstEmail = await me();
  expect(firstEmail).not.toBeNull();

  await accountButton(page, project).click();
  await page.getByRole("button", { name: text(project, "auth.header.addAccount") }).click();
  await logInInDialog(page, project, second);
  await expect.poll(me).not.toBe(firstEmail);
  await page.waitForLoadState("load");
  await expect(page).toHaveURL(/\/pin\/100001\/$/);

  // Both accounts are listed; the other one is a single click away, and the page stays put.
  await accountButton(page, project).click();
  const switchTo = page.locator(".account-panel").getByRole("button", { name: new RegExp(text(project, "auth.header.switchTo").replace("{{name}}", ".+")) });
  await expect(switchTo).toHaveCount(1);
  await switchTo.click();
  await page.waitForLoadState("load");
  await expect(page).toHaveURL(/\/pin\/100001\/$/);
  await expect.poll(me).toBe(firstEmail);
  await expect(accountButton(page, project)).toBeVisible();

  // Sign out: the old session is gone on the server, not just forgotten by the browser.
  const old = (await context.cookies()).find((cookie) => cookie.name === SESSION_COOKIE)!.value;
  await logOut(page, project);
  expect((await page.request.get("/v3/users/me/")).status()).toBe(401);
  const replay = await request.get("/v3/users/me/", { headers: { cookie: `${SESSION_COOKIE}=${old}` } });
  expect(replay.status()).toBe(401);
});

test("signed out, Save asks to log in, then lands back on the pin ready to save", async ({ page }, testInfo) => {
  const project = projectOf(testInfo.project.name);
  const account = project === "en" ? "demo" : "marlowandmain";
  await page.goto("/pin/100005/");
  const save = page.locator(".closeup-actions").getByRole("link", { name: text(project, "auth.save.button"), exact: true });
  await save.click();
  const dialog = page.getByRole("dialog", { name: text(project, "auth.login.heading") });
  await expect(dialog).toBeVisible();
  expect(await page.evaluate(() => sessionStorage.getItem("unauthSavePinId"))).toBe("100005");
  // Escape closes the dialog and gives focus back to Save.
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(save).toBeFocused();

  await save.click();
  await logInInDialog(page, project, account);
  await expect(page).toHaveURL(/\/pin\/100005\/$/);
  await expect(page.locator("#auth-notice")).toHaveText(text(project, "auth.save.ready"));
  expect(await page.evaluate(() => sessionStorage.getItem("unauthSavePinId"))).toBeNull();
  await page.reload();
  await expect(page.locator("#auth-notice")).toHaveText("");
});
