// Signed-out intents (spec 000 §3 "unauthenticated state": unauthSavePinId,
// unauthCommentPinId). A signed-out person who tries to save or comment is asked to log in;
// the pin is remembered in sessionStorage (this tab only) and, once signed in on that pin's
// page, the intent is handed back exactly once so the save or comment can resume.

export const SAVE_KEY = "unauthSavePinId";
export const COMMENT_KEY = "unauthCommentPinId";

export type Intent = { kind: "save" | "comment"; pinId: string };

/** boot.ts announces a resumed intent (also in the header's status region) with this window event, for the pin's islands. */
export const INTENT_EVENT = "pinloom:intent";
type Store = Pick<Storage, "getItem" | "setItem" | "removeItem">;

const PIN_ID = /^\d{1,20}$/;
const KEYS = { save: SAVE_KEY, comment: COMMENT_KEY } as const;

const sessionStore = (): Store | null => {
  try {
    return typeof sessionStorage === "undefined" ? null : sessionStorage;
  } catch {
    return null;
  }
};

/** Remembers one intent per kind (a newer one replaces the older). */
export function rememberIntent(intent: Intent, storage: Store | null = sessionStore()): boolean {
  if (!PIN_ID.test(intent.pinId)) return false;
  try {
    storage?.setItem(KEYS[intent.kind], intent.pinId);
    return storage !== null;
  } catch {
    return false;
  }
}

/** The pin id of a pin page path (/pin/{id}/ and its variants), else null. */
export function pinIdOfPath(pathname: string): string | null {
  return /^\/pin\/(\d{1,20})(?:\/|$)/.exec(pathname)?.[1] ?? null;
}

/**
 * Hands back the remembered intent and forgets it. With `pinId`, only an intent for that pin
 * is handed back (and any other is left for its own page); save wins over comment.
 */
export function takePendingIntent(pinId: string | null = null, storage: Store | null = sessionStore()): Intent | null {
  if (storage === null) return null;
  for (const kind of ["save", "comment"] as const) {
    let stored: string | null;
    try {
      stored = storage.getItem(KEYS[kind]);
    } catch {
      return null;
    }
    if (stored === null) continue;
    if (!PIN_ID.test(stored)) {
      storage.removeItem(KEYS[kind]);
      continue;
    }
    if (pinId !== null && stored !== pinId) continue;
    storage.removeItem(KEYS[kind]);
    return { kind, pinId: stored };
  }
  return null;
}
