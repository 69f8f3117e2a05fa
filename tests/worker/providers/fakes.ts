// Local fakes of the three outside services, speaking their real protocols at their real
// URLs. They run in Node as the `worker-providers` project's miniflare `outboundService`
// (vitest.config.mts): every fetch() the Worker makes to the network lands here instead, so
// the production code keeps its real endpoints, with no base-URL switch and no test route.
//
// Turnstile Siteverify: POST form {secret, response, remoteip, idempotency_key}.
//   response "pass:<hostname>:<nonce>" passes (once: a second use is timeout-or-duplicate),
//   anything else is invalid-input-response; a wrong secret is invalid-input-secret.
// Facebook debug_token: GET ?input_token=&access_token=<app id>|<app secret>.
//   input_token "fb:<app id>:<user id>:<valid|invalid>" describes itself; a wrong app token
//   is the Graph API's OAuthException 190.
// Google tokeninfo: GET ?id_token=<header>.<payload>.<signature>; a signature of
//   "google-signed" is "verified" and the payload's claims are answered as Google does
//   (strings); anything else is 400 {"error": "invalid_token"}.
// Any of them answers a 500 HTML page for a token of "outage" (a provider having a bad day).

export const FAKE_CONFIG = {
  TURNSTILE_SECRET_KEY: "0x4AAAAAAA-fake-secret",
  TURNSTILE_SITE_KEY: "0x4AAAAAAA-fake-site-key",
  FACEBOOK_APP_ID: "4242",
  FACEBOOK_APP_SECRET: "fb-fake-secret",
  GOOGLE_CLIENT_ID: "pinloom-test.apps.googleusercontent.com",
} as const;

const spentTurnstile = new Set<string>();

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
const outage = () => new Response("<html>502 Bad Gateway</html>", { status: 500, headers: { "content-type": "text/html" } });

async function siteverify(request: Request): Promise<Response> {
  if (request.method !== "POST") return json({ success: false, "error-codes": ["bad-request"] }, 405);
  const form = new URLSearchParams(await request.text());
  const response = form.get("response") ?? "";
  if (response === "outage") return outage();
  if (form.get("secret") !== FAKE_CONFIG.TURNSTILE_SECRET_KEY) return json({ success: false, "error-codes": ["invalid-input-secret"] });
  if (!response) return json({ success: false, "error-codes": ["missing-input-response"] });
  if (!response.startsWith("pass:")) return json({ success: false, "error-codes": ["invalid-input-response"] });
  if (spentTurnstile.has(response)) return json({ success: false, "error-codes": ["timeout-or-duplicate"] });
  spentTurnstile.add(response);
  return json({ success: true, "error-codes": [], challenge_ts: new Date().toISOString(), hostname: response.split(":")[1], action: "", cdata: "" });
}

function debugToken(url: URL): Response {
  const input = url.searchParams.get("input_token") ?? "";
  if (input === "outage") return outage();
  if (url.searchParams.get("access_token") !== `${FAKE_CONFIG.FACEBOOK_APP_ID}|${FAKE_CONFIG.FACEBOOK_APP_SECRET}`) {
    return json({ error: { message: "Invalid OAuth access token signature.", type: "OAuthException", code: 190, fbtrace_id: "fake" } }, 400);
  }
  const [kind, appId, userId, state] = input.split(":");
  if (kind !== "fb" || !appId || !userId) {
    return json({ data: { is_valid: false, error: { code: 190, message: "Invalid OAuth access token." } } });
  }
  return json({
    data: {
      app_id: appId,
      type: "USER",
      application: "Pinloom",
      is_valid: state === "valid",
      user_id: userId,
      expires_at: Math.floor(Date.now() / 1000) + 3600,
      scopes: ["email", "public_profile"],
    },
  });
}

function tokeninfo(url: URL): Response {
  const token = url.searchParams.get("id_token") ?? "";
  if (token === "outage") return outage();
  const [, payload, signature] = token.split(".");
  if (!payload || signature !== "google-signed") return json({ error: "invalid_token", error_description: "Invalid Value" }, 400);
  const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Record<string, unknown>;
  if (typeof claims.exp === "number" && claims.exp * 1000 < Date.now()) return json({ error: "invalid_token", error_description: "Token expired" }, 400);
  // tokeninfo answers every claim as a string.
  return json(Object.fromEntries(Object.entries(claims).map(([key, value]) => [key, String(value)])));
}

/** The outbound handler: the three providers by host and path, anything else refused loudly. */
export async function fakeProviders(request: Request): Promise<Response> {
  const url = new URL(request.url);
  if (url.host === "challenges.cloudflare.com" && url.pathname === "/turnstile/v0/siteverify") return siteverify(request);
  if (url.host === "graph.facebook.com" && /^\/v\d+\.\d+\/debug_token$/.test(url.pathname)) return debugToken(url);
  if (url.host === "oauth2.googleapis.com" && url.pathname === "/tokeninfo") return tokeninfo(url);
  return new Response(`No fake for ${url.host}${url.pathname}`, { status: 599 });
}
