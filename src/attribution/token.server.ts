// The proof that an attribution ping follows an ad we served: the page that renders a promoted
// pin's link signs (pin, advertiser, expiry) with HMAC-SHA-256 under a server secret and puts
// the token in the link's markup; the ping must echo it. A header such as Sec-Fetch-Site can be
// sent by any client; this token can only come from one of our pages.
//
// Signed-out pages are shared through the edge cache for up to FRESH + STALE seconds
// (src/server/page-cache.ts), so a token lives an hour past the end of its ten-minute bucket:
// every render in one bucket carries the same token (a cached page and a fresh one agree), and
// a page served at the end of its cache life still has most of an hour for the click.
import { toHex } from "~/runtime/sha256.ts";
import { TOKEN_PATTERN } from "./source.ts";

const ATTRIBUTION_TOKEN = {
  /** How long a token outlives the end of its bucket. */
  ttlSeconds: 3600,
  /** Expiries are rounded up to this, so renders within one bucket are byte-identical. */
  bucketSeconds: 600,
  /** A secret shorter than this is a mistake, not a key: attribution stays off. */
  minSecretLength: 32,
} as const;

/**
 * The secret `npm start`, the browser tests and `wrangler dev` use when ATTRIBUTION_SECRET is
 * unset and ENVIRONMENT is "development". Never used anywhere else: a deploy without the
 * secret counts no attribution ping at all (see attributionSecret).
 */
export const DEVELOPMENT_ATTRIBUTION_SECRET = "pinloom-development-attribution-secret-not-for-deploys";

const encoder = new TextEncoder();
const keys = new Map<string, Promise<CryptoKey>>();
let warned = false;

/**
 * The signing secret, or null when attribution must stay off. Production without a usable
 * ATTRIBUTION_SECRET fails closed: links carry no token and no ping is counted (a guessable
 * default would let anyone mint tokens), and the Worker log says so once per isolate.
 */
export function attributionSecret(env: { ATTRIBUTION_SECRET?: string | undefined; ENVIRONMENT?: string | undefined }): string | null {
  const secret = env.ATTRIBUTION_SECRET;
  if (secret !== undefined && secret.length >= ATTRIBUTION_TOKEN.minSecretLength) return secret;
  if (secret === undefined && env.ENVIRONMENT === "development") return DEVELOPMENT_ATTRIBUTION_SECRET;
  if (!warned) {
    warned = true;
    console.error(
      JSON.stringify({ event: "attribution_disabled", reason: secret === undefined ? "ATTRIBUTION_SECRET is not set" : `ATTRIBUTION_SECRET is shorter than ${ATTRIBUTION_TOKEN.minSecretLength} characters` }),
    );
  }
  return null;
}

function keyFor(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
    // One secret per deploy; the bound only keeps a misconfigured caller from growing the map.
    if (keys.size >= 4) keys.clear();
    keys.set(secret, key);
  }
  return key;
}

export interface TokenSubject {
  pinId: string;
  advertiserId: string;
}

/** The signed text: a fixed label (the key signs nothing else today, but may one day) and the bound values. */
const message = (subject: TokenSubject, expiry: number) => encoder.encode(`pinloom-attribution-v1\n${subject.pinId}\n${subject.advertiserId}\n${expiry}`);

/** The expiry a token minted at `nowMs` carries, in Unix seconds. */
function tokenExpiry(nowMs: number): number {
  const { bucketSeconds, ttlSeconds } = ATTRIBUTION_TOKEN;
  return (Math.floor(nowMs / 1000 / bucketSeconds) + 1) * bucketSeconds + ttlSeconds;
}

export async function signAttributionToken(secret: string, subject: TokenSubject, nowMs = Date.now()): Promise<string> {
  const expiry = tokenExpiry(nowMs);
  const mac = await crypto.subtle.sign("HMAC", await keyFor(secret), message(subject, expiry));
  return `${expiry}.${toHex(new Uint8Array(mac))}`;
}

export type TokenCheck = "valid" | "expired" | "forged";

/** Whether `token` was signed for exactly this pin and advertiser and has not expired (WebCrypto's verify compares in constant time). */
export async function checkAttributionToken(secret: string, token: string, subject: TokenSubject, nowMs = Date.now()): Promise<TokenCheck> {
  const match = TOKEN_PATTERN.exec(token);
  if (!match) return "forged";
  const expiry = Number(match[1]);
  const mac = new Uint8Array(32);
  for (let index = 0; index < 32; index++) mac[index] = parseInt(match[2]!.slice(index * 2, index * 2 + 2), 16);
  const genuine = await crypto.subtle.verify("HMAC", await keyFor(secret), mac, message(subject, expiry));
  if (!genuine) return "forged";
  return expiry * 1000 > nowMs ? "valid" : "expired";
}

/** The token for a promoted pin's link, or null when attribution is off or the pin is not promoted. */
export async function linkAttributionToken(
  env: { ATTRIBUTION_SECRET?: string | undefined; ENVIRONMENT?: string | undefined },
  pinId: string | number,
  advertiserId: string | null | undefined,
  nowMs = Date.now(),
): Promise<string | null> {
  if (!advertiserId) return null;
  const secret = attributionSecret(env);
  return secret === null ? null : signAttributionToken(secret, { pinId: String(pinId), advertiserId }, nowMs);
}
