// Signing a demo account in for browser tests.
//
// The real way first: the login API of issue 4 (POST /v3/login/handshake/, then
// POST /v3/sessions/exchange/, per the accounts API contract), from inside the page so the
// browser itself stores the __Host- session cookie. Until that API is merged into this branch
// the handshake answers 404; then, and only then, the session row is written straight into the
// e2e database with `wrangler d1 execute` (the same row the exchange would write: the SHA-256
// of a random token) and the token is given to the browser as the cookie. Production code has
// no test-only door either way. Once the login API is merged the fallback is dead code to delete.
import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import path from "node:path";
import type { BrowserContext, Page } from "@playwright/test";

export const DEMO_PASSWORD = "PinloomDemo#2026";
const SESSION_COOKIE = "__Host-pinloom_sess";
const ROOT = path.resolve(import.meta.dirname, "..", "..");
const E2E_STATE = ".wrangler/e2e-state";

interface LoginAnswer {
  status: number;
  body: { data?: { token?: string } | null };
}

async function apiLogin(page: Page, username: string): Promise<number> {
  return page.evaluate(
    async ({ username, password }) => {
      const csrf = /(?:^|;\s*)csrftoken=([^;]+)/.exec(document.cookie)?.[1] ?? "";
      const headers = { "content-type": "application/json", "x-csrftoken": csrf };
      const send = async (url: string, body: unknown): Promise<LoginAnswer> => {
        const response = await fetch(url, { method: "POST", headers, body: JSON.stringify(body), credentials: "same-origin" });
        return { status: response.status, body: (await response.json().catch(() => ({}))) as LoginAnswer["body"] };
      };
      const handshake = await send("/v3/login/handshake/", { username_or_email: username, password, referrer: "" });
      if (handshake.status !== 200) return handshake.status;
      const exchange = await send("/v3/sessions/exchange/", { token: handshake.body.data?.token, isRegistration: false });
      return exchange.status;
    },
    { username, password: DEMO_PASSWORD },
  );
}

function insertSessionRow(userId: number): string {
  const token = randomBytes(32).toString("base64url");
  const id = createHash("sha256").update(token).digest("hex");
  const now = Date.now();
  const sql = `INSERT INTO sessions (id, user_id, created_at, expires_at, last_seen_at, user_agent) VALUES ('${id}', ${Number(userId)}, ${now}, ${now + 30 * 86_400_000}, ${now}, 'playwright')`;
  execFileSync(
    path.join(ROOT, "node_modules", ".bin", "wrangler"),
    ["d1", "execute", "DB", "--local", "--persist-to", E2E_STATE, "--config", "dist/server/wrangler.json", "--command", sql],
    { cwd: ROOT, stdio: "pipe", env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true" } },
  );
  return token;
}

/** Signs `username` (id `userId`) in on this browser context; the page ends on `/`. */
export async function signIn(page: Page, context: BrowserContext, username: string, userId: number): Promise<void> {
  await page.goto("/");
  const status = await apiLogin(page, username);
  if (status === 200) return;
  if (status !== 404) throw new Error(`login API answered ${status} for ${username}`);
  const token = insertSessionRow(userId);
  // Chromium accepts a Secure cookie for http://127.0.0.1 given as domain + path (not as url).
  const { hostname } = new URL(page.url());
  await context.addCookies([{ name: SESSION_COOKIE, value: token, domain: hostname, path: "/", secure: true, httpOnly: true, sameSite: "Lax" }]);
}
