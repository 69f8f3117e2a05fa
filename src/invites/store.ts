// The landing page's invite (spec 000 §2, §4 resource states, §8 "Invite lookup failure:
// Invite data cleared"): looked up once per landing, by code. Success holds the metadata;
// any failure (unknown code, expired, throttled, offline, a malformed answer) leaves no data.
//
// Why not nanostores' atom: every module a client bundle shares with the app shell's script
// becomes a shared chunk, and the shell must stay one inline script (its CSP hash and the
// 4 KB inline limit; tests/worker/shell.worker.test.ts). nanostores is the shell's, so this
// store keeps the same small interface ($invite.get/set/subscribe/listen) on its own.
import { isInviteCode, parseInviteMetadata, type InviteMetadata } from "./invite.ts";

export interface InviteState {
  code: string | null;
  fetching: boolean;
  data: InviteMetadata | null;
  /** HTTP status of the failed lookup; null for a network failure or a malformed answer. */
  error: { status: number | null } | null;
}

export const EMPTY_INVITE: InviteState = { code: null, fetching: false, data: null, error: null };

type Listener<T> = (value: T) => void;

/** A value with listeners, shaped like a nanostores atom. */
export function store<T>(initial: T) {
  let value = initial;
  const listeners = new Set<Listener<T>>();
  const listen = (listener: Listener<T>) => {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  };
  return {
    get: () => value,
    set(next: T) {
      if (Object.is(next, value)) return;
      value = next;
      for (const listener of [...listeners]) listener(value);
    },
    /** Calls `listener` on every change from now on; returns the unsubscribe. */
    listen,
    /** Like listen, and calls it at once with the current value. */
    subscribe(listener: Listener<T>) {
      const off = listen(listener);
      listener(value);
      return off;
    },
  };
}

export const $invite = store<InviteState>(EMPTY_INVITE);

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
