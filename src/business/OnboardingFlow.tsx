// The business onboarding stepper (spec 002 §4 "Onboarding"): the transitions are
// stepperReducer's (./onboarding.ts, unit-tested); this island renders the current step, asks
// for the underage confirmation before the business is made when the person's age is unknown,
// and sends the answers once. On success it goes on to the marketing plan.
import { useId, useReducer, useState, type FormEvent } from "react";
import { apiFetch } from "~/runtime/fetch.ts";
import { Dialog } from "~/ui/Dialog.tsx";
import {
  ACCOUNT_TYPES,
  ADVERTISING_INTENTS,
  AGENCY_CLIENT_BANDS,
  AGENCY_CONTENT,
  AGENCY_ROLES,
  AGENCY_SERVICES,
  BUSINESS_GOALS,
  BUSINESS_VERTICALS,
  EMPLOYEE_BANDS,
  INITIAL_STEPPER,
  ONBOARDING_STEPS,
  stepperReducer,
  type OnboardingAnswers,
} from "./onboarding.ts";

export interface OnboardingStrings {
  progress: string;
  back: string;
  next: string;
  finish: string;
  working: string;
  choose: string;
  failed: string;
  steps: Record<string, string>;
  fields: Record<string, string>;
  options: Record<string, Record<string, string>>;
  underage: {
    title: string;
    body: string;
    confirm: string;
    cancel: string;
    close: string;
  };
}

export interface OnboardingProps {
  strings: OnboardingStrings;
  countries: Array<{ code: string; name: string }>;
  locales: Array<{ code: string; name: string }>;
  /** Prefilled where the account already says. */
  initial: {
    email: string;
    country: string;
    locale: string;
    businessName: string;
  };
  /** The account's age is known to be 18 or more: no confirmation needed. */
  knownAdult: boolean;
}

type Field = keyof OnboardingAnswers;
const CHOICES: Partial<Record<Field, readonly string[]>> = {
  businessVertical: BUSINESS_VERTICALS,
  numberEmployees: EMPLOYEE_BANDS,
  advertisingIntent: ADVERTISING_INTENTS,
  accountType: ACCOUNT_TYPES,
  agencyRole: AGENCY_ROLES,
  agencyClients: AGENCY_CLIENT_BANDS,
  agencyContent: AGENCY_CONTENT,
  agencyService: AGENCY_SERVICES,
};
const BOOLEANS = new Set<Field>([
  "hasWebsite",
  "worksWithAgency",
  "whatsAppConsent",
]);
const AGENCY = new Set<Field>([
  "agencyRole",
  "agencyClients",
  "agencyContent",
  "agencyService",
  "agencyServiceOther",
]);

