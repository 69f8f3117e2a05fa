// The login form (page and modal): a real <form> in the server HTML, taken over by React to
// run the handshake, the MFA code step (HTTP 409, code 12) and the session exchange.
import { useEffect, useRef, useState, type SubmitEvent } from "react";
import type { AuthStrings } from "./auth-strings.ts";
import { Field, PasswordField, useHydrated } from "./Field.tsx";
import { cleanOtp, logIn, logInWithCode, type LoginResult } from "./login.client.ts";
import { requiredProblem } from "./validate.ts";

export interface LoginFormProps {
  strings: Pick<AuthStrings, "field" | "error" | "login">;
  /** Where to go after logging in (already checked to be on this site). */
  next: string;
  /** Prefix for element ids, so the page and a modal can both hold a form. */
  idPrefix?: string;
  /** Link or handler to the sign-up form. */
  signupHref?: string;
  onSwitchToSignup?: () => void;
  /** Default: go to `next`. */
  onSuccess?: () => void;
  /**
   * Logging in again to a known account (the switcher's account whose session has expired):
   * its username is filled in, the password field has focus, and the notice says why.
   */
  again?: { usernameOrEmail: string; notice: string } | null;
}

type Errors = { username_or_email?: string | null; password?: string | null; code?: string | null; form?: string | null };

function messageFor(result: Extract<LoginResult, { kind: "error" }>, strings: LoginFormProps["strings"]): string {
  if (result.httpStatus === 429) return strings.error.throttled;
  if (result.httpStatus === null) return typeof navigator !== "undefined" && !navigator.onLine ? strings.error.offline : strings.error.default;
  return result.message || strings.error.default;
}

export default function LoginForm({ strings, next, idPrefix = "login", signupHref, onSwitchToSignup, onSuccess, again = null }: LoginFormProps) {
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const hydrated = useHydrated();
  const [mfa, setMfa] = useState<{ challenge: string; username_or_email: string } | null>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  const userRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const id = (name: string) => `${idPrefix}-${name}`;
  const done = onSuccess ?? (() => window.location.assign(next));
  // The code step takes focus as soon as it is shown (and the first field when going back).
  const step = mfa ? "code" : "password";
  const firstRender = useRef(true);
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    (step === "code" ? codeRef.current : userRef.current)?.focus();
  }, [step]);

  // Asked again for a known account, the password is all that is missing. After the dialog
  // opens: a closed <dialog>'s fields cannot take focus.
  useEffect(() => {
    if (!again) return;
    const frame = requestAnimationFrame(() => passwordRef.current?.focus());
    return () => cancelAnimationFrame(frame);
  }, [again]);

  async function finish(result: LoginResult) {
    if (result.kind === "success") {
      done();
      return;
    }
    setBusy(false);
    if (result.kind === "mfa") {
      setMfa({ challenge: result.challenge, username_or_email: result.username_or_email });
      setErrors({});
      return;
    }
    setErrors({ form: messageFor(result, strings) });
  }

  async function submitPassword(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const form = new FormData(event.currentTarget);
    const username_or_email = String(form.get("username_or_email") ?? "");
    const password = String(form.get("password") ?? "");
    const problems: Errors = {
      username_or_email: requiredProblem(username_or_email) && strings.field.required,
      password: password === "" ? strings.field.required : null,
    };
    if (problems.username_or_email || problems.password) {
      setErrors(problems);
      (problems.username_or_email ? userRef.current : event.currentTarget.querySelector<HTMLInputElement>("input[name=password]"))?.focus();
      return;
    }
    setBusy(true);
    setErrors({});
    await finish(await logIn({ username_or_email, password, referrer: document.referrer.slice(0, 500) }));
  }

  async function submitCode(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || !mfa) return;
    const code = cleanOtp(String(new FormData(event.currentTarget).get("mfa_token") ?? ""));
    if (code.length !== 6) {
      setErrors({ code: strings.login.mfaInvalid });
      codeRef.current?.focus();
      return;
    }
    setBusy(true);
    setErrors({});
    const result = await logInWithCode({ ...mfa, code });
    if (result.kind === "error") {
      setBusy(false);
      setErrors({ code: messageFor(result, strings) });
      codeRef.current?.select();
      return;
    }
    await finish(result);
  }

  if (mfa) {
    return (
      <form className="auth-form" method="post" action="/login/" noValidate onSubmit={(event) => void submitCode(event)} aria-labelledby={id("mfa-heading")}>
        <h2 id={id("mfa-heading")}>{strings.login.mfaHeading}</h2>
        <p id={id("mfa-help")}>{strings.login.mfaHelp}</p>
        <Field
          ref={codeRef}
          id={id("code")}
          name="mfa_token"
          label={strings.login.mfaCode}
          error={errors.code}
          inputMode="numeric"
          pattern="[0-9]*"
          maxLength={6}
          autoComplete="one-time-code"
          required
        />
        <button className="button primary auth-submit" type="submit" disabled={busy || !hydrated}>
          {busy ? strings.login.submitting : strings.login.mfaSubmit}
        </button>
        <button
          type="button"
          className="auth-link"
          onClick={() => {
            setMfa(null);
            setErrors({});
          }}
        >
          {strings.login.back}
        </button>
      </form>
    );
  }

  return (
    <form
      className="auth-form"
      method="post"
      action="/login/"
      noValidate
      onSubmit={(event) => void submitPassword(event)}
      aria-describedby={[again ? id("again") : null, errors.form ? id("form-error") : null].filter(Boolean).join(" ") || undefined}
    >
      {again && (
        <p className="auth-again" id={id("again")}>
          {again.notice}
        </p>
      )}
      {errors.form && (
        <p className="auth-form-error" id={id("form-error")} role="alert">
          {errors.form}
        </p>
      )}
      <Field
        ref={userRef}
        id={id("username")}
        name="username_or_email"
        label={strings.login.usernameOrEmail}
        error={errors.username_or_email}
        type="text"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        required
        defaultValue={again?.usernameOrEmail}
      />
      <PasswordField
        ref={passwordRef}
        id={id("password")}
        name="password"
        label={strings.login.password}
        error={errors.password}
        autoComplete="current-password"
        required
        showLabel={strings.field.showPassword}
        hideLabel={strings.field.hidePassword}
      />
      <button className="button primary auth-submit" type="submit" disabled={busy || !hydrated}>
        {busy ? strings.login.submitting : strings.login.submit}
      </button>
      <p className="auth-switch">
        {strings.login.noAccount}{" "}
        <a
          href={signupHref ?? "/signup/"}
          onClick={(event) => {
            if (!onSwitchToSignup) return;
            event.preventDefault();
            onSwitchToSignup();
          }}
        >
          {strings.login.toSignup}
        </a>
      </p>
    </form>
  );
}
