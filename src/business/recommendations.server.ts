// An ad account's recommendations, computed on each read from its own data: no valid billing
// profile → ADD_BILLING; no conversion tag owned or shared → INSTALL_TAG; no running campaign →
// CREATE_CAMPAIGN; a running campaign under the country's minimum daily budget (spec 002 §9) →
// RAISE_BUDGET. What people answered is kept per account and kind; an answered recommendation
// whose condition no longer holds is INVALID.
import { conflict, isDomainError, notFound } from "~/domain/errors.ts";
import { adAccountBusiness, getAdAccount } from "./business.server.ts";
import { actorMay, historyRow, requireAction, seconds } from "./core.server.ts";
import { minimumDailyBudget } from "./marketing-plan.ts";
import { effectiveState, mayMove, RECOMMENDATION_KINDS, snoozedUntil, DEFAULT_SNOOZE_DAYS, type NotificationState, type PersonState, type Recommendation, type RecommendationKind } from "./recommendations.ts";
import type { BusinessAction } from "./roles.ts";

const MICRO = 1_000_000;

/** The ad account's business, if the viewer may take `action` there; else the account does not exist for them. */
export async function accountFor(db: D1Database, userId: number, adAccountId: number, action: BusinessAction): Promise<{ businessId: number; country: string; currency: string }> {
  const businessId = await adAccountBusiness(db, adAccountId);
  if (businessId === null) throw notFound("business:api.adAccountNotFound");
  try {
    await requireAction(db, businessId, userId, "recommendation.read");
  } catch (error) {
    if (isDomainError(error, "not_found")) throw notFound("business:api.adAccountNotFound");
    throw error;
  }
  await requireAction(db, businessId, userId, action);
  const account = await getAdAccount(db, userId, businessId, adAccountId);
  return { businessId, country: account.country, currency: account.currency };
}

interface Computed {
  applies: Map<RecommendationKind, Record<string, string | number>>;
  stored: Map<RecommendationKind, { state: NotificationState; snoozed_until: number | null; updated_at: number }>;
}

async function compute(db: D1Database, adAccountId: number, country: string, currency: string, now: number): Promise<Computed> {
  const minimum = minimumDailyBudget(country);
  const [facts, stored] = await db.batch<Record<string, unknown>>([
    db
      .prepare(
        `SELECT
           EXISTS (SELECT 1 FROM billing_profiles WHERE ad_account_id = ?1 AND status = 'VALID') AS billing,
           EXISTS (SELECT 1 FROM conversion_tags WHERE ad_account_id = ?1) OR EXISTS (SELECT 1 FROM conversion_tag_shares WHERE ad_account_id = ?1) AS tag,
           (SELECT COUNT(*) FROM campaigns WHERE ad_account_id = ?1 AND status = 'ACTIVE' AND (end_at IS NULL OR end_at > ?2)) AS running,
           (SELECT COUNT(*) FROM campaigns WHERE ad_account_id = ?1 AND status = 'ACTIVE' AND (end_at IS NULL OR end_at > ?2) AND daily_budget_micro < ?3) AS low`,
      )
      .bind(adAccountId, now, minimum * MICRO),
    db.prepare("SELECT kind, state, snoozed_until, updated_at FROM advertiser_recommendations WHERE ad_account_id = ?1").bind(adAccountId),
  ]);
  const row = facts!.results[0]!;
  const applies = new Map<RecommendationKind, Record<string, string | number>>();
  if (Number(row["billing"]) === 0) applies.set("ADD_BILLING", {});
  if (Number(row["tag"]) === 0) applies.set("INSTALL_TAG", {});
  if (Number(row["running"]) === 0) applies.set("CREATE_CAMPAIGN", {});
  if (Number(row["low"]) > 0) applies.set("RAISE_BUDGET", { campaigns: Number(row["low"]), minimum, currency });
  return {
    applies,
    stored: new Map(stored!.results.map((entry) => [entry["kind"] as RecommendationKind, { state: entry["state"] as NotificationState, snoozed_until: (entry["snoozed_until"] as number | null) ?? null, updated_at: Number(entry["updated_at"]) }])),
  };
}

function listOf(adAccountId: number, { applies, stored }: Computed, now: number): Recommendation[] {
  return RECOMMENDATION_KINDS.flatMap((kind) => {
    const kept = stored.get(kind);
    const details = applies.get(kind);
    if (!details && !kept) return [];
    const state: NotificationState = !details ? "INVALID" : kept ? effectiveState(kept.state, kept.snoozed_until, now) : "UNREAD";
    return [
      {
        id: `${adAccountId}_${kind}`,
        type: "RECOMMENDATIONS" as const,
        kind,
        state,
        recipient_id: String(adAccountId),
        recipient_type: "ADVERTISER" as const,
        details: details ?? {},
        snoozed_until: state === "SNOOZED" && kept?.snoozed_until ? seconds(kept.snoozed_until) : null,
        updated_time: kept ? seconds(kept.updated_at) : null,
      },
    ];
  });
}

export async function listRecommendations(db: D1Database, userId: number, adAccountId: number, now = Date.now()): Promise<Recommendation[]> {
  const account = await accountFor(db, userId, adAccountId, "recommendation.read");
  return listOf(adAccountId, await compute(db, adAccountId, account.country, account.currency, now), now);
}

/** A person's answer to one recommendation; a move the transition table refuses is a 409. */
export async function answerRecommendation(db: D1Database, userId: number, adAccountId: number, kind: RecommendationKind, input: { state: PersonState; snooze_days?: number | undefined }, now = Date.now()): Promise<Recommendation> {
  const account = await accountFor(db, userId, adAccountId, "recommendation.update");
  const computed = await compute(db, adAccountId, account.country, account.currency, now);
  const current = listOf(adAccountId, computed, now).find((item) => item.kind === kind);
  if (!current) throw notFound("business:recommendations.notFound");
  if (!mayMove(current.state, input.state)) throw conflict("business:recommendations.cannotMove", { from: current.state, to: input.state });
  const storedState = computed.stored.get(kind)?.state ?? null;
  const until = input.state === "SNOOZED" ? snoozedUntil(now, input.snooze_days ?? DEFAULT_SNOOZE_DAYS) : null;
  const [write] = await db.batch([
    db
      .prepare(
        `INSERT INTO advertiser_recommendations (ad_account_id, kind, state, snoozed_until, updated_by, updated_at)
         SELECT ?3, ?4, ?5, ?6, ?2, ?7 WHERE ${actorMay("recommendation.update")}
         ON CONFLICT (ad_account_id, kind) DO UPDATE SET state = excluded.state, snoozed_until = excluded.snoozed_until, updated_by = excluded.updated_by, updated_at = excluded.updated_at
         WHERE advertiser_recommendations.state IS ?8`,
      )
      .bind(account.businessId, userId, adAccountId, kind, input.state, until, now, storedState),
    historyRow(db, account.businessId, userId, "RECOMMENDATION_UPDATED", "AD_ACCOUNT", adAccountId, { kind, from: current.state, to: input.state }, now, "changes() = 1"),
  ]);
  if (write!.meta.changes === 0) {
    // The role was taken meanwhile, or someone else answered first.
    await requireAction(db, account.businessId, userId, "recommendation.update");
    throw conflict("business:recommendations.changedMeanwhile");
  }
  return (await listRecommendations(db, userId, adAccountId, now)).find((item) => item.kind === kind)!;
}
