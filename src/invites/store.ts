// The landing page's invite (spec 000 §2, §4 resource states, §8 "Invite lookup failure:
// Invite data cleared"): looked up once per landing, by code. Success holds the metadata;
// any failure (unknown code, expired, throttled, offline, a malformed answer) leaves no data.
import { atom } from "nanostores";
import { isInviteCode, parseInviteMetadata, type InviteMetadata } from "./invite.ts";

export interface InviteState {
  code: string | null;
  fetching: boolean;
  data: InviteMetadata | null;
  /** HTTP status of the failed lookup; null for a network failure or a malformed answer. */
  error: { status: number | null } | null;
}

export const EMPTY_INVITE: InviteState = { code: null, fetching: false, data: null, error: null };

export const $invite = atom<InviteState>(EMPTY_INVITE);

export const inviteMetadataPath = (code: string) =>
  `/resource/InviteMetadataResource/get/?data=${encodeURIComponent(JSON.stringify({ options: { invite_code: code } }))}`;

/** Looks the code up and records the outcome in $invite; answers the metadata or null. */
export async function lookupInvite(code: string, fetcher: typeof fetch = fetch): Promise<InviteMetadata | null> {
  if (!isInviteCode(code)) {
    $invite.set({ ...EMPTY_INVITE, code, error: { status: null } });
    return null;
  }
  $invite.set({ code, fetching: true, data: null, error: null });
  let status: number | null;
  try {
    const response = await fetcher(inviteMetadataPath(code), {
      credentials: "same-origin",
      headers: { Accept: "application/json", "X-Requested-With": "XMLHttpRequest" },
    });
    status = response.status;
    if (response.ok) {
      const body = (await response.json()) as { resource_response?: { data?: unknown } };
      const data = parseInviteMetadata(body.resource_response?.data);
      if (data) {
        $invite.set({ code, fetching: false, data, error: null });
        return data;
      }
      status = null;
    }
  } catch {
    status = null;
  }
  $invite.set({ code, fetching: false, data: null, error: { status } });
  return null;
}

/** Forgets the invite (the popover was dismissed, or the page moved on). */
export function clearInvite(): void {
  $invite.set(EMPTY_INVITE);
}
