// The door of every bulk editing page (/advertiser/{adAccountId}/bulk/...): a signed-in viewer
// (anyone else goes to log in and comes back), the ad account's business as the viewer's role
// sees it (or, for a partner business's people, the client business they work in), and the
// account when the role held on it may use bulk editing; otherwise the page answers 404, as the
// API does, so an account id says nothing to a stranger.
import type { AstroGlobal } from "astro";
import { env } from "cloudflare:workers";
import { idOption } from "~/boards/options.ts";
import { adAccountBusiness, type BusinessSummary } from "~/business/business.server.ts";
import { hubStanding, type HubGuest } from "~/business/hub-access.server.ts";
import { requireAssetAction } from "~/business/core.server.ts";
import type { BusinessAction } from "~/business/roles.ts";
import { hubViewer } from "~/business/hub-page.ts";
import { isDomainError } from "~/domain/errors.ts";
import { bulkAccountSummary } from "./bulk.server.ts";

export interface BulkPage {
  userId: number;
  businessId: string;
  /** The business for a member; null for a guest, who gets `guest` instead. */
  business: BusinessSummary | null;
  guest: HubGuest | null;
  account: { id: string; name: string; country: string; currency: string };
  /** The account's own actions the viewer may take: the role held on the account decides them. */
  permissions: BusinessAction[];
  /** The API's base for this account's bulk calls. */
  api: string;
}

export async function bulkPage(astro: AstroGlobal): Promise<BulkPage | Response | null> {
  const viewer = hubViewer(astro);
  if (viewer instanceof Response) return viewer;
  const id = idOption.safeParse(astro.params["advertiserId"]);
  try {
    const businessId = id.success ? await adAccountBusiness(env.DB, id.data) : null;
    if (businessId !== null) {
      const standing = await hubStanding(env.DB, viewer.userId, businessId);
      const account = standing && (await bulkAccountSummary(env.DB, viewer.userId, businessId, id.data!));
      if (standing && account) {
        const { permissions } = await requireAssetAction(env.DB, businessId, viewer.userId, "bulk.read", { type: "AD_ACCOUNT", id: id.data! });
        return { userId: viewer.userId, businessId: String(businessId), ...standing, account, permissions, api: `/v3/businesses/${businessId}/ad_accounts/${account.id}/bulk` };
      }
    }
  } catch (error) {
    if (!isDomainError(error, "not_found") && !isDomainError(error, "forbidden")) throw error;
  }
  astro.response.status = 404;
  return null;
}

export const BULK_TABS = ["download", "upload", "history", "resources"] as const;
export type BulkTab = (typeof BULK_TABS)[number];

/** A tab's page within the account's advertiser area. */
export const bulkTabPath = (adAccountId: string, tab: BulkTab) => `/advertiser/${adAccountId}/bulk/${tab === "download" ? "" : `${tab}/`}`;
