// The lead form dialog's words, translated on the server (islands carry no translation tables);
// {{advertiser}}, {{minimum}} and {{maximum}} stay for the island to fill (fill, src/saves/strings.ts).
import type { TFunction } from "i18next";
import { CALLS_TO_ACTION, LEAD_FIELDS, type CallToAction, type LeadField } from "./lead-form.ts";

const KEPT = { advertiser: "{{advertiser}}", minimum: "{{minimum}}", maximum: "{{maximum}}" };

export interface LeadDialogStrings {
  cta: Record<CallToAction, string>;
  fields: Record<LeadField, string>;
  dialog: Record<"from" | "consent" | "privacy" | "prefilled" | "send" | "sending" | "loading" | "thanksTitle" | "thanks" | "already" | "close" | "failed" | "newTab", string>;
  /** leads:validation.* by key; leads:api.* the same. */
  validation: Record<string, string>;
  api: Record<string, string>;
}

export function leadDialogStrings(t: TFunction): LeadDialogStrings {
  return {
    cta: Object.fromEntries(CALLS_TO_ACTION.map((cta) => [cta, t(`leads:cta.${cta}`)])) as Record<CallToAction, string>,
    fields: Object.fromEntries(LEAD_FIELDS.map((field) => [field, t(`leads:fields.${field}`)])) as Record<LeadField, string>,
    dialog: t("leads:dialog", { returnObjects: true, ...KEPT }) as unknown as LeadDialogStrings["dialog"],
    validation: t("leads:validation", { returnObjects: true, ...KEPT }) as unknown as Record<string, string>,
    api: t("leads:api", { returnObjects: true }) as unknown as Record<string, string>,
  };
}

/** The "Collect leads" step of quick promote. */
export interface LeadSetupStrings {
  collect: string;
  collectHint: string;
  headline: string;
  privacyPolicyUrl: string;
  fieldsLegend: string;
  callToAction: string;
  fields: Record<LeadField, string>;
  cta: Record<CallToAction, string>;
}

export function leadSetupStrings(t: TFunction): LeadSetupStrings {
  return {
    collect: t("leads:setup.collect"),
    collectHint: t("leads:setup.collectHint"),
    headline: t("leads:setup.headline"),
    privacyPolicyUrl: t("leads:setup.privacyPolicyUrl"),
    fieldsLegend: t("leads:setup.fields"),
    callToAction: t("leads:setup.callToAction"),
    fields: Object.fromEntries(LEAD_FIELDS.map((field) => [field, t(`leads:fields.${field}`)])) as Record<LeadField, string>,
    cta: Object.fromEntries(CALLS_TO_ACTION.map((cta) => [cta, t(`leads:cta.${cta}`)])) as Record<CallToAction, string>,
  };
}
