// Cloudflare Turnstile, the human check (spec 000 §7 "PUT /v3/sessions/verify/", the sign-up
// recaptcha_v3_token). Server-side validation is Siteverify: POST the widget's token with
// our secret and the visitor's address; Cloudflare answers whether it passed, once per token.
// https://developers.cloudflare.com/turnstile/get-started/server-side-validation/
// On only when TURNSTILE_SECRET_KEY is set; tests point it at a fake that speaks Siteverify.
import { z } from "zod";
import { providerJson, providerNotAvailable, providerRefused, providerUnreachable } from "./provider-errors.ts";

const SITEVERIFY_URL = "https://challenges.cloudflare.com/turnstile/v0/siteverify";

const siteverifySchema = z.object({
  success: z.boolean(),
  "error-codes": z.array(z.string()).default([]),
  hostname: z.string().optional(),
  action: z.string().optional(),
  challenge_ts: z.string().optional(),
});

/** On when both keys are set: the secret for Siteverify, the site key for the page's widget. */
export const isTurnstileConfigured = (env: Env) => Boolean(env.TURNSTILE_SECRET_KEY && env.TURNSTILE_SITE_KEY);

/**
 * Throws unless Turnstile confirms `token` for this site: 503 when not configured, 502 when
 * Siteverify cannot be reached, 401 when it refuses the token (or it was made for another host).
 */
export async function verifyTurnstile(env: Env, token: string, remoteIp: string | null, expectedHostname: string): Promise<void> {
  const secret = env.TURNSTILE_SECRET_KEY;
  if (!secret) throw providerNotAvailable("turnstile");
  if (token.length === 0 || token.length > 2048) throw providerRefused("turnstile", "invalid-input-response");
  const form = new URLSearchParams({ secret, response: token, idempotency_key: crypto.randomUUID() });
  if (remoteIp) form.set("remoteip", remoteIp);
  const { json } = await providerJson("turnstile", SITEVERIFY_URL, { method: "POST", body: form });
  const parsed = siteverifySchema.safeParse(json);
  if (!parsed.success) throw providerUnreachable("turnstile", parsed.error);
  if (!parsed.data.success) throw providerRefused("turnstile", parsed.data["error-codes"][0] ?? "unknown");
  if (parsed.data.hostname !== undefined && parsed.data.hostname !== expectedHostname) throw providerRefused("turnstile", "hostname-mismatch");
}
