// The sign-up form (page and modal): email, password, name, username, optional birthday, and
// a business toggle that adds the business name (then the registration type is partner).
// Checks run before the call; the server's answer (field problems, taken email or username,
// age restriction, the no-token sentence) is shown where it belongs.
import { BUSINESS_ONBOARDING_PATH } from "~/business/navigation.ts";
import { useEffect, useRef, useState, type SubmitEvent } from "react";
import type { AuthStrings } from "./auth-strings.ts";
import { Field, PasswordField, useHydrated } from "./Field.tsx";
import { installId, signUp, type SignupInput } from "./signup.client.ts";
import { viewedImages, visitedPages } from "~/visits/trail.client.ts";
import { trailBehavior } from "~/visits/trail.ts";
import { withNext } from "./safe-next.ts";
import { mountTurnstile } from "./turnstile.ts";
import { emailProblem, firstNameProblem, passwordProblem, requiredProblem, usernameProblem, type Problem } from "./validate.ts";

export interface SignupFormProps {
  strings: Pick<AuthStrings, "field" | "error" | "signup">;
  next: string;
  country: string;
  locale: string;
  idPrefix?: string;
  loginHref?: string;
  onSwitchToLogin?: () => void;
  /** Cloudflare Turnstile's site key when the site configured the human check, else absent. */
  turnstileSiteKey?: string | null;
}

const FIELDS = ["business_name", "email", "password", "first_name", "last_name", "username", "birthday"] as const;
type FieldName = (typeof FIELDS)[number];
type Errors = Partial<Record<FieldName | "form", string | null>>;

function storage(): Storage | null {
  try {
    return localStorage;
  } catch {
    return null;
  }
}

