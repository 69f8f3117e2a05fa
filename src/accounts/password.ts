// Password hashing on WebCrypto, so the same code runs in workerd and in the Node seed script.
//
// workerd refuses PBKDF2 above 100,000 iterations in one deriveBits call. OWASP (2023) asks
// 600,000 for PBKDF2-HMAC-SHA256, so the stored hash chains ROUNDS calls of 100,000, each
// round keyed by the previous output: the cost is the same 600,000 HMAC iterations.
// The format records its parameters so they can be raised later and old hashes still verify:
//   pbkdf2-sha256$<rounds>x<iterations>$<salt base64>$<hash base64>

import { fromBase64, toBase64 } from "../runtime/base64.ts";

const ITERATIONS_PER_ROUND = 100_000;
const ROUNDS = 6;
const KEY_BITS = 256;
const SALT_BYTES = 16;

const encoder = new TextEncoder();


async function derive(
  secret: Uint8Array<ArrayBuffer>,
  salt: Uint8Array<ArrayBuffer>,
  rounds: number,
  iterations: number,
): Promise<Uint8Array<ArrayBuffer>> {
  let material = secret;
  for (let round = 0; round < rounds; round++) {
    const key = await crypto.subtle.importKey("raw", material, "PBKDF2", false, ["deriveBits"]);
    const bits = await crypto.subtle.deriveBits(
      { name: "PBKDF2", hash: "SHA-256", salt, iterations },
      key,
      KEY_BITS,
    );
    material = new Uint8Array(bits);
  }
  return material;
}

/** Hashes a password with a fresh random salt. `salt` is for deterministic seeding only. */
export async function hashPassword(password: string, salt?: Uint8Array<ArrayBuffer>): Promise<string> {
  const usedSalt = salt ?? crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const hash = await derive(encoder.encode(password), usedSalt, ROUNDS, ITERATIONS_PER_ROUND);
  return `pbkdf2-sha256$${ROUNDS}x${ITERATIONS_PER_ROUND}$${toBase64(usedSalt)}$${toBase64(hash)}`;
}

/** Constant-time check of a password against a stored hash; false for any malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const match = /^pbkdf2-sha256\$(\d{1,2})x(\d{1,6})\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$/.exec(stored);
  if (!match) return false;
  const [, rounds, iterations, salt, expected] = match as unknown as [string, string, string, string, string];
  const roundCount = Number(rounds);
  const iterationCount = Number(iterations);
  if (roundCount < 1 || iterationCount < 1 || iterationCount > ITERATIONS_PER_ROUND) return false;
  const actual = await derive(encoder.encode(password), fromBase64(salt), roundCount, iterationCount);
  const wanted = fromBase64(expected);
  if (actual.length !== wanted.length) return false;
  let difference = 0;
  for (let i = 0; i < actual.length; i++) difference |= (actual[i] ?? 0) ^ (wanted[i] ?? 0);
  return difference === 0;
}
