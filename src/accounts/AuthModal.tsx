// Log in and sign up as a modal over any page. The island renders its own triggers (plain
// links to /login/ and /signup/ in the server HTML, so they work before React and for
// anyone without script) and opens the modal dialog (src/ui/Dialog.tsx) on click; focus
// returns to the trigger when it closes.
// A Save trigger also remembers the pin (unauthSavePinId) so the page can resume after login.
import { useEffect, useState } from "react";
import { Dialog } from "~/ui/Dialog.tsx";
import { pageAuthStrings, type AuthStrings } from "./auth-strings.ts";
import LoginForm from "./LoginForm.tsx";
import SignupForm from "./SignupForm.tsx";
import { rememberIntent, type Intent } from "./unauth.client.ts";
import { safeNext, withNext } from "./safe-next.ts";

export type AuthMode = "login" | "signup";

export interface AuthDialogProps {
  open: boolean;
  mode: AuthMode;
  onModeChange: (mode: AuthMode) => void;
  onClose: () => void;
  /** Null only while closed (the strings load with the first opening). */
  strings: AuthStrings | null;
  /** Where to go after success; defaults to reloading the current page. */
  next: string | null;
  country: string;
  locale: string;
  idPrefix?: string;
  /** Log in again to this known account (the login form, prefilled): see LoginForm's `again`. */
  again?: { usernameOrEmail: string; notice: string } | null;
}

export function AuthDialog({ open, mode, onModeChange, onClose, strings, next, country, locale, idPrefix = "auth-modal", again = null }: AuthDialogProps) {
  const headingId = `${idPrefix}-heading`;
  const done = () => (next === null ? window.location.reload() : window.location.assign(next));
  const here = typeof window === "undefined" ? "/" : window.location.pathname + window.location.search;
  const target = next ?? here;
  // With the human check configured (Base.astro marks <body data-human-check>), sign-up runs on
  // its own page: only that page's CSP admits Turnstile's script and frame.
  const signupOnPage = open && mode === "signup" && typeof document !== "undefined" && document.body.dataset["humanCheck"] !== undefined;
  useEffect(() => {
    if (signupOnPage) window.location.assign(withNext("/signup/", target));
  }, [signupOnPage, target]);
  return (
    <Dialog open={open} onClose={onClose} className="auth-dialog" labelledBy={headingId}>
      {strings && (
        <div className="auth-dialog-body">
          <button type="button" className="auth-close" aria-label={strings.modal.close} onClick={onClose}>
            <span aria-hidden="true">×</span>
          </button>
          <h2 id={headingId}>{mode === "login" ? strings.login.heading : strings.signup.heading}</h2>
          {mode === "login" ? (
            <LoginForm
              key={again?.usernameOrEmail ?? ""}
              again={again}
              strings={strings}
              next={target}
              idPrefix={`${idPrefix}-login`}
              signupHref={withNext("/signup/", target)}
              onSwitchToSignup={() => onModeChange("signup")}
              onSuccess={done}
            />
          ) : signupOnPage ? null : (
            <SignupForm
              strings={strings}
              next={target}
              country={country}
              locale={locale}
              idPrefix={`${idPrefix}-signup`}
              loginHref={withNext("/login/", target)}
              onSwitchToLogin={() => onModeChange("login")}
            />
          )}
        </div>
      )}
    </Dialog>
  );
}

interface AuthTrigger {
  mode: AuthMode;
  label: string;
  className?: string;
  /** This trigger's own return path (the header's Create: the pin builder), instead of the island's. */
  path?: string;
}

export interface AuthModalProps {
  /** Absent on signed-out pages: the dialog reads the page's strings block when it opens. */
  strings?: AuthStrings;
  triggers: AuthTrigger[];
  /**
   * A fixed return path (the pin of a Save button). Without it the links carry no ?next= in
   * the HTML, so one page's markup never depends on its URL (a secret board's 404 stays
   * byte-identical to any other 404), and the dialog returns to the page it opened on.
   */
  path?: string;
  country: string;
  locale: string;
  /** A Save (or comment) button: the pin to resume after login. */
  intent?: Intent;
  idPrefix?: string;
}

export default function AuthModal({ strings, triggers, path, country, locale, intent, idPrefix = "auth-modal" }: AuthModalProps) {
  const [open, setOpen] = useState(false);
  const [mode, setMode] = useState<AuthMode>("login");
  const [triggerNext, setTriggerNext] = useState<string | null>(null);
  const next = path === undefined ? null : safeNext(path);
  const dialogStrings = strings ?? (open ? pageAuthStrings() : null);
  return (
    <>
      {triggers.map((trigger) => (
        <a
          key={`${trigger.mode}:${trigger.path ?? ""}`}
          className={trigger.className ?? "button"}
          href={withNext(`/${trigger.mode}/`, trigger.path === undefined ? (next ?? "/") : safeNext(trigger.path))}
          aria-haspopup="dialog"
          data-auth-trigger={trigger.mode}
          onClick={(event) => {
            if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
            // Without strings to build the dialog, the link's own page does the job.
            if (!strings && !pageAuthStrings()) return;
            event.preventDefault();
            if (intent) rememberIntent(intent);
            setTriggerNext(trigger.path === undefined ? null : safeNext(trigger.path));
            setMode(trigger.mode);
            setOpen(true);
          }}
        >
          {trigger.label}
        </a>
      ))}
      <AuthDialog
        open={open && dialogStrings !== null}
        mode={mode}
        onModeChange={setMode}
        onClose={() => setOpen(false)}
        strings={dialogStrings}
        next={triggerNext ?? next}
        country={country}
        locale={locale}
        idPrefix={idPrefix}
      />
    </>
  );
}
