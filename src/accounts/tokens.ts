// Opaque secrets (session, device, one-time tokens) and the hashes they are stored under.
// A token is 32 random bytes in base64url; D1 keeps only its SHA-256, so a leaked row cannot
// be replayed as a cookie or a handshake token.

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Only strings shaped like our tokens are ever hashed and looked up. */
export function isTokenShaped(value: unknown): value is string {
  return typeof value === "string" && TOKEN_PATTERN.test(value);
}

const encoder = new TextEncoder();
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

/** SHA-256 in lowercase hex. Every signed-in request hashes its cookie: a table, not 32 callbacks. */
export async function hashToken(token: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(token)));
  let hex = "";
  for (const byte of digest) hex += HEX[byte];
  return hex;
}
