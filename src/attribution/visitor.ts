// What a signed-out browser's ad view is counted once a day by, without an account: the key the
// events pipeline already tells senders apart by (src/events/ingest.server.ts senderOf), the
// browser's device cookie, else its address (an IPv6 address by its /64). The cookie is stored
// only as a hash, so the count's table never holds a token that names a browser's sign-ins.
import { hashToken } from "~/accounts/tokens.ts";

/** `d` and the first 32 hex of the device cookie's SHA-256, else `a` and the address. */
export async function visitorKey(deviceCookie: string | null, address: string): Promise<string> {
  return deviceCookie ? `d${(await hashToken(deviceCookie)).slice(0, 32)}` : `a${address}`;
}
