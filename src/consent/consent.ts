// Cookie consent (spec 001 §3 User allow_*_cookies, §4 "Cookie consent", §6; spec 000 §3 each
// default false). Three choices per person; where the law asks for consent first (the
// countries below) nothing optional runs until the person chooses, and the stored ad
// identifier goes unless both analytics and personalization are allowed. Elsewhere a person's
// explicit choice is obeyed the same way, and before any choice the product runs as usual.
//
// Runs anywhere: the server reads the account or the cookie, the browser the cookie.
import { cookieValue } from "~/context/cookies.ts";
import { RUNTIME_EVENT_TYPES } from "~/runtime/report.ts";
import { EVENT_TYPE } from "~/events/logger.client.ts";

export interface ConsentChoices {
  personalization: boolean;
  analytics: boolean;
  marketing: boolean;
}
type ConsentKind = keyof ConsentChoices;

/**
 * Countries whose law asks for consent before optional cookies and tracking: the EEA (the EU's
 * 27 and Iceland, Liechtenstein, Norway), the United Kingdom, Switzerland and Brazil (LGPD).
 */
const CONSENT_COUNTRIES: ReadonlySet<string> = new Set([
  "AT", "BE", "BG", "HR", "CY", "CZ", "DK", "EE", "FI", "FR", "DE", "GR", "HU", "IE", "IT", "LV", "LT", "LU", "MT", "NL",
  "PL", "PT", "RO", "SK", "SI", "ES", "SE", "IS", "LI", "NO", "GB", "CH", "BR",
]);

export function consentRequired(country: string): boolean {
  return CONSENT_COUNTRIES.has(country.toUpperCase());
}

/** The first-party cookie that holds a browser's choices (before sign-up, and signed out). */
export const CONSENT_COOKIE = "pinloom_consent";
/** The stored ad identifier in the browser (the `epik` of an ad's landing URL). */
export const AD_ID_COOKIE = "pinloom_epik";
/** A year: the choice is asked again after it, as regulators expect. */
export const CONSENT_MAX_AGE_S = 365 * 24 * 60 * 60;

export const ALLOW_ALL: Readonly<ConsentChoices> = Object.freeze({ personalization: true, analytics: true, marketing: true });
export const REJECT_ALL: Readonly<ConsentChoices> = Object.freeze({ personalization: false, analytics: false, marketing: false });

/** "p1a0m1": personalization, analytics, marketing. */
export function formatConsentCookie(choices: ConsentChoices): string {
  return `p${Number(choices.personalization)}a${Number(choices.analytics)}m${Number(choices.marketing)}`;
}

export function parseConsentCookie(value: string | null | undefined): ConsentChoices | null {
  const match = /^p([01])a([01])m([01])$/.exec(value ?? "");
  if (!match) return null;
  return { personalization: match[1] === "1", analytics: match[2] === "1", marketing: match[3] === "1" };
}

/** What one request knows: whether its country needs consent, and the choices made (null: none yet). */
export interface ConsentState {
  required: boolean;
  choices: ConsentChoices | null;
}

/** An account's stored choice: the allow_* columns, counted only once the person chose. */
export interface AccountConsent {
  allow_personalization_cookies: number;
  allow_analytic_cookies: number;
  allow_marketing_cookies: number;
  cookie_consent_at: number | null;
}

export function accountChoices(account: AccountConsent): ConsentChoices | null {
  if (account.cookie_consent_at === null || account.cookie_consent_at === undefined) return null;
  return {
    personalization: account.allow_personalization_cookies === 1,
    analytics: account.allow_analytic_cookies === 1,
    marketing: account.allow_marketing_cookies === 1,
  };
}

/** A signed-in person's account decides; signed out, the browser's cookie. */
export function consentState(country: string, account: AccountConsent | null, cookie: string | null): ConsentState {
  return { required: consentRequired(country), choices: account ? accountChoices(account) : parseConsentCookie(cookie) };
}

/** Whether `kind` may run: the choice when one was made, else only where no consent is asked. */
export function allows(state: ConsentState, kind: ConsentKind): boolean {
  return state.choices ? state.choices[kind] : !state.required;
}

/** Whether the stored ad identifier may stay (spec 001 §4). */
export function keepsAdId(state: ConsentState): boolean {
  return !state.required || (state.choices !== null && state.choices.analytics && state.choices.personalization);
}

/** Whether the banner asks: consent is required here and no choice was made. */
export function asksConsent(state: ConsentState): boolean {
  return state.required && state.choices === null;
}

/**
 * Events that are not analytics: the runtime's own reports (a new version, a failed call, a
 * start-up error, a forced reload), which keep the product working, and feedback a person
 * writes and sends on purpose. Everything else (views, impressions, clicks, text usage)
 * needs analytics consent.
 */
const ESSENTIAL_EVENT_TYPES: ReadonlySet<number> = new Set([...Object.values(RUNTIME_EVENT_TYPES), EVENT_TYPE.PIN_BUILDER_FEEDBACK]);

export function isAnalyticsEvent(eventType: number): boolean {
  return !ESSENTIAL_EVENT_TYPES.has(eventType);
}

/** An ad identifier as an ad's landing URL carries it: short and plain, or nothing. */
export function parseAdId(value: string | null | undefined): string | null {
  return value && /^[A-Za-z0-9._-]{1,128}$/.test(value) ? value : null;
}

/**
 * What a browser's cookies say before it signs up or in: its choices (null: none yet) and the
 * ad identifier it holds, kept only where it may stay.
 */
export function browserConsent(cookieHeader: string | null, country: string): { state: ConsentState; adId: string | null } {
  const state = consentState(country, null, cookieValue(cookieHeader, CONSENT_COOKIE));
  const adId = parseAdId(cookieValue(cookieHeader, AD_ID_COOKIE));
  return { state, adId: keepsAdId(state) ? adId : null };
}
