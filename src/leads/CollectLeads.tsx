// Quick promote's optional "Collect leads" step: a lead form on the promoted pin's ad (a
// headline, the privacy policy's link, the fields to ask for, the button). The server checks it
// with the rest of the promotion and names each problem as leadForm.<field>.
import { useId } from "react";
import { CALLS_TO_ACTION, LEAD_FIELDS, LEAD_LIMITS, type CallToAction, type LeadField } from "./lead-form.ts";
import type { LeadSetupStrings } from "./lead-strings.ts";

export interface LeadDraft {
  enabled: boolean;
  headline: string;
  privacyPolicyUrl: string;
  fields: LeadField[];
  callToAction: CallToAction;
}

export const EMPTY_LEAD_DRAFT: LeadDraft = { enabled: false, headline: "", privacyPolicyUrl: "", fields: ["fullName", "email"], callToAction: "SIGN_UP" };

/** The submission's leadForm: null unless the step is on. */
export const leadFormBody = (draft: LeadDraft) =>
  draft.enabled ? { headline: draft.headline.trim(), privacyPolicyUrl: draft.privacyPolicyUrl.trim(), fields: draft.fields, callToAction: draft.callToAction } : null;

interface Props {
  strings: LeadSetupStrings;
  draft: LeadDraft;
  onChange: (draft: LeadDraft) => void;
  /** The server's words by field (headline, privacyPolicyUrl, fields, callToAction). */
  problems: Record<string, string>;
}

export function CollectLeads({ strings, draft, onChange, problems }: Props) {
  const id = useId();
  const set = (change: Partial<LeadDraft>) => onChange({ ...draft, ...change });
  const described = (field: string) => (problems[field] ? { "aria-invalid": true as const, "aria-describedby": `${id}-${field}-error` } : {});
  const problem = (field: string) =>
    problems[field] ? (
      <p className="hub-error" id={`${id}-${field}-error`}>
        {problems[field]}
      </p>
    ) : null;
  return (
    <fieldset className="hub-field lead-setup">
      <legend>{strings.collect}</legend>
      <label className="hub-check">
        <input type="checkbox" checked={draft.enabled} onChange={(event) => set({ enabled: event.currentTarget.checked })} />
        {strings.collect}
      </label>
      <p className="promote-hint">{strings.collectHint}</p>
      {draft.enabled && (
        <>
          <label htmlFor={`${id}-headline`}>{strings.headline}</label>
          <input id={`${id}-headline`} maxLength={LEAD_LIMITS.headline} value={draft.headline} onChange={(event) => set({ headline: event.currentTarget.value })} {...described("headline")} />
          {problem("headline")}
          <label htmlFor={`${id}-privacy`}>{strings.privacyPolicyUrl}</label>
          <input
            id={`${id}-privacy`}
            type="url"
            inputMode="url"
            dir="ltr"
            maxLength={LEAD_LIMITS.privacyPolicyUrl}
            value={draft.privacyPolicyUrl}
            onChange={(event) => set({ privacyPolicyUrl: event.currentTarget.value })}
            {...described("privacyPolicyUrl")}
          />
          {problem("privacyPolicyUrl")}
          <fieldset {...(problems["fields"] ? { "aria-describedby": `${id}-fields-error` } : {})}>
            <legend>{strings.fieldsLegend}</legend>
            {LEAD_FIELDS.map((field) => (
              <label key={field} className="hub-check">
                <input
                  type="checkbox"
                  checked={draft.fields.includes(field)}
                  onChange={(event) => set({ fields: event.currentTarget.checked ? LEAD_FIELDS.filter((name) => name === field || draft.fields.includes(name)) : draft.fields.filter((name) => name !== field) })}
                />
                {strings.fields[field]}
              </label>
            ))}
          </fieldset>
          {problem("fields")}
          <label htmlFor={`${id}-cta`}>{strings.callToAction}</label>
          <select id={`${id}-cta`} value={draft.callToAction} onChange={(event) => set({ callToAction: event.currentTarget.value as CallToAction })}>
            {CALLS_TO_ACTION.map((cta) => (
              <option key={cta} value={cta}>
                {strings.cta[cta]}
              </option>
            ))}
          </select>
        </>
      )}
    </fieldset>
  );
}
