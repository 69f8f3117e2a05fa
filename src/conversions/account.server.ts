// The ad account a conversions call or page acts on, asked the same way by the API's hub side and
// the uploads: the role held on that ad account decides (an asset role, else the business role;
// a partner's through its role on the account), and a stranger learns nothing (404).
import { requireAssetAction } from "~/business/core.server.ts";
import type { BusinessAction } from "~/business/roles.ts";
import { notFound } from "~/domain/errors.ts";

export interface ConversionsAccount {
  id: number;
  businessId: number;
}

/** The ad account, when the role held on it allows `action`. */
export async function accountFor(db: D1Database, userId: number, businessId: number, adAccountId: number, action: BusinessAction): Promise<ConversionsAccount> {
  await requireAssetAction(db, businessId, userId, action, { type: "AD_ACCOUNT", id: adAccountId });
  const row = await db.prepare("SELECT id FROM ad_accounts WHERE id = ?1 AND business_id = ?2").bind(adAccountId, businessId).first<{ id: number }>();
  if (!row) throw notFound("business:api.adAccountNotFound");
  return { id: row.id, businessId };
}

/** The same question again after a write that found itself refused: 403 or 404 as it now stands. */
export const recheckAccount = (db: D1Database, account: ConversionsAccount, userId: number, action: BusinessAction) =>
  requireAssetAction(db, account.businessId, userId, action, { type: "AD_ACCOUNT", id: account.id });
