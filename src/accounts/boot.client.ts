// What every page a person sees runs for accounts, once: token refresh (spec §4), the
// logout flag's clean-up, the email-verification reminder for viewers with that nag (once
// per session; the shell owns the dialog and its Resend call and opens it on VERIFY_EVENT),
// and a signed-out intent resumed on its pin (unauthSavePinId / unauthCommentPinId) with a
// notice that it is ready. Signed-in pages only: signed-out readers load none of it.
import { clearLogoutFlag } from "./session.client.ts";
import { readEmbeddedContext, refreshTokens } from "./token-refresh.client.ts";
import { shouldNagVerify } from "./verify-nag.client.ts";
import { INTENT_EVENT, pinIdOfPath, takePendingIntent, type Intent } from "./unauth.client.ts";

/** src/shell/AppShell.astro opens its "Verify your email" dialog on this event. */
const VERIFY_EVENT = "pinloom:verify-email";

export function boot(doc: Document = document): Intent | null {
  const context = readEmbeddedContext(doc);
  const signedIn = Boolean(context.viewer) || Boolean(context.limitedViewer);
  if (!signedIn) return null;
  try {
    clearLogoutFlag(sessionStorage);
  } catch {
    // storage blocked: nothing to clear
  }
  void refreshTokens(context);
  // This script runs after the shell's (module scripts run in document order), so its listener exists.
  if (shouldNagVerify(context)) dispatchEvent(new Event(VERIFY_EVENT));
  const pinId = pinIdOfPath(location.pathname);
  const intent = pinId && context.viewer ? takePendingIntent(pinId) : null;
  if (intent) {
    const notice = doc.getElementById("auth-notice");
    if (notice) {
      notice.textContent = (intent.kind === "save" ? notice.dataset["ready"] : notice.dataset["readyComment"]) ?? "";
    }
    // The save and comment islands listen for this; until one takes it up, the notice stands.
    dispatchEvent(new CustomEvent<Intent>(INTENT_EVENT, { detail: intent }));
    (window as { pinloomPendingIntent?: Intent }).pinloomPendingIntent = intent;
  }
  return intent;
}
