// The lead form under a promoted pin (a feed cell or its close-up): "Sign up" or "Get in touch"
// opens a dialog that loads the running form (with the viewer's autofill, which the server
// decides: name and email for a signed-in person flagged eligible for each, nothing signed out),
// takes the asked fields and the consent box, and sends them; each refusal shows under its field,
// and a sent form thanks the person. Nothing renders on the server but the button.
import { useId, useState, type FormEvent } from "react";
import { ApiCallError, call } from "~/api/api.client.ts";
import { fill } from "~/saves/strings.ts";
import { Dialog } from "~/ui/Dialog.tsx";
import { LEAD_LIMITS, type CallToAction, type LeadField } from "./lead-form.ts";
import type { LeadDialogStrings } from "./lead-strings.ts";

interface LoadedForm {
  ad_id: string;
  advertiser_name: string;
  headline: string;
  privacy_policy_url: string;
  fields: LeadField[];
  prefill: { fullName?: string; email?: string };
  submitted: boolean;
}

interface Props {
  adId: string;
  callToAction: CallToAction;
  strings: LeadDialogStrings;
}

type Phase = { phase: "closed" } | { phase: "loading" } | { phase: "form"; form: LoadedForm } | { phase: "sending"; form: LoadedForm } | { phase: "sent"; form: LoadedForm } | { phase: "failed"; message: string };

const INPUT: Record<LeadField, { type: string; autoComplete: string; inputMode?: "email" | "tel" | "text"; maxLength: number; dir?: "ltr" }> = {
  fullName: { type: "text", autoComplete: "name", maxLength: LEAD_LIMITS.fullName },
  email: { type: "email", autoComplete: "email", inputMode: "email", maxLength: LEAD_LIMITS.email, dir: "ltr" },
  phoneNumber: { type: "tel", autoComplete: "tel", inputMode: "tel", maxLength: LEAD_LIMITS.phoneLength, dir: "ltr" },
  zipCode: { type: "text", autoComplete: "postal-code", maxLength: LEAD_LIMITS.zipMax, dir: "ltr" },
};

/** "field: reason; other: reason" (the server's words, in the page's language) by field. */
function problemsOf(detail: string | null): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const line of (detail ?? "").split("; ").filter(Boolean)) {
    const at = line.indexOf(": ");
    if (at > 0) problems[line.slice(0, at)] = line.slice(at + 2);
  }
  return problems;
}

