// Token refresh (spec 000 §4, §9 "Token refresh window 90 days"): a signed-in page whose
// session expires within 90 days (and more than 0) asks GET /refresh_token; at 0 days or
// fewer it refreshes the stored accounts instead (GET /refresh_stored_accounts). The days
// come from the embedded context (#pinloom-context, daysToExpiration).
import { call, type Transport } from "~/api/api.client.ts";
import { browserStorage, storeAccounts } from "./accounts-list.client.ts";

const REFRESH_WINDOW_DAYS = 90;

export type RefreshAction = "refresh_token" | "refresh_stored_accounts" | null;

export function refreshAction(signedIn: boolean, daysToExpiration: number | null | undefined): RefreshAction {
  if (!signedIn || typeof daysToExpiration !== "number" || Number.isNaN(daysToExpiration)) return null;
  if (daysToExpiration <= 0) return "refresh_stored_accounts";
  if (daysToExpiration <= REFRESH_WINDOW_DAYS) return "refresh_token";
  return null;
}

export interface EmbeddedContext {
  isAuthenticated?: boolean;
  loginState?: string;
  daysToExpiration?: number | null;
  viewer?: { id: string; username: string; full_name?: string; first_name?: string; image_medium_url?: string | null; nags?: string[] } | null;
  limitedViewer?: { firstName: string; imageUrl: string | null } | null;
}

/** The page's embedded context (Base.astro), or {} when the page has none or it does not parse. */
export function readEmbeddedContext(doc: Pick<Document, "getElementById"> | null = typeof document === "undefined" ? null : document): EmbeddedContext {
  const text = doc?.getElementById("pinloom-context")?.textContent;
  if (!text) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === "object" ? (parsed as EmbeddedContext) : {};
  } catch {
    return {};
  }
}

/** Runs the rule once for this page; resolves with what it did. Failures are quiet (metrics only). */
export async function refreshTokens(context: EmbeddedContext, transport?: Transport): Promise<RefreshAction> {
  const signedIn = context.loginState === "AUTH" || context.loginState === "LIMITED_LOGIN" || context.isAuthenticated === true;
  const action = refreshAction(signedIn, context.daysToExpiration);
  if (action === null) return null;
  try {
    if (action === "refresh_token") {
      await call("/refresh_token", { method: "GET" }, transport);
    } else {
      const data = await call<{ session_accounts?: unknown[] } | null>("/refresh_stored_accounts", { method: "GET" }, transport);
      storeAccounts(browserStorage(), Array.isArray(data?.session_accounts) ? data.session_accounts : [], context.viewer?.id ?? null);
    }
  } catch (error) {
    console.warn(`${action} failed`, error);
  }
  return action;
}
