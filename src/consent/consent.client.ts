// The browser's side of cookie consent. Signed-out pages are shared through the edge cache, so
// nothing in their HTML says what this visitor chose or whether their country asks: the
// first-party cookie says what they chose, and when there is none the server is asked once
// (GET /v3/cookie_consent/, which knows the request's country) and the answer kept for the
// tab's session. The banner, the settings form and the event logger all read it here.
import { cookieValue } from "~/context/cookies.ts";
import { apiFetch } from "~/runtime/fetch.ts";
import { AD_ID_COOKIE, CONSENT_COOKIE, CONSENT_MAX_AGE_S, allows, parseAdId, parseConsentCookie, type ConsentChoices, type ConsentState } from "./consent.ts";

const CONSENT_ENDPOINT = "/v3/cookie_consent/";
/** Dispatched on window with the new ConsentState as detail when the person chooses. */
export const CONSENT_EVENT = "pinloom:consent";
/** Whether this tab's country asks for consent, as the server said ("1" or "0"). */
const REQUIRED_KEY = "pinloom_consent_required";

interface ConsentAnswer {
  required: boolean;
  decided: boolean;
  allow_personalization_cookies: boolean;
  allow_analytic_cookies: boolean;
  allow_marketing_cookies: boolean;
}

function stateOf(answer: ConsentAnswer): ConsentState {
  return {
    required: answer.required,
    choices: answer.decided
      ? { personalization: answer.allow_personalization_cookies, analytics: answer.allow_analytic_cookies, marketing: answer.allow_marketing_cookies }
      : null,
  };
}

function session(): Pick<Storage, "getItem" | "setItem"> | null {
  try {
    return sessionStorage;
  } catch {
    return null;
  }
}

async function ask(): Promise<ConsentState> {
  try {
    const response = await apiFetch(CONSENT_ENDPOINT);
    const body = (await response.json()) as { data?: ConsentAnswer };
    if (!response.ok || !body.data) throw new Error(`consent ${response.status}`);
    const state = stateOf(body.data);
    session()?.setItem(REQUIRED_KEY, state.required ? "1" : "0");
    return state;
  } catch {
    // Unknown: ask the person, and run nothing optional until they answer.
    return { required: true, choices: null };
  }
}

function load(): Promise<ConsentState> {
  const choices = parseConsentCookie(cookieValue(document.cookie, CONSENT_COOKIE));
  const remembered = session()?.getItem(REQUIRED_KEY) ?? null;
  if (choices) return Promise.resolve({ required: remembered !== "0", choices });
  if (remembered !== null) return Promise.resolve({ required: remembered === "1", choices: null });
  return ask();
}

let current: Promise<ConsentState> | null = null;

/** This browser's consent, read once per page. */
export function readConsent(): Promise<ConsentState> {
  current ??= load();
  return current;
}

/** Saves the choices (account and cookie, on the server); tells the page's scripts. False on failure. */
export async function saveConsent(choices: ConsentChoices): Promise<boolean> {
  try {
    const response = await apiFetch(CONSENT_ENDPOINT, {
      method: "PUT",
      body: JSON.stringify({
        allow_personalization_cookies: choices.personalization,
        allow_analytic_cookies: choices.analytics,
        allow_marketing_cookies: choices.marketing,
      }),
    });
    const body = (await response.json().catch(() => ({}))) as { data?: ConsentAnswer };
    if (!response.ok || !body.data) return false;
    const state = stateOf(body.data);
    session()?.setItem(REQUIRED_KEY, state.required ? "1" : "0");
    current = Promise.resolve(state);
    dispatchEvent(new CustomEvent<ConsentState>(CONSENT_EVENT, { detail: state }));
    return true;
  } catch {
    return false;
  }
}

/**
 * Keeps the ad identifier an ad's landing URL carries (?epik=) when both analytics and
 * personalization may run; the server drops it when a choice no longer allows it.
 */
export function keepAdIdFromUrl(state: ConsentState, url: URL = new URL(location.href)): void {
  const adId = parseAdId(url.searchParams.get("epik"));
  if (adId === null || !allows(state, "analytics") || !allows(state, "personalization")) return;
  document.cookie = `${AD_ID_COOKIE}=${adId}; Path=/; Max-Age=${CONSENT_MAX_AGE_S}; Secure; SameSite=Lax`;
}
