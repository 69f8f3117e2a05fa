// SHA-256 as lowercase hex, on the runtime's WebCrypto: session and token hashes, persisted
// query ids, translation cache keys, member-page island identities. Signed-in requests hash
// their cookie each time, and every first visit gets a CSRF token, so the hex comes from a
// table rather than 32 formatting calls.

const encoder = new TextEncoder();
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

/** Bytes as lowercase hex, two digits each. */
export function toHex(bytes: Uint8Array): string {
  let hex = "";
  for (let i = 0; i < bytes.length; i++) hex += HEX[bytes[i]!];
  return hex;
}

export async function sha256Hex(text: string): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(text))));
}
