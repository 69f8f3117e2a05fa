// Sign-up in the browser (spec 000 §3 "Signup payload", §4 "Signup", §5, §8): the
// registration type the body implies, the form-encoded handshake with the install id, up to
// three retries when the network fails or an answer has no code, the age-restriction cookie,
// then the session exchange.
import { ApiCallError, NetworkError, call, newClientRequestId, type Transport } from "~/api/api.client.ts";
import { CLIENT_REQUEST_HEADER } from "~/runtime/headers.ts";
import { exchange, type ExchangeResult } from "./session.client.ts";

export const SIGNUP_RETRIES = 3;
const AGE_RESTRICTED_CODE = 13;
const CONFLICT_CODE = 6;
const AGE_COOKIE = "pinloom_age_restricted";
export const AGE_COOKIE_STRING = `${AGE_COOKIE}=1; Path=/; Max-Age=86400; Secure; SameSite=Lax`;
/** Spec §8, word for word: the account exists but no session could be started. */
export const NO_TOKEN_MESSAGE = "We were able to create your account, but there was a problem logging you in. Try refreshing the page to continue.";
const INSTALL_ID_KEY = "pinloom_install_id";

export type RegistrationType = "email" | "partner" | "facebook";

export interface SignupInput {
  email: string;
  username: string;
  password: string;
  first_name: string;
  last_name?: string | undefined;
  country: string;
  locale: string;
  referrer?: string | undefined;
  birthday?: string | undefined;
  gender?: string | undefined;
  custom_gender?: string | undefined;
  business_name?: string | undefined;
  invite_code?: string | undefined;
  facebook_id?: string | undefined;
  facebook_token?: string | undefined;
  recaptcha_v3_token?: string | undefined;
  visited_pages?: readonly string[] | undefined;
  utm_campaign?: string | undefined;
  user_behavior_data?: Record<string, unknown> | undefined;
}

const present = (value: string | undefined): value is string => value !== undefined && value.trim() !== "";

/** Spec §5: partner when business_name is given, facebook when facebook_id is, else email. */
export function registrationType(input: Pick<SignupInput, "business_name" | "facebook_id">): RegistrationType {
  if (present(input.business_name)) return "partner";
  if (present(input.facebook_id)) return "facebook";
  return "email";
}

const OPTIONAL = ["birthday", "gender", "custom_gender", "business_name", "invite_code", "facebook_id", "facebook_token", "recaptcha_v3_token", "utm_campaign"] as const;

/** The form body: required fields always, optional ones only when present; a business's first_name is its name. */
export function signupBody(input: SignupInput): Record<string, string> {
  const type = registrationType(input);
  const body: Record<string, string> = {
    email: input.email.trim(),
    username: input.username.trim(),
    password: input.password,
    first_name: type === "partner" ? input.business_name!.trim() : input.first_name.trim(),
    last_name: (input.last_name ?? "").trim(),
    country: input.country,
    locale: input.locale,
    referrer: input.referrer ?? "",
  };
  for (const name of OPTIONAL) {
    const value = input[name];
    if (present(value)) body[name] = value.trim();
  }
  if (input.visited_pages && input.visited_pages.length > 0) body["visited_pages"] = JSON.stringify(input.visited_pages.slice(0, 20));
  if (input.user_behavior_data && Object.keys(input.user_behavior_data).length > 0) body["user_behavior_data"] = JSON.stringify(input.user_behavior_data);
  return body;
}

/** Spec §8: network failures and answers without a code are retried; anything with a code is final. */
function isRetryable(error: unknown): boolean {
  if (error instanceof NetworkError) return true;
  return error instanceof ApiCallError && error.code === null;
}

/** Field problems from a 400's message_detail ("field: reason; field: reason"). */
export function fieldProblems(detail: string | null): Record<string, string> {
  const problems: Record<string, string> = {};
  if (!detail) return problems;
  for (const line of detail.split("; ").slice(0, 20)) {
    const index = line.indexOf(": ");
    if (index > 0) problems[line.slice(0, index)] ??= line.slice(index + 2);
  }
  return problems;
}