export default function OnboardingFlow({
  strings,
  countries,
  locales,
  initial,
  knownAdult,
}: OnboardingProps) {
  const [state, dispatch] = useReducer(stepperReducer, {
    ...INITIAL_STEPPER,
    values: {
      hasWebsite: false,
      worksWithAgency: false,
      whatsAppConsent: false,
      accountType: "ADVERTISER",
      email: initial.email,
      country: initial.country,
      locale: initial.locale,
      businessName: initial.businessName,
    },
  });
  const [sending, setSending] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const id = useId();
  const step = ONBOARDING_STEPS[state.stepIndex]!;
  const last = state.stepIndex === ONBOARDING_STEPS.length - 1;
  const values = state.values as Record<string, unknown>;

  const set = (field: Field, value: unknown) =>
    dispatch({ type: "set", field, value });

  async function send(confirmed: boolean) {
    setSending(true);
    setProblem(null);
    try {
      const body = Object.fromEntries(
        Object.entries<unknown>({
          ...values,
          ageConfirmed: confirmed || values["ageConfirmed"] === true,
        }).filter(
          ([field, value]) =>
            value !== "" &&
            value !== undefined &&
            (values["worksWithAgency"] === true ||
              !AGENCY.has(field as Field)) &&
            (values["hasWebsite"] === true || field !== "website"),
        ),
      );
      const response = await apiFetch("/v3/businesses/", {
        method: "POST",
        body: JSON.stringify(body),
        headers: { "Content-Type": "application/json" },
      });
      const answer = (await response.json().catch(() => ({}))) as {
        data?: { business?: { id?: string } };
        message?: string;
        message_detail?: string | null;
      };
      const businessId = answer.data?.business?.id;
      if (response.ok && businessId) {
        window.location.assign(`/business/hub/${businessId}/marketing-plan/`);
        return;
      }
      setProblem(
        [answer.message, answer.message_detail].filter(Boolean).join(" — ") ||
          strings.failed,
      );
    } catch {
      setProblem(strings.failed);
    }
    setSending(false);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!state.canProceed) return;
    if (!last) return dispatch({ type: "next" });
    if (!knownAdult && values["ageConfirmed"] !== true)
      return dispatch({ type: "showUnderageModal" });
    void send(false);
  }

  function visible(field: Field): boolean {
    if (field === "website") return values["hasWebsite"] === true;
    if (field === "agencyServiceOther")
      return (
        values["worksWithAgency"] === true &&
        values["agencyService"] === "OTHER"
      );
    if (AGENCY.has(field)) return values["worksWithAgency"] === true;
    return true;
  }

  function input(field: Field) {
    const label = strings.fields[field] ?? field;
    const fieldId = `${id}-${field}`;
    if (field === "businessGoals") {
      const chosen = (values["businessGoals"] as string[] | undefined) ?? [];
      return (
        <fieldset key={field} className="hub-field">
          <legend>{label}</legend>
          {BUSINESS_GOALS.map((goal) => (
            <label key={goal} className="hub-check">
              <input
                type="checkbox"
                checked={chosen.includes(goal)}
                onChange={(event) =>
                  set(
                    "businessGoals",
                    event.currentTarget.checked
                      ? [...chosen, goal]
                      : chosen.filter((each) => each !== goal),
                  )
                }
              />
              {strings.options["businessGoals"]?.[goal]}
            </label>
          ))}
        </fieldset>
      );
    }
    if (BOOLEANS.has(field)) {
      return (
        <label key={field} className="hub-check">
          <input
            type="checkbox"
            checked={values[field] === true}
            onChange={(event) => set(field, event.currentTarget.checked)}
          />
          {label}
        </label>
      );
    }
    const options =
      field === "country"
        ? countries.map((country) => [country.code, country.name] as const)
        : field === "locale"
          ? locales.map((locale) => [locale.code, locale.name] as const)
          : CHOICES[field]?.map(
              (option) =>
                [option, strings.options[field]?.[option] ?? option] as const,
            );
    return (
      <div key={field} className="hub-field">
        <label htmlFor={fieldId}>{label}</label>
        {options ? (
          <select
            id={fieldId}
            value={
              typeof values[field] === "string" ? (values[field] as string) : ""
            }
            onChange={(event) =>
              set(field, event.currentTarget.value || undefined)
            }
          >
            <option value="">{strings.choose}</option>
            {options.map(([value, name]) => (
              <option key={value} value={value}>
                {name}
              </option>
            ))}
          </select>
        ) : (
          <input
            id={fieldId}
            type={
              field === "email"
                ? "email"
                : field === "website"
                  ? "url"
                  : field === "phoneNumber" || field === "countryCode"
                    ? "tel"
                    : "text"
            }
            dir={
              field === "email" ||
              field === "website" ||
              field === "phoneNumber" ||
              field === "countryCode"
                ? "ltr"
                : "auto"
            }
            value={
              typeof values[field] === "string" ? (values[field] as string) : ""
            }
            onChange={(event) => set(field, event.currentTarget.value)}
            autoComplete={
              field === "email"
                ? "email"
                : field === "firstName"
                  ? "given-name"
                  : field === "lastName"
                    ? "family-name"
                    : field === "businessName"
                      ? "organization"
                      : field === "phoneNumber"
                        ? "tel-national"
                        : field === "countryCode"
                          ? "tel-country-code"
                          : "off"
            }
          />
        )}
      </div>
    );
  }

  return (
    <>
      <form
        className="hub-form"
        onSubmit={submit}
        aria-labelledby={`${id}-step`}
        noValidate
      >
        <p className="stepper-progress">
          {strings.progress
            .replace("{{step}}", String(state.stepIndex + 1))
            .replace("{{total}}", String(ONBOARDING_STEPS.length))}
        </p>
        <h2 id={`${id}-step`}>{strings.steps[step.id]}</h2>
        {step.fields
          .filter((field) => visible(field as Field))
          .map((field) => input(field as Field))}
        <div className="stepper-actions">
          {state.stepIndex > 0 && (
            <button
              type="button"
              className="button"
              onClick={() => dispatch({ type: "back" })}
              disabled={sending}
            >
              {strings.back}
            </button>
          )}
          <button
            type="submit"
            className="button primary"
            disabled={!state.canProceed || sending}
            aria-busy={sending}
          >
            {sending ? strings.working : last ? strings.finish : strings.next}
          </button>
        </div>
        <p className="hub-status is-error" role="alert">
          {problem}
        </p>
      </form>
      <Dialog
        open={state.underageModalVisible}
        onClose={() => dispatch({ type: "hideUnderageModal" })}
        className="hub-dialog"
        title={strings.underage.title}
        closeLabel={strings.underage.close}
        role="alertdialog"
        describedBy={`${id}-underage`}
      >
        <p id={`${id}-underage`}>{strings.underage.body}</p>
        <div className="stepper-actions">
          <button
            type="button"
            className="button primary"
            onClick={() => {
              dispatch({ type: "confirmAge" });
              void send(true);
            }}
          >
            {strings.underage.confirm}
          </button>
          <button
            type="button"
            className="button"
            onClick={() => dispatch({ type: "hideUnderageModal" })}
          >
            {strings.underage.cancel}
          </button>
        </div>
      </Dialog>
    </>
  );
}
