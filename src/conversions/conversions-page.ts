// The door of the conversions pages (/advertiser/{adAccountId}/conversions-api/... and
// /advertiser/{adAccountId}/conversion-uploads/...): a signed-in viewer (anyone else goes to log in
// and comes back), the ad account's business as the viewer's role sees it, and the account when
// the role may read conversions; otherwise the page answers 404, as the API does.
import type { AstroGlobal } from "astro";
import { env } from "cloudflare:workers";
import { idOption } from "~/boards/options.ts";
import { adAccountBusiness, getAdAccount, getBusiness, type BusinessSummary } from "~/business/business.server.ts";
import { hubViewer } from "~/business/hub-page.ts";
import { requireAssetAction } from "~/business/core.server.ts";
import type { BusinessAction } from "~/business/roles.ts";
import { isDomainError } from "~/domain/errors.ts";

export interface ConversionsPage {
  userId: number;
  business: BusinessSummary;
  /** The account, with what the role held on it lets the viewer do there. */
  account: { id: string; name: string; currency: string; permissions: BusinessAction[] };
  /** The hub API's base for this account's conversion calls. */
  api: string;
}

export async function conversionsPage(astro: AstroGlobal): Promise<ConversionsPage | Response | null> {
  const viewer = hubViewer(astro);
  if (viewer instanceof Response) return viewer;
  const id = idOption.safeParse(astro.params["advertiserId"]);
  try {
    const businessId = id.success ? await adAccountBusiness(env.DB, id.data) : null;
    if (businessId !== null) {
      const { permissions } = await requireAssetAction(env.DB, businessId, viewer.userId, "conversions.read", { type: "AD_ACCOUNT", id: id.data! });
      const [business, account] = await Promise.all([getBusiness(env.DB, viewer.userId, businessId), getAdAccount(env.DB, viewer.userId, businessId, id.data!)]);
      return { userId: viewer.userId, business, account: { id: account.id, name: account.name, currency: account.currency, permissions }, api: `/v3/businesses/${business.id}/ad_accounts/${account.id}/conversions` };
    }
  } catch (error) {
    if (!isDomainError(error, "not_found") && !isDomainError(error, "forbidden")) throw error;
  }
  astro.response.status = 404;
  return null;
}

export const CONVERSIONS_TABS = ["api", "helper", "setup", "offline", "pca"] as const;
export type ConversionsTab = (typeof CONVERSIONS_TABS)[number];

/** A tab's page within the account's advertiser area. */
export function conversionsTabPath(adAccountId: string, tab: ConversionsTab): string {
  switch (tab) {
    case "api":
      return `/advertiser/${adAccountId}/conversions-api/`;
    case "helper":
    case "setup":
      return `/advertiser/${adAccountId}/conversions-api/${tab}/`;
    default:
      return `/advertiser/${adAccountId}/conversion-uploads/${tab}/`;
  }
}
