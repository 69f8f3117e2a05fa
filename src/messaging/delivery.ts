// Where a first message from someone lands, by the recipient's messages settings
// (/settings/messages: `from` anyone, following or off; `contact_requests`). The server obeys
// this when a conversation starts; later messages follow the conversation's standing.
import type { MessagesSettings } from "~/settings/settings.ts";

/** In the inbox, held as a contact request, or not accepted at all. */
type Delivery = "active" | "request" | "refused";

/**
 * - `off`: no one starts a conversation with them.
 * - Someone they follow: straight to the inbox.
 * - Anyone else: a contact request while requests are on; with requests off, straight in when
 *   `from` is anyone, refused when it is following.
 */
export function deliveryFor(settings: Pick<MessagesSettings, "from" | "contact_requests">, recipientFollowsSender: boolean): Delivery {
  if (settings.from === "off") return "refused";
  if (recipientFollowsSender) return "active";
  if (settings.contact_requests) return "request";
  return settings.from === "anyone" ? "active" : "refused";
}
