// Opaque secrets (session, device, one-time tokens) and the hashes they are stored under.
// A token is 32 random bytes in base64url; D1 keeps only its SHA-256, so a leaked row cannot
// be replayed as a cookie or a handshake token.
import { toBase64Url } from "~/runtime/base64.ts";
import { sha256Hex } from "~/runtime/sha256.ts";

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function newToken(): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
}

/** Only strings shaped like our tokens are ever hashed and looked up. */
export function isTokenShaped(value: unknown): value is string {
  return typeof value === "string" && TOKEN_PATTERN.test(value);
}

/** What D1 stores for a token: its SHA-256 in lowercase hex. */
export const hashToken = (token: string): Promise<string> => sha256Hex(token);
