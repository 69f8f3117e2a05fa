// The storefront's storage: a verified merchant's approved product pins, as the viewer may see
// them (the feedPin rule of src/visibility/), and each viewer's remembered viewing locale.
import { badRequest } from "~/domain/errors.ts";
import { GRID_COLUMNS, GRID_JOINS, VISIBLE_IN_FEEDS, gridPin, type GridCellRow, type GridPin } from "~/pins/pins.server.ts";
import { factColumns, holdsFor, visibleSql } from "~/visibility/visibility.server.ts";
import type { Locale } from "~/context/locales.ts";
import { seconds } from "~/business/core.server.ts";
import { isVerified, type ProgramStatus } from "./program.ts";
import type { ViewingLocale } from "./storefront.ts";

/** Products one storefront page lists. */
const STOREFRONT_SIZE = 50;

interface StorefrontItem extends GridPin {
  priceValue: number | null;
  priceCurrency: string | null;
}

export interface Storefront {
  merchant: { id: string; username: string; name: string; country: string; shippingPolicyUrl: string | null; returnPolicyUrl: string | null };
  items: StorefrontItem[];
  /** The viewer's remembered locale (chosen on any shop), or null (the page uses the request's). */
  locale: ViewingLocale | null;
}

interface MerchantRow extends Record<string, unknown> {
  id: number;
  username: string;
  full_name: string;
  business_name: string | null;
  business_id: number;
  country: string;
  program_status: ProgramStatus | null;
  shipping_policy_url: string | null;
  return_policy_url: string | null;
}

/**
 * A verified merchant's shop, or null when there is none to show: no such profile, one the viewer
 * may not see, or a merchant not in good standing (the page answers 404 for each).
 */
export async function getStorefront(db: D1Database, username: string, viewerId: number | null): Promise<Storefront | null> {
  const merchant = await db
    .prepare(
      `SELECT u.id, u.username, u.full_name, u.business_name, a.business_id, a.country, a.program_status, a.shipping_policy_url, a.return_policy_url,
              ${factColumns("profile", { user: "u" }, "?2")}
       FROM users u JOIN merchant_applications a ON a.profile_id = u.id
       WHERE u.username = ?1 AND ${visibleSql("profile", { user: "u" }, "?2")}`,
    )
    .bind(username, viewerId)
    .first<MerchantRow>();
  if (!merchant || !holdsFor("profile", merchant, viewerId) || !isVerified(merchant.program_status)) return null;
  const [items, locale] = await db.batch<Record<string, unknown>>([
    db
      .prepare(
        `SELECT ${GRID_COLUMNS}, p.price_value, p.price_currency FROM pins p ${GRID_JOINS}
         JOIN merchant_items mi ON mi.business_id = ?2 AND mi.pin_id = p.id AND mi.status = 'approved'
         WHERE p.pinner_id = ?1 AND p.kind = 'product' AND ${VISIBLE_IN_FEEDS}
         ORDER BY p.created_at DESC, p.id DESC LIMIT ${STOREFRONT_SIZE}`,
      )
      .bind(merchant.id, merchant.business_id),
    db.prepare("SELECT country, language, feed_profile_id, updated_at FROM storefront_locales WHERE user_id = ?1").bind(viewerId),
  ]);
  const chosen = locale!.results[0];
  return {
    merchant: {
      id: String(merchant.id),
      username: merchant.username,
      name: merchant.business_name?.trim() || merchant.full_name || merchant.username,
      country: merchant.country,
      shippingPolicyUrl: merchant.shipping_policy_url,
      returnPolicyUrl: merchant.return_policy_url,
    },
    items: items!.results.map((row) => ({
      ...gridPin(row as unknown as GridCellRow),
      priceValue: row["price_value"] === null ? null : Number(row["price_value"]),
      priceCurrency: (row["price_currency"] as string | null) ?? null,
    })),
    locale: chosen
      ? { country: String(chosen["country"]), language: chosen["language"] as Locale, feedProfileId: String(chosen["feed_profile_id"]), lastUpdated: seconds(Number(chosen["updated_at"])) }
      : null,
  };
}

/** The viewer's viewing locale for a verified merchant's shop they may see (one remembered per viewer). */
export async function setStorefrontLocale(db: D1Database, viewerId: number, input: { country: string; language: Locale; feedProfileId: string }, now = Date.now()): Promise<ViewingLocale> {
  const merchant = await db
    .prepare(
      `SELECT u.id, a.program_status, ${factColumns("profile", { user: "u" }, "?2")}
       FROM users u JOIN merchant_applications a ON a.profile_id = u.id WHERE u.id = ?1 AND ${visibleSql("profile", { user: "u" }, "?2")}`,
    )
    .bind(Number(input.feedProfileId), viewerId)
    .first<Record<string, unknown> & { program_status: ProgramStatus | null }>();
  if (!merchant || !holdsFor("profile", merchant, viewerId) || !isVerified(merchant.program_status)) throw badRequest([{ field: "feedProfileId", reason: "merchants:validation.feedProfile" }]);
  await db
    .prepare(
      `INSERT INTO storefront_locales (user_id, country, language, feed_profile_id, updated_at) VALUES (?1, ?2, ?3, ?4, ?5)
       ON CONFLICT (user_id) DO UPDATE SET country = excluded.country, language = excluded.language, feed_profile_id = excluded.feed_profile_id, updated_at = excluded.updated_at`,
    )
    .bind(viewerId, input.country, input.language, Number(input.feedProfileId), now)
    .run();
  return { country: input.country, language: input.language, feedProfileId: input.feedProfileId, lastUpdated: seconds(now) };
}
