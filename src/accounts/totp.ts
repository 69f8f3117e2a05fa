// RFC 6238 TOTP (SHA-1, 6 digits, 30-second steps) on WebCrypto, so the same code runs in
// workerd, in Node unit tests and in Playwright (which computes codes for the MFA login).
// A code is accepted for the current step and one step either side (clock drift); the
// caller stores the accepted step in users.mfa_last_step and refuses any step at or before
// it, so a code seen once (shoulder-surfed, replayed) cannot be used again.

const TOTP_STEP_SECONDS = 30;
const TOTP_DIGITS = 6;
/** Steps accepted either side of now. */
const TOTP_WINDOW = 1;

const BASE32_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** Decodes RFC 4648 base32 (case-insensitive, spaces and padding ignored); null when malformed. */
export function decodeBase32(text: string): Uint8Array<ArrayBuffer> | null {
  const clean = text.replace(/[\s=]/g, "").toUpperCase();
  if (clean.length === 0 || clean.length > 256) return null;
  const bytes: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const char of clean) {
    const value = BASE32_ALPHABET.indexOf(char);
    if (value < 0) return null;
    buffer = (buffer << 5) | value;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((buffer >> bits) & 0xff);
    }
  }
  return new Uint8Array(bytes);
}

/** The 30-second step a time (epoch ms) falls in. */
export const stepAt = (nowMs: number) => Math.floor(nowMs / 1000 / TOTP_STEP_SECONDS);

/** RFC 4226 HOTP value for one counter. */
async function hotp(key: Uint8Array<ArrayBuffer>, counter: number): Promise<string> {
  const message = new ArrayBuffer(8);
  const view = new DataView(message);
  view.setUint32(0, Math.floor(counter / 2 ** 32));
  view.setUint32(4, counter >>> 0);
  const cryptoKey = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-1" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", cryptoKey, message));
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary =
    ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(binary % 10 ** TOTP_DIGITS).padStart(TOTP_DIGITS, "0");
}

/** The code for a base32 secret at a time (epoch ms): what an authenticator app shows. */
export async function generateTotp(secretBase32: string, nowMs = Date.now()): Promise<string> {
  const key = decodeBase32(secretBase32);
  if (!key) throw new Error("TOTP secret is not base32");
  return hotp(key, stepAt(nowMs));
}

const isTotpShaped = (code: string) => /^\d{6}$/.test(code);

/**
 * The step `code` is valid for (now ±1 step), or null. Steps at or before `lastStep` are
 * never matched (replay guard). Every candidate step is computed and compared in full, so the
 * answer's time does not depend on which step matched.
 */
export async function verifyTotp(secretBase32: string, code: string, nowMs = Date.now(), lastStep: number | null = null): Promise<number | null> {
  const key = decodeBase32(secretBase32);
  if (!key || !isTotpShaped(code)) return null;
  const current = stepAt(nowMs);
  let matched: number | null = null;
  for (let step = current - TOTP_WINDOW; step <= current + TOTP_WINDOW; step++) {
    const expected = await hotp(key, step);
    let difference = 0;
    for (let i = 0; i < TOTP_DIGITS; i++) difference |= expected.charCodeAt(i) ^ code.charCodeAt(i);
    if (difference === 0 && (lastStep === null || step > lastStep) && matched === null) matched = step;
  }
  return matched;
}