export default function LeadFormButton({ adId, callToAction, strings }: Props) {
  const id = useId();
  const [state, setState] = useState<Phase>({ phase: "closed" });
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState<string | null>(null);
  const failed = (error: unknown) => (error instanceof ApiCallError && error.code !== null ? error.message : strings.dialog.failed);

  const open = async () => {
    setState({ phase: "loading" });
    setProblems({});
    setGeneral(null);
    try {
      const form = await call<LoadedForm>(`/v3/lead_forms/${adId}/`);
      setState(form.submitted ? { phase: "sent", form } : { phase: "form", form });
    } catch (error) {
      setState({ phase: "failed", message: failed(error) });
    }
  };
  const close = () => {
    if (state.phase !== "sending") setState({ phase: "closed" });
  };
  const send = async (event: FormEvent<HTMLFormElement>, form: LoadedForm) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const body: Record<string, unknown> = { consent: data.get("consent") === "on" };
    for (const field of form.fields) body[field] = String(data.get(field) ?? "");
    setState({ phase: "sending", form });
    setProblems({});
    setGeneral(null);
    try {
      await call(`/v3/lead_forms/${adId}/submissions/`, { method: "POST", body: { json: body } });
      setState({ phase: "sent", form });
    } catch (error) {
      if (error instanceof ApiCallError && error.httpStatus === 400) {
        const found = problemsOf(error.detail);
        setProblems(found);
        if (Object.keys(found).length === 0) setGeneral(failed(error));
      } else if (error instanceof ApiCallError && error.httpStatus === 409) {
        setState({ phase: "sent", form: { ...form, submitted: true } });
        return;
      } else setGeneral(failed(error));
      setState({ phase: "form", form });
    }
  };

  const form = state.phase === "form" || state.phase === "sending" || state.phase === "sent" ? state.form : null;
  const advertiser = form?.advertiser_name ?? "";
  const title = state.phase === "sent" ? strings.dialog.thanksTitle : form?.headline ?? strings.cta[callToAction];
  const errorId = (field: string) => `${id}-${field}-error`;
  const prefilled = form !== null && (form.prefill.fullName !== undefined || form.prefill.email !== undefined);

  return (
    <>
      <button type="button" className="button lead-open" aria-haspopup="dialog" onClick={() => void open()}>
        {strings.cta[callToAction]}
      </button>
      <Dialog open={state.phase !== "closed"} onClose={close} className="lead-dialog" title={title} closeLabel={strings.dialog.close} busy={state.phase === "loading" || state.phase === "sending"}>
        {state.phase === "loading" && <p role="status">{strings.dialog.loading}</p>}
        {state.phase === "failed" && (
          <p className="lead-error" role="alert">
            {state.message}
          </p>
        )}
        {state.phase === "sent" && form && (
          <>
            <p role="status">{fill(form.submitted ? strings.dialog.already : strings.dialog.thanks, { advertiser })}</p>
            <div className="lead-actions">
              <button type="button" className="button primary" data-autofocus onClick={close}>
                {strings.dialog.close}
              </button>
            </div>
          </>
        )}
        {(state.phase === "form" || state.phase === "sending") && form && (
          <form className="lead-form" noValidate onSubmit={(event) => void send(event, form)}>
            <p className="lead-from">{fill(strings.dialog.from, { advertiser })}</p>
            {prefilled && <p className="lead-note">{strings.dialog.prefilled}</p>}
            {form.fields.map((field) => {
              const input = INPUT[field];
              return (
                <div key={field} className="lead-field">
                  <label htmlFor={`${id}-${field}`}>{strings.fields[field]}</label>
                  <input
                    id={`${id}-${field}`}
                    name={field}
                    type={input.type}
                    autoComplete={input.autoComplete}
                    inputMode={input.inputMode}
                    maxLength={input.maxLength}
                    dir={input.dir}
                    required
                    defaultValue={field === "fullName" ? form.prefill.fullName ?? "" : field === "email" ? form.prefill.email ?? "" : ""}
                    aria-invalid={problems[field] ? true : undefined}
                    aria-describedby={problems[field] ? errorId(field) : undefined}
                  />
                  {problems[field] && (
                    <p className="lead-error" id={errorId(field)}>
                      {problems[field]}
                    </p>
                  )}
                </div>
              );
            })}
            <div className="lead-field lead-consent">
              <label>
                <input type="checkbox" name="consent" required aria-invalid={problems["consent"] ? true : undefined} aria-describedby={problems["consent"] ? errorId("consent") : undefined} />{" "}
                {fill(strings.dialog.consent, { advertiser })}
              </label>
              {problems["consent"] && (
                <p className="lead-error" id={errorId("consent")}>
                  {problems["consent"]}
                </p>
              )}
            </div>
            <p>
              <a href={form.privacy_policy_url} target="_blank" rel="noopener noreferrer nofollow">
                {fill(strings.dialog.privacy, { advertiser })} <span className="visually-hidden">{strings.dialog.newTab}</span>
              </a>
            </p>
            {general && (
              <p className="lead-error" role="alert">
                {general}
              </p>
            )}
            <div className="lead-actions">
              <button type="submit" className="button primary" disabled={state.phase === "sending"}>
                {state.phase === "sending" ? strings.dialog.sending : strings.dialog.send}
              </button>
            </div>
          </form>
        )}
      </Dialog>
    </>
  );
}
