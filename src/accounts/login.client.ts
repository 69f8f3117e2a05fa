// Login in the browser (spec 000 §3 "Login payload", §5 "Login trims the username or email",
// §7 handshakes): password handshake, then the MFA step when the account asks for it (HTTP
// 409, code 12, with a challenge token), then the session exchange.
import { ApiCallError, call, type Transport } from "~/api/api.client.ts";
import { exchange, type ExchangeResult } from "./session.client.ts";

const MFA_REQUIRED_CODE = 12;

export interface LoginInput {
  username_or_email: string;
  password: string;
  referrer?: string | undefined;
}

function loginBody(input: LoginInput): { username_or_email: string; password: string; referrer: string } {
  return { username_or_email: input.username_or_email.trim(), password: input.password, referrer: input.referrer ?? "" };
}

export type LoginResult =
  | { kind: "success"; session: ExchangeResult }
  | { kind: "mfa"; challenge: string; username_or_email: string }
  | { kind: "error"; code: number | null; httpStatus: number | null; message: string | null };

function failure(error: unknown): LoginResult {
  if (error instanceof ApiCallError) return { kind: "error", code: error.code, httpStatus: error.httpStatus, message: error.message };
  return { kind: "error", code: null, httpStatus: null, message: null };
}

async function finish(token: unknown, transport?: Transport): Promise<LoginResult> {
  if (typeof token !== "string" || token === "") return { kind: "error", code: null, httpStatus: 200, message: null };
  return { kind: "success", session: await exchange(token, false, transport) };
}

export async function logIn(input: LoginInput, transport?: Transport): Promise<LoginResult> {
  const body = loginBody(input);
  try {
    const data = await call<{ token?: unknown } | null>("/v3/login/handshake/", { method: "POST", body: { form: body }, handshake: true }, transport);
    return await finish(data?.token, transport);
  } catch (error) {
    if (error instanceof ApiCallError && error.code === MFA_REQUIRED_CODE && error.httpStatus === 409) {
      // The challenge rides in data.token; extra_data.token is read too.
      const challenge = (error.data as { token?: unknown } | null)?.token ?? error.extraData?.["token"];
      if (typeof challenge === "string" && challenge !== "") return { kind: "mfa", challenge, username_or_email: body.username_or_email };
    }
    return failure(error);
  }
}

/** Digits only, at most six: what a person types into the code field, cleaned. */
export const cleanOtp = (value: string) => value.replace(/\D/g, "").slice(0, 6);

export async function logInWithCode(step: { challenge: string; username_or_email: string; code: string }, transport?: Transport): Promise<LoginResult> {
  try {
    const data = await call<{ token?: unknown } | null>(
      "/v3/login/mfa/handshake/",
      { method: "POST", body: { form: { username_or_email: step.username_or_email, mfa_token: cleanOtp(step.code), token: step.challenge } }, handshake: true },
      transport,
    );
    return await finish(data?.token, transport);
  } catch (error) {
    return failure(error);
  }
}
