// The three ways an outside service can let a sign-in down, as refusals the API answers with
// code 18. Not set up here: 503 (the feature is off, e-mail sign-up and login still work).
// Unreachable or answering nonsense: 502. Reached, and it said no: 401.
import { DomainError } from "~/domain/errors.ts";

export type ProviderName = "turnstile" | "facebook" | "google";

/** How long a provider may take before we give up; a sign-in should not hang on it. */
const PROVIDER_TIMEOUT_MS = 5000;

export const providerNotAvailable = (provider: ProviderName) =>
  new DomainError("provider_unavailable", { message: `accounts:provider.${provider}.notAvailable`, extraData: { provider } });

export const providerUnreachable = (provider: ProviderName, cause: unknown) =>
  new DomainError("provider_unreachable", { message: `accounts:provider.${provider}.unreachable`, extraData: { provider }, cause });

export const providerRefused = (provider: ProviderName, reason: string) =>
  new DomainError("provider_refused", { message: `accounts:provider.${provider}.refused`, extraData: { provider, reason } });

/** GET or POST to a provider with a timeout; any network failure or non-JSON answer is a 502. */
export async function providerJson(provider: ProviderName, url: string, init: RequestInit = {}): Promise<{ status: number; json: unknown }> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS) });
  } catch (error) {
    throw providerUnreachable(provider, error);
  }
  const text = await response.text();
  try {
    return { status: response.status, json: JSON.parse(text) as unknown };
  } catch (error) {
    throw providerUnreachable(provider, new Error(`${provider} answered ${response.status} with non-JSON`, { cause: error }));
  }
}
