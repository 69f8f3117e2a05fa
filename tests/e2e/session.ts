// Signing a demo account in for browser tests, the real way: the login API
// (POST /v3/login/handshake/, then POST /v3/sessions/exchange/) called from inside the page,
// so the browser itself stores the __Host- session cookie.
import type { Page } from "@playwright/test";

export const DEMO_PASSWORD = "PinloomDemo#2026";

interface LoginAnswer {
  status: number;
  body: { data?: { token?: string } | null };
}

/**
 * Each sign-in comes from its own visitor address (CF-Connecting-IP, which Cloudflare sets in
 * production and the local runtime takes as sent): the suite signs the same demo accounts in
 * well over the login throttle's 50 per address per 15 minutes, which real visitors spread over
 * many addresses. The throttles themselves are tested in tests/worker/accounts*.
 */
export const visitorAddress = (): string => `10.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 250)}`;

async function apiLogin(page: Page, username: string): Promise<number> {
  return page.evaluate(
    async ({ username, password, address }) => {
      const csrf = /(?:^|;\s*)csrftoken=([^;]+)/.exec(document.cookie)?.[1] ?? "";
      const headers = { "content-type": "application/json", "x-csrftoken": csrf, "cf-connecting-ip": address };
      const send = async (url: string, body: unknown): Promise<LoginAnswer> => {
        const response = await fetch(url, { method: "POST", headers, body: JSON.stringify(body), credentials: "same-origin" });
        return { status: response.status, body: (await response.json().catch(() => ({}))) as LoginAnswer["body"] };
      };
      const handshake = await send("/v3/login/handshake/", { username_or_email: username, password, referrer: "" });
      if (handshake.status !== 200) return handshake.status;
      const exchange = await send("/v3/sessions/exchange/", { token: handshake.body.data?.token, isRegistration: false });
      return exchange.status;
    },
    { username, password: DEMO_PASSWORD, address: visitorAddress() },
  );
}

/** Signs `username` in on this page's browser context; the page ends on `/`. */
export async function signIn(page: Page, username: string): Promise<void> {
  await page.goto("/");
  const status = await apiLogin(page, username);
  if (status !== 200) throw new Error(`login API answered ${status} for ${username}`);
}

/**
 * A resource call from inside the page, so it carries the page's session cookie and CSRF token
 * (`X-CSRFToken` from the `csrftoken` cookie) like the islands' own calls.
 */
export async function pageResource<T = Record<string, unknown>>(
  page: Page,
  name: string,
  action: "get" | "create" | "update" | "delete",
  options: unknown,
): Promise<{ status: number; data: T }> {
  return page.evaluate(
    async ({ name, action, options }) => {
      const csrf = /(?:^|;\s*)csrftoken=([^;]+)/.exec(document.cookie)?.[1] ?? "";
      const response =
        action === "get"
          ? await fetch(`/resource/${name}/get/?data=${encodeURIComponent(JSON.stringify({ options }))}`, { headers: { "x-requested-with": "XMLHttpRequest" } })
          : await fetch(`/resource/${name}/${action}/`, {
              method: "POST",
              headers: { "content-type": "application/json", "x-csrftoken": decodeURIComponent(csrf), "x-requested-with": "XMLHttpRequest" },
              body: JSON.stringify({ options }),
            });
      const body = (await response.json().catch(() => ({}))) as { resource_response?: { data?: unknown } };
      return { status: response.status, data: body.resource_response?.data as never };
    },
    { name, action, options },
  );
}

/** Unsaves `pinId` from wherever the signed-in person has it (leftovers of a failed earlier run). */
export async function unsaveEverywhere(page: Page, pinId: string): Promise<void> {
  await page.evaluate(async (pinId) => {
    const csrf = /(?:^|;\s*)csrftoken=([^;]+)/.exec(document.cookie)?.[1] ?? "";
    const headers = { "content-type": "application/json", "x-csrftoken": decodeURIComponent(csrf), "x-requested-with": "XMLHttpRequest" };
    const picker = await fetch(`/resource/BoardPickerResource/get/?data=${encodeURIComponent(JSON.stringify({ options: { pin_id: pinId } }))}`, { headers });
    const saved = ((await picker.json()) as { resource_response: { data: { saved: { boardId: string | null; localPinId: string }[] } } }).resource_response.data.saved;
    for (const info of saved.filter((item) => item.localPinId === pinId)) {
      const options = info.boardId ? { pin_id: pinId, board_id: info.boardId } : { pin_id: pinId };
      await fetch("/resource/RepinResource/delete/", { method: "POST", headers, body: JSON.stringify({ options }) });
    }
  }, pinId);
}