export type SignupResult =
  | { kind: "success"; session: ExchangeResult }
  | { kind: "ageRestricted"; message: string }
  | { kind: "conflict"; field: "email" | "username"; message: string }
  | { kind: "invalid"; fields: Record<string, string>; message: string }
  | { kind: "noToken"; message: string }
  | { kind: "failed"; error: unknown; message: string | null };

export interface SignupDeps {
  transport?: Transport;
  installId: string;
  setCookie: (cookie: string) => void;
  /** Where a final failure is reported (the console; spec §8 "log failure"). */
  logFailure?: (error: unknown, attempts: number) => void;
  sleep?: (ms: number) => Promise<void>;
}

const defaultLog = (error: unknown, attempts: number) => console.error(`Sign-up failed after ${attempts} attempts`, error);
const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The register handshake with retries; resolves with the one-time token (or null when none came back). */
async function handshake(input: SignupInput, deps: SignupDeps): Promise<string | null> {
  const type = registrationType(input);
  const sleep = deps.sleep ?? defaultSleep;
  // One sign-up, one id for all its tries: a try whose answer was lost made the account, and
  // the next one is answered from it instead of failing on the e-mail now taken.
  const clientRequestId = newClientRequestId();
  for (let attempt = 0; ; attempt++) {
    try {
      const data = await call<{ token?: unknown } | null>(
        `/v3/register/${type}/handshake/`,
        { method: "POST", body: { form: signupBody(input) }, headers: { "X-Pinloom-Install-Id": deps.installId, [CLIENT_REQUEST_HEADER]: clientRequestId }, handshake: true },
        deps.transport,
      );
      return typeof data?.token === "string" && data.token !== "" ? data.token : null;
    } catch (error) {
      if (!isRetryable(error) || attempt >= SIGNUP_RETRIES) throw Object.assign(error as object, { attempts: attempt + 1 });
      await sleep(250 * 2 ** attempt);
    }
  }
}

export async function signUp(input: SignupInput, deps: SignupDeps): Promise<SignupResult> {
  let token: string | null;
  try {
    token = await handshake(input, deps);
  } catch (error) {
    if (error instanceof ApiCallError && error.code === AGE_RESTRICTED_CODE) {
      deps.setCookie(AGE_COOKIE_STRING);
      return { kind: "ageRestricted", message: error.message };
    }
    if (error instanceof ApiCallError && error.code === CONFLICT_CODE) {
      const field = error.extraData?.["field"] === "username" ? "username" : "email";
      return { kind: "conflict", field, message: error.message };
    }
    if (error instanceof ApiCallError && error.httpStatus === 400) {
      return { kind: "invalid", fields: fieldProblems(error.detail), message: error.message };
    }
    if (isRetryable(error)) {
      (deps.logFailure ?? defaultLog)(error, (error as { attempts?: number }).attempts ?? SIGNUP_RETRIES + 1);
      return { kind: "failed", error, message: null };
    }
    return { kind: "failed", error, message: error instanceof ApiCallError ? error.message : null };
  }
  if (token === null) return { kind: "noToken", message: NO_TOKEN_MESSAGE };
  try {
    return { kind: "success", session: await exchange(token, true, deps.transport) };
  } catch {
    // The account exists; only the session failed to start.
    return { kind: "noToken", message: NO_TOKEN_MESSAGE };
  }
}

/** A stable id for this browser install (header X-Pinloom-Install-Id). */
export function installId(storage: Pick<Storage, "getItem" | "setItem"> | null, random: () => string = () => crypto.randomUUID()): string {
  const stored = storage?.getItem(INSTALL_ID_KEY);
  if (stored && /^[0-9a-f-]{36}$/i.test(stored)) return stored;
  const id = random();
  try {
    storage?.setItem(INSTALL_ID_KEY, id);
  } catch {
    // storage full or blocked: an id for this page is still valid
  }
  return id;
}