export default function SignupForm({ strings, next, country, locale, idPrefix = "signup", loginHref, onSwitchToLogin, turnstileSiteKey }: SignupFormProps) {
  const [business, setBusiness] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const hydrated = useHydrated();
  const formRef = useRef<HTMLFormElement>(null);
  const humanCheckRef = useRef<HTMLDivElement>(null);
  const [humanToken, setHumanToken] = useState<string | null>(null);
  // A Turnstile token is good for one check: after a refused attempt the widget starts over.
  const [humanRound, setHumanRound] = useState(0);
  const id = (name: string) => `${idPrefix}-${name}`;

  useEffect(() => {
    if (!turnstileSiteKey || !humanCheckRef.current) return;
    return mountTurnstile(humanCheckRef.current, turnstileSiteKey, locale.replace("_", "-").toLowerCase(), setHumanToken);
  }, [turnstileSiteKey, locale, humanRound]);
  const say = (problem: Problem | null) => (problem ? strings.field[problem] : null);

  function focusFirst(found: Errors) {
    const first = FIELDS.find((name) => found[name]);
    if (first) formRef.current?.querySelector<HTMLInputElement>(`[name="${first}"]`)?.focus();
  }

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const form = new FormData(event.currentTarget);
    const value = (name: FieldName) => String(form.get(name) ?? "");
    const input: SignupInput = {
      email: value("email"),
      password: value("password"),
      username: value("username"),
      first_name: business ? value("business_name") : value("first_name"),
      last_name: business ? "" : value("last_name"),
      birthday: value("birthday") || undefined,
      business_name: business ? value("business_name") : undefined,
      country,
      locale,
      referrer: document.referrer.slice(0, 500),
      recaptcha_v3_token: humanToken ?? undefined,
      // What this visit saw before signing up (src/visits/): its pages, and the images it viewed.
      visited_pages: visitedPages(),
      user_behavior_data: trailBehavior(viewedImages()),
    };
    const found: Errors = {
      business_name: business ? say(requiredProblem(value("business_name")) ?? (value("business_name").trim().length > 30 ? "firstNameLong" : null)) : null,
      email: say(emailProblem(input.email)),
      password: say(passwordProblem(input.password)),
      first_name: business ? null : say(firstNameProblem(input.first_name)),
      username: say(usernameProblem(input.username)),
    };
    if (turnstileSiteKey && !humanToken) found.form = strings.signup.humanCheckNeeded;
    if (Object.values(found).some(Boolean)) {
      setErrors(found);
      focusFirst(found);
      return;
    }
    setBusy(true);
    setErrors({});
    const result = await signUp(input, { installId: installId(storage()), setCookie: (cookie) => (document.cookie = cookie) });
    switch (result.kind) {
      case "success":
        // A business goes on to its onboarding stepper (spec 002); a person to theirs (spec 001 §2),
        // which then goes on to `next`.
        if (business) return window.location.assign(BUSINESS_ONBOARDING_PATH);
        window.location.assign(withNext("/onboarding/", next));
        return;
      case "ageRestricted":
        setErrors({ form: strings.signup.ageRestricted });
        break;
      case "conflict":
        setErrors(result.field === "username" ? { username: strings.signup.usernameTaken } : { email: strings.signup.emailTaken });
        break;
      case "invalid": {
        const fromServer: Errors = {};
        for (const name of FIELDS) if (result.fields[name]) fromServer[name] = result.fields[name];
        if (business && result.fields["first_name"]) fromServer.business_name = result.fields["first_name"];
        const known = Object.keys(fromServer).length > 0;
        setErrors({ ...fromServer, form: known ? strings.error.formProblems : result.message || strings.error.default });
        focusFirst(fromServer);
        break;
      }
      case "noToken":
        setErrors({ form: strings.signup.noToken });
        break;
      case "failed":
        setErrors({ form: result.message ?? (navigator.onLine ? strings.error.default : strings.error.offline) });
        break;
    }
    if (turnstileSiteKey) {
      setHumanToken(null);
      setHumanRound((round) => round + 1);
    }
    setBusy(false);
  }

  return (
    <form ref={formRef} className="auth-form" method="post" action="/signup/" noValidate onSubmit={(event) => void submit(event)}>
      {errors.form && (
        <p className="auth-form-error" id={id("form-error")} role="alert">
          {errors.form}
        </p>
      )}
      <div className="auth-check">
        <input id={id("business")} type="checkbox" name="is_business" checked={business} onChange={(event) => setBusiness(event.currentTarget.checked)} />
        <label htmlFor={id("business")}>{strings.signup.business}</label>
      </div>
      {business && (
        <Field id={id("business-name")} name="business_name" label={strings.signup.businessName} error={errors.business_name} autoComplete="organization" maxLength={30} required />
      )}
      <Field id={id("email")} name="email" type="email" label={strings.signup.email} error={errors.email} autoComplete="email" autoCapitalize="none" spellCheck={false} required />
      <PasswordField
        id={id("password")}
        name="password"
        label={strings.signup.password}
        hint={strings.signup.passwordHint}
        error={errors.password}
        autoComplete="new-password"
        required
        showLabel={strings.field.showPassword}
        hideLabel={strings.field.hidePassword}
      />
      {!business && (
        <>
          <Field id={id("first-name")} name="first_name" label={strings.signup.firstName} error={errors.first_name} autoComplete="given-name" maxLength={30} required />
          <Field id={id("last-name")} name="last_name" label={strings.signup.lastName} error={errors.last_name} autoComplete="family-name" maxLength={30} />
        </>
      )}
      <Field id={id("username")} name="username" label={strings.signup.username} error={errors.username} autoComplete="username" autoCapitalize="none" spellCheck={false} maxLength={30} required />
      {!business && <Field id={id("birthday")} name="birthday" type="date" label={strings.signup.birthday} error={errors.birthday} autoComplete="bday" />}
      {turnstileSiteKey && <div className="auth-turnstile" ref={humanCheckRef} role="group" aria-label={strings.signup.humanCheck} />}
      <button className="button primary auth-submit" type="submit" disabled={busy || !hydrated}>
        {busy ? strings.signup.submitting : strings.signup.submit}
      </button>
      <p className="auth-switch">
        {strings.signup.haveAccount}{" "}
        <a
          href={loginHref ?? "/login/"}
          onClick={(event) => {
            if (!onSwitchToLogin) return;
            event.preventDefault();
            onSwitchToLogin();
          }}
        >
          {strings.signup.toLogin}
        </a>
      </p>
    </form>
  );
}
