// The ad account a conversions call or page acts on, asked the same way by the API's hub side and
// the uploads: the viewer's role in the business first, so a stranger learns nothing (404).
import { requireAction } from "~/business/core.server.ts";
import type { BusinessAction } from "~/business/roles.ts";
import { notFound } from "~/domain/errors.ts";

export interface ConversionsAccount {
  id: number;
  businessId: number;
}

/** The ad account, when the viewer's role in its business allows `action`. */
export async function accountFor(db: D1Database, userId: number, businessId: number, adAccountId: number, action: BusinessAction): Promise<ConversionsAccount> {
  await requireAction(db, businessId, userId, action);
  const row = await db.prepare("SELECT id FROM ad_accounts WHERE id = ?1 AND business_id = ?2").bind(adAccountId, businessId).first<{ id: number }>();
  if (!row) throw notFound("business:api.adAccountNotFound");
  return { id: row.id, businessId };
}
