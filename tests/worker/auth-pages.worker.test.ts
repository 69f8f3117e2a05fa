// The account pages and header as the built Worker serves them: /login/ and /signup/ render
// labelled forms in the server HTML, signed-in visitors are sent on (never off-site), the
// header shows Log in / Sign up or the account menu, and crawlers get plain links.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "~/accounts/password.ts";
import { Browser, PASSWORD, USERS } from "./accounts-helpers.ts";
import { BROWSER_UA, GOOGLEBOT_UA, attributeOf, countElements, fetchWorker, get, seedWorld } from "./fixtures.ts";

const EXECUTABLE_SCRIPT = 'script:not([type="application/ld+json"]):not([type="application/json"])';
const OPEN_REDIRECTS = [
  "//evil.example/",
  "https://evil.example/",
  "/\\evil.example",
  "%2F%2Fevil.example",
  "/%2Fevil.example",
  "/%5Cevil.example",
  "/%252F%252Fevil.example",
  "/%09/evil.example",
  "javascript:alert(1)",
];

let signedIn: Browser;

beforeAll(async () => {
  await seedWorld([{ id: 101, title: "Lemon tart" }]);
  // seedWorld's user 1 (ana) gets a password; lou_limited joins as a limited-login account.
  const hash = await hashPassword(PASSWORD, new Uint8Array(16).fill(1));
  await env.DB.batch([
    env.DB.prepare("UPDATE users SET password_hash = ?1, email_verified = 1 WHERE id = 1").bind(hash),
    env.DB.prepare("INSERT INTO users (id, username, email, password_hash, full_name, first_name, login_state, created_at) VALUES (4, 'lou_limited', 'lou@pinloom.test', ?1, 'Lou', 'Lou', 'limited', 0)").bind(hash),
  ]);
  signedIn = new Browser();
  await signedIn.login(USERS.ana.username);
});

/** Every label's `for` names an input, and every input a person types in has a label. */
async function labelledInputs(html: string): Promise<{ inputs: string[]; unlabelled: string[] }> {
  const ids: string[] = [];
  const fors = new Set<string>();
  await new HTMLRewriter()
    .on("form input:not([type=hidden])", { element: (e) => void ids.push(e.getAttribute("id") ?? "") })
    .on("form label[for]", { element: (e) => void fors.add(e.getAttribute("for")!) })
    .transform(new Response(html))
    .text();
  return { inputs: ids, unlabelled: ids.filter((id) => !fors.has(id)) };
}

describe("/login/", () => {
  it("renders a real form with labelled fields and the autocomplete hints", async () => {
    const response = await get("/login/");
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(await countElements(html, 'form[method="post"][action="/login/"]')).toBe(1);
    const { inputs, unlabelled } = await labelledInputs(html);
    expect(inputs.length).toBeGreaterThanOrEqual(2);
    expect(unlabelled).toEqual([]);
    expect(await countElements(html, 'input[name="username_or_email"][autocomplete="username"][required]')).toBe(1);
    expect(await countElements(html, 'input[name="password"][type="password"][autocomplete="current-password"]')).toBe(1);
    expect(await countElements(html, 'button[aria-controls="login-password"][aria-pressed="false"]')).toBe(1);
    expect(html).toContain("Log in to Pinloom");
  });

  it("speaks the visitor's language, right to left in Arabic", async () => {
    const html = await (await get("/login/?locale=ar_SA")).text();
    expect(await attributeOf(html, "html", "dir")).toBe("rtl");
    expect(html).toContain("تسجيل الدخول إلى Pinloom");
  });

  it("sends a signed-in visitor to next, or home", async () => {
    const home = await signedIn.fetch("/login/");
    expect(home.status).toBe(302);
    expect(home.headers.get("location")).toBe("/");
    const pin = await signedIn.fetch("/login/?next=/pin/101/");
    expect(pin.headers.get("location")).toBe("/pin/101/");
    const signup = await signedIn.fetch("/signup/?next=/pin/101/");
    expect(signup.status).toBe(302);
    expect(signup.headers.get("location")).toBe("/pin/101/");
  });

  it.each(OPEN_REDIRECTS)("never turns next=%s into an off-site redirect", async (next) => {
    for (const page of ["/login/", "/signup/"]) {
      const response = await signedIn.fetch(`${page}?next=${encodeURIComponent(next)}`);
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe("/");
      // Signed out, the sign-up link carries no off-site next either.
      const html = await (await get(`${page}?next=${encodeURIComponent(next)}`)).text();
      expect(html).not.toContain("evil.example");
    }
  });
});

describe("/signup/", () => {
  it("renders the sign-up form: labelled fields, new-password, and the business toggle", async () => {
    const html = await (await get("/signup/")).text();
    expect(await countElements(html, 'form[method="post"][action="/signup/"]')).toBe(1);
    const { unlabelled } = await labelledInputs(html);
    expect(unlabelled).toEqual([]);
    expect(await countElements(html, 'input[name="email"][type="email"][autocomplete="email"]')).toBe(1);
    expect(await countElements(html, 'input[name="password"][autocomplete="new-password"][aria-describedby="signup-password-hint"]')).toBe(1);
    expect(await countElements(html, 'input[name="username"][autocomplete="username"]')).toBe(1);
    expect(await countElements(html, 'input[type="checkbox"][name="is_business"]')).toBe(1);
    expect(html).toContain("Create a business account");
  });

  it("without the human check configured, loads nothing from Turnstile and its CSP admits none of it", async () => {
    const page = await get("/signup/");
    expect(page.headers.get("content-security-policy") ?? "").not.toContain("challenges.cloudflare.com");
    const html = await page.text();
    expect(html).not.toContain("data-human-check");
    expect(await countElements(html, ".auth-turnstile")).toBe(0);
  });
});

