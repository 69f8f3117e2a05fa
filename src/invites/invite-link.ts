// The copy-link action's invite: a signed-in person copies the pin's link carrying a
// fresh invite code (InviteResource create, channel 12 "copy link"); if minting fails for any
// reason the plain link is copied instead, so the action itself never fails on our account.
import { apiFetch, depsWith } from "~/runtime/fetch.ts";
import { INVITE_CHANNELS, isInviteCode, withInviteCode } from "./invite.ts";

export const INVITE_CREATE_PATH = "/resource/InviteResource/create/";

/** The pin id of a canonical pin URL (/pin/{id}/), or null. */
export function pinIdOf(url: string): string | null {
  try {
    return /^\/pin\/(\d{1,19})\/?$/.exec(new URL(url).pathname)?.[1] ?? null;
  } catch {
    return null;
  }
}

/** Whether the embedded request context says the viewer is signed in (AUTH). */
export function isSignedIn(doc: Pick<Document, "getElementById"> = document): boolean {
  try {
    const context = JSON.parse(doc.getElementById("pinloom-context")?.textContent ?? "{}") as { loginState?: unknown };
    return context.loginState === "AUTH";
  } catch {
    return false;
  }
}

/** The link to copy: with a fresh invite code when one can be minted, else `url` unchanged. */
export async function shareLink(url: string, fetcher: typeof fetch = fetch, cookie?: string): Promise<string> {
  const pinId = pinIdOf(url);
  if (pinId === null) return url;
  try {
    const response = await apiFetch(
      INVITE_CREATE_PATH,
      { method: "POST", body: JSON.stringify({ options: { pin_id: pinId, invite_channel: INVITE_CHANNELS.copyLink } }) },
      depsWith(fetcher, cookie),
    );
    if (!response.ok) return url;
    const body = (await response.json()) as { resource_response?: { data?: { code?: unknown } } };
    const code = body.resource_response?.data?.code;
    return isInviteCode(code) ? withInviteCode(url, code) : url;
  } catch {
    return url;
  }
}
