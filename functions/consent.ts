// Cookie consent (spec 001 §4, §6): GET and PUT /v3/cookie_consent/. "Per person and per
// browser": a signed-in person's choice lives on the account, a visitor's in the first-party
// cookie, and every answer sets the cookie too, so the pages' script (which decides the banner
// on its own: signed-out pages are shared through the edge cache) reads the same thing.
import { Hono, type Context } from "hono";
import { success } from "~/server/answer.ts";
import { readFields } from "~/server/body.ts";
import type { AppEnv } from "~/server/context.ts";
import { badRequest, zodProblems } from "~/domain/errors.ts";
import { cookieValue } from "~/context/cookies.ts";
import { FORCE_COUNTRY_HEADER } from "~/runtime/headers.ts";
import { AD_ID_COOKIE, CONSENT_COOKIE, accountChoices, browserConsent, consentRequired, type AccountConsent, CONSENT_MAX_AGE_S, consentState, formatConsentCookie, keepsAdId, type ConsentState } from "~/consent/consent.ts";
import { choicesOfBody, consentBodySchema } from "~/consent/consent-body.ts";
import { adoptBrowserConsentStatement, saveAccountConsent, signupConsentStatement } from "~/consent/consent.server.ts";

export const consentRoutes = new Hono<AppEnv>();

/**
 * The request's consent: the account's when signed in, else the browser's cookie. A country
 * forced for testing (spec 000 §7 force_country, sent as a header) can only add the
 * requirement, never lift it: claiming another country never skips the question.
 */
export function requestConsent(c: Context<AppEnv>): ConsentState {
  const ctx = c.var.ctx;
  const state = consentState(ctx.country, ctx.session?.user ?? null, cookieValue(c.req.header("cookie") ?? null, CONSENT_COOKIE));
  const forced = c.req.header(FORCE_COUNTRY_HEADER)?.slice(0, 2) ?? "";
  return state.required || !consentRequired(forced) ? state : { ...state, required: true };
}

/** Readable by the page's script (it decides the banner), first-party, sent on same-site requests only. */
const consentCookie = (value: string, maxAge: number) => `${CONSENT_COOKIE}=${value}; Path=/; Max-Age=${maxAge}; Secure; SameSite=Lax`;
const dropAdIdCookie = () => `${AD_ID_COOKIE}=; Path=/; Max-Age=0; Secure; SameSite=Lax`;

function answer(state: ConsentState) {
  const choices = state.choices;
  return {
    required: state.required,
    decided: choices !== null,
    allow_personalization_cookies: choices?.personalization ?? false,
    allow_analytic_cookies: choices?.analytics ?? false,
    allow_marketing_cookies: choices?.marketing ?? false,
  };
}

consentRoutes.get("/cookie_consent/", (c) => {
  const state = requestConsent(c);
  // A signed-in person's browser learns the account's choice, so its next pages need not ask.
  const cookies = state.choices && c.var.ctx.session ? [consentCookie(formatConsentCookie(state.choices), CONSENT_MAX_AGE_S)] : [];
  return success(c, answer(state), cookies);
});

consentRoutes.put("/cookie_consent/", async (c) => {
  const input = await readFields(c);
  const parsed = consentBodySchema.safeParse(input);
  if (!parsed.success) throw badRequest(zodProblems(parsed.error, "", input));
  const choices = choicesOfBody(parsed.data);
  const state: ConsentState = { required: requestConsent(c).required, choices };
  const keep = keepsAdId(state);
  const session = c.var.ctx.session;
  if (session) await saveAccountConsent(c.env.DB, session.user.id, choices, keep);
  const cookies = [consentCookie(formatConsentCookie(choices), CONSENT_MAX_AGE_S)];
  if (!keep) cookies.push(dropAdIdCookie());
  return success(c, answer(state), cookies);
});

/**
 * The sign-up batch's consent statement: the new account takes what this browser chose before
 * (and its ad identifier where it may keep one). Empty when the browser chose nothing.
 */
export function signupConsent(c: Context<AppEnv>, userId: number): D1PreparedStatement[] {
  const { state, adId } = browserConsent(c.req.header("cookie") ?? null, c.var.ctx.country);
  const statement = signupConsentStatement(c.env.DB, userId, state.choices, adId);
  return statement ? [statement] : [];
}

/** The log-in batch's consent statement: an account that never chose adopts this browser's choice. */
export function loginConsent(c: Context<AppEnv>, userId: number): D1PreparedStatement[] {
  const { state } = browserConsent(c.req.header("cookie") ?? null, c.var.ctx.country);
  return state.choices ? [adoptBrowserConsentStatement(c.env.DB, userId, state.choices, keepsAdId(state))] : [];
}

/** After log-in the browser's cookie says what the account chose, so its pages obey the person. */
export function accountConsentCookies(account: AccountConsent): string[] {
  const choices = accountChoices(account);
  return choices ? [consentCookie(formatConsentCookie(choices), CONSENT_MAX_AGE_S)] : [];
}
