// The one saving instance every save island on a page shares (islands bundle this module
// once), wired to the real calls and to the shell's toasts.
import type { Intent } from "~/accounts/unauth.client.ts";
import { showToast } from "~/shell/toast-event.ts";
import { savingApi } from "./api.client.ts";
import { createSaving, type Saving } from "./store.ts";
import { isRepinLink } from "./repin-link.ts";

let shared: Saving | null = null;

export function saving(): Saving {
  shared ??= createSaving({ api: savingApi(), notify: (toast) => showToast(toast) });
  return shared;
}

/**
 * The signed-out save this page should resume (unauthSavePinId, taken by boot.ts after login on
 * the pin's page), once: whichever island asks first gets it. boot.ts dispatches INTENT_EVENT
 * before it stores the intent on window, so a listener passes the event's detail.
 */
export function takeResumedSave(pinId: string, announced: Intent | null = null): boolean {
  const holder = window as { pinloomPendingIntent?: Intent | null; pinloomResumedSave?: string };
  const intent = announced ?? holder.pinloomPendingIntent ?? null;
  if (intent?.kind !== "save" || intent.pinId !== pinId || holder.pinloomResumedSave === pinId) return false;
  // Taken: neither a second island nor boot's later window copy resumes it again.
  holder.pinloomResumedSave = pinId;
  holder.pinloomPendingIntent = null;
  return true;
}

/**
 * Whether the page came through the repost link (#repin): taken once, and the fragment is
 * dropped from the address so a reload or a shared copy does not open the picker again.
 */
export function takeRepinLink(): boolean {
  if (!isRepinLink(location.hash)) return false;
  history.replaceState(history.state, "", location.pathname + location.search);
  return true;
}