describe("the header", () => {
  it("signed out: Log in and Sign up links, opening the modal once hydrated; the markup never depends on the URL", async () => {
    const html = await (await get("/pin/101/")).text();
    expect(await countElements(html, '.header-account astro-island[component-url*="AuthModal"]')).toBe(1);
    expect(await attributeOf(html, '.header-account a[data-auth-trigger="login"]', "href")).toBe("/login/");
    expect(await attributeOf(html, '.header-account a.header-signup[data-auth-trigger="signup"]', "href")).toBe("/signup/");
    expect(await countElements(html, ".account-menu")).toBe(0);
  });

  it("signed out: Create is a sign-up trigger of the same island that comes back to the pin builder", async () => {
    const html = await (await get("/pin/101/")).text();
    expect(await attributeOf(html, '.header-account a.header-create[data-auth-trigger="signup"]', "href")).toBe("/signup/?next=/pin-builder/");
    expect(await attributeOf(html, '.header-account a.header-create[data-auth-trigger="signup"]', "aria-haspopup")).toBe("dialog");
  });

  it("signed in: Create leads to the pin builder", async () => {
    const html = await (await signedIn.fetch("/pin/101/")).text();
    expect(await attributeOf(html, "header a.header-create", "href")).toBe("/pin-builder/");
    expect(await countElements(html, "header a.header-create[data-auth-trigger]")).toBe(0);
  });

  it("signed out on a pin: a Save that asks to log in first", async () => {
    const html = await (await get("/pin/101/")).text();
    expect(await attributeOf(html, '.closeup-actions a.closeup-save[data-auth-trigger="login"]', "aria-haspopup")).toBe("dialog");
    expect(await attributeOf(html, ".closeup-actions a.closeup-save", "href")).toBe("/login/?next=/pin/101/");
  });

  it("signed in: the avatar and name open the account menu; no Log in, no signed-out Save", async () => {
    const response = await signedIn.fetch("/pin/101/");
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(await countElements(html, '.header-account astro-island[component-url*="AccountMenu"]')).toBe(1);
    expect(await countElements(html, '.account-menu button.account-button[aria-expanded="false"]')).toBe(1);
    expect(html).toContain('<span class="account-name wide-label">Ana Lima</span>');
    expect(await countElements(html, "a[data-auth-trigger]")).toBe(0);
    expect(await countElements(html, ".closeup-save")).toBe(0);
    expect(await countElements(html, ".account-limited")).toBe(0);
  });

  it("limited login: their limited viewer and a prompt to finish logging in", async () => {
    const lou = new Browser();
    await lou.login(USERS.lou.username);
    const html = await (await lou.fetch("/")).text();
    expect(await countElements(html, '.account-menu button.account-button')).toBe(1);
    expect(await countElements(html, ".account-panel[hidden] .account-limited")).toBe(1);
    expect(await countElements(html, ".account-panel .account-list")).toBe(0);
    // /login/ stays open to them, to finish logging in.
    expect((await lou.fetch("/login/")).status).toBe(200);
  });

  it("crawlers get plain links and no script", async () => {
    const html = await (await fetchWorker("/pin/101/", { headers: { "user-agent": GOOGLEBOT_UA } })).text();
    expect(await countElements(html, EXECUTABLE_SCRIPT)).toBe(0);
    expect(await countElements(html, "astro-island")).toBe(0);
    expect(await attributeOf(html, ".header-account a.header-login", "href")).toBe("/login/");
    expect(await attributeOf(html, ".header-account a.header-signup", "href")).toBe("/signup/");
    const login = await (await fetchWorker("/login/", { headers: { "user-agent": GOOGLEBOT_UA } })).text();
    expect(await countElements(login, EXECUTABLE_SCRIPT)).toBe(0);
    expect(await countElements(login, 'form[action="/login/"] input[name="password"]')).toBe(1);
  });

  it.each([
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [Pinterest/iOS]",
    "Mozilla/5.0 (Linux; Android 14; SM-S918B Build/UP1A.231005.007; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/125.0.6422.165 Mobile Safari/537.36 [Pinterest/Android]",
  ])("an in-app browser is a person: the log-in island and the page's script (%s)", async (userAgent) => {
    const html = await (await fetchWorker("/pin/101/", { headers: { "user-agent": userAgent } })).text();
    expect(await countElements(html, '.header-account astro-island[component-url*="AuthModal"]')).toBe(1);
    expect(await countElements(html, EXECUTABLE_SCRIPT)).toBeGreaterThan(0);
  });

  it("a signed-in page runs the accounts script after the shell's; a signed-out one loads none", async () => {
    const html = await (await signedIn.fetch("/")).text();
    expect(html.indexOf('id="pinloom-shell"')).toBeGreaterThan(0);
    expect(html.indexOf('id="pinloom-shell"')).toBeLessThan(html.indexOf('id="auth-notice"'));
    expect(await countElements(html, '#auth-notice[role="status"]')).toBe(1);
    const signedOut = await (await fetchWorker("/", { headers: { "user-agent": BROWSER_UA } })).text();
    expect(await countElements(signedOut, "#auth-notice")).toBe(0);
    expect(signedOut).not.toContain("AuthBoot");
  });

  it("submit buttons wait for the island: the server HTML has them disabled", async () => {
    for (const page of ["/login/", "/signup/"]) {
      const html = await (await get(page)).text();
      expect(await countElements(html, "main form button[type=submit][disabled]")).toBe(1);
    }
  });
});
