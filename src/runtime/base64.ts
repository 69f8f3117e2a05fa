// Base64 and base64url on btoa/atob, which exist in workerd, browsers and Node alike. Tokens,
// invite codes and cursors travel in URLs and cookies, so they use the URL-safe alphabet
// without padding; stored password hashes and CSP hashes use the standard one.

function binaryOf(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return binary;
}

const bytesOf = (binary: string): Uint8Array<ArrayBuffer> => Uint8Array.from(binary, (char) => char.charCodeAt(0));

/** Standard base64, padded. */
export const toBase64 = (bytes: Uint8Array): string => btoa(binaryOf(bytes));

/** The bytes of standard base64; throws on text that is not base64. */
export const fromBase64 = (text: string): Uint8Array<ArrayBuffer> => bytesOf(atob(text));

/** base64url without padding. */
export const toBase64Url = (bytes: Uint8Array): string => toBase64(bytes).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");

/** The bytes of base64url, padded or not; throws on text that is not base64url. */
export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  if (/[+/]/.test(text)) throw new Error("not base64url");
  return fromBase64(text.replace(/-/g, "+").replace(/_/g, "/"));
}

const encoder = new TextEncoder();

/** A string's UTF-8 bytes as base64url. */
export const textToBase64Url = (text: string): string => toBase64Url(encoder.encode(text));

/** The UTF-8 text base64url holds; throws on bad base64url or bytes that are not UTF-8. */
export const textFromBase64Url = (text: string): string => new TextDecoder("utf-8", { fatal: true }).decode(fromBase64Url(text));
