// The signed-out comment this page should resume (unauthCommentPinId): boot.ts takes it after
// login on the pin's page, dispatches INTENT_EVENT and leaves a window copy for islands that
// hydrate later. Whichever asks first gets it, once (as saves/saving.client.ts takeResumedSave does
// for saves).
import type { Intent } from "~/accounts/unauth.client.ts";

type Holder = { pinloomPendingIntent?: Intent | null; pinloomResumedComment?: string };

export function takeResumedComment(pinId: string, announced: Intent | null = null, holder: Holder = window as Holder): boolean {
  const intent = announced ?? holder.pinloomPendingIntent ?? null;
  if (intent?.kind !== "comment" || intent.pinId !== pinId || holder.pinloomResumedComment === pinId) return false;
  holder.pinloomResumedComment = pinId;
  holder.pinloomPendingIntent = null;
  return true;
}
