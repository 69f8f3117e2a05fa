// The eligible ads for one feed request. What does not depend on the viewer (the inventory:
// ACTIVE ads, approved, of ACTIVE ad groups of ACTIVE campaigns inside their start and end,
// promoting a pin anyone may open in a shared feed (the feedPin rule of src/visibility/), with
// the campaign's spend today for pacing and what relevance needs: the pin's words and
// interests, the ad group's targeting and keywords) is ONE indexed query (campaigns_running,
// then ads_campaign) kept in this isolate for a few seconds, so a busy feed reads it a few
// times a minute instead of once per request. What does depend on the viewer (a block either
// way with the advertiser's profile or the pin's pinner, the interests they follow) is read
// per request, and only when the inventory holds an ad. Which ads a page shows is decided by
// placement.ts.
import { GRID_CELL_COLUMNS, GRID_IMAGE_JOINS, gridPin, type GridCellRow, type GridPin } from "~/pins/pins.server.ts";
import { visibleSql } from "~/visibility/visibility.server.ts";
import type { CallToAction } from "~/leads/lead-form.ts";
import { utcDay, type AdCandidate, type CampaignGoal, type Interest, type KeywordMatch, type Targeting } from "./placement.ts";

/** Most running campaigns and ads one request looks at: bounded whatever is booked. */
const MAX_CAMPAIGNS = 200;
const MAX_ADS = 60;

const VISIBLE = visibleSql("feedPin", { pin: "p", board: "b", pinner: "pu" }, null);

const INVENTORY_SQL = `
  WITH run AS (
    SELECT c.id, c.goal, c.daily_budget_micro FROM campaigns c
    WHERE c.status = 'ACTIVE' AND c.start_at <= ?1 AND (c.end_at IS NULL OR c.end_at > ?1)
    LIMIT ${MAX_CAMPAIGNS}
  ),
  spent(campaign_id, micro) AS (
    SELECT campaign_id, SUM(spend_micro) FROM ad_spend_daily WHERE day = ?2 AND campaign_id IN (SELECT id FROM run) GROUP BY campaign_id
  )
  SELECT a.id AS ad_id, a.campaign_id, a.ad_account_id, biz.profile_id AS advertiser_profile_id, p.pinner_id, a.destination_url, run.goal, run.daily_budget_micro,
    COALESCE(spent.micro, 0) AS spent_micro, g.targeting, biz.name AS advertiser_name,
    p.title AS pin_title, p.description AS pin_description, p.category AS pin_category,
    (SELECT json_group_array(json_array(x.id, x.key, x.name)) FROM
      (SELECT i.id, i.key, i.name FROM pin_interests pi JOIN interests i ON i.id = pi.interest_id WHERE pi.pin_id = p.id LIMIT 10) x) AS pin_interests,
    (SELECT json_group_array(json_array(k.text, k.match_type)) FROM
      (SELECT text, match_type FROM keywords WHERE ad_group_id = g.id AND status = 'ACTIVE' LIMIT 50) k) AS keywords,
    (SELECT call_to_action FROM lead_forms WHERE ad_id = a.id) AS lead_form_cta,
    ${GRID_CELL_COLUMNS}
  FROM run
  JOIN ads a ON a.campaign_id = run.id
  JOIN ad_groups g ON g.id = a.ad_group_id
  JOIN ad_accounts acc ON acc.id = a.ad_account_id
  JOIN businesses biz ON biz.id = acc.business_id
  CROSS JOIN pins p ON p.id = a.pin_id
  LEFT JOIN boards b ON b.id = p.board_id
  JOIN users pu ON pu.id = p.pinner_id
  ${GRID_IMAGE_JOINS}
  LEFT JOIN spent ON spent.campaign_id = run.id
  WHERE a.status = 'ACTIVE' AND a.review_status = 'APPROVED' AND g.status = 'ACTIVE' AND a.pin_id IS NOT NULL
    AND ${VISIBLE}
  ORDER BY a.id
  LIMIT ${MAX_ADS}`;

interface EligibleRow extends GridCellRow {
  ad_id: number;
  campaign_id: number;
  ad_account_id: number;
  advertiser_profile_id: number | null;
  pinner_id: number;
  destination_url: string;
  goal: CampaignGoal;
  daily_budget_micro: number;
  spent_micro: number;
  targeting: string;
  advertiser_name: string;
  pin_title: string;
  pin_description: string;
  pin_category: string | null;
  pin_interests: string;
  keywords: string;
  lead_form_cta: CallToAction | null;
}

/** An eligible ad with what its cell shows. */
interface EligibleAd {
  candidate: AdCandidate;
  pin: GridPin;
  advertiserName: string;
  destinationUrl: string;
  /** The button of the ad's lead form, or null when it has none. */
  leadFormCta: CallToAction | null;
  /** The accounts a block with the viewer keeps this ad away: the advertiser's profile, the pin's pinner. */
  parties: number[];
}

export interface EligibleAds {
  ads: EligibleAd[];
  /** The viewer's followed interests (the home feed's relevance). */
  followedInterests: Interest[];
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === "string").slice(0, 50) : []);

/** The ad group's targeting JSON, read leniently: anything unreadable is auto-targeting with no constraint. */
function parseTargeting(text: string): Targeting {
  try {
    const value = JSON.parse(text) as Record<string, unknown>;
    if (typeof value !== "object" || value === null) return { auto: true, interests: [], locales: [] };
    return { auto: value["auto"] !== false, interests: strings(value["interests"]), locales: strings(value["locales"]) };
  } catch {
    return { auto: true, interests: [], locales: [] };
  }
}

function interestsOf(text: string | null): Interest[] {
  const rows = JSON.parse(text ?? "[]") as Array<[number, string, string]>;
  return rows.map(([id, key, name]) => ({ id, key, name }));
}

/**
 * How long this isolate answers the inventory from memory by default: pacing and a pause or an
 * end take effect within it (spend itself never passes the daily budget: counting caps it). A
 * deploy may set AD_INVENTORY_TTL_MS ("0": read on every request).
 */
const INVENTORY_TTL_MS = 10_000;

/** The deploy's inventory lifetime in ms. */
export function inventoryTtlMs(env: { AD_INVENTORY_TTL_MS?: string | undefined }): number {
  const value = Number(env.AD_INVENTORY_TTL_MS ?? INVENTORY_TTL_MS);
  return Number.isFinite(value) && value >= 0 ? Math.min(value, 60_000) : INVENTORY_TTL_MS;
}

/** This isolate's one inventory (MAX_ADS ads at most), of one UTC day (the spend it holds is that day's). */
let held: { day: string; storedAt: number; ads: Promise<EligibleAd[]> } | null = null;

async function readInventory(db: D1Database, now: number): Promise<EligibleAd[]> {
  const { results } = await db.prepare(INVENTORY_SQL).bind(now, utcDay(now)).all<EligibleRow>();
  return results.map((row): EligibleAd => ({
    candidate: {
      adId: row.ad_id,
      campaignId: row.campaign_id,
      adAccountId: row.ad_account_id,
      pinId: row.id,
      goal: row.goal,
      dailyBudgetMicro: row.daily_budget_micro,
      spentTodayMicro: row.spent_micro,
      targeting: parseTargeting(row.targeting),
      pinText: [row.pin_title, row.pin_description, row.pin_category ?? ""].join(" "),
      category: row.pin_category,
      pinInterests: interestsOf(row.pin_interests),
      keywords: (JSON.parse(row.keywords ?? "[]") as Array<[string, KeywordMatch]>).map(([text, matchType]) => ({ text, matchType })),
    },
    pin: gridPin(row),
    advertiserName: row.advertiser_name,
    destinationUrl: row.destination_url,
    leadFormCta: row.lead_form_cta,
    parties: row.advertiser_profile_id === null ? [row.pinner_id] : [row.advertiser_profile_id, row.pinner_id],
  }));
}

/** The inventory at `now`: this isolate's copy while it is fresh, else one read shared by the requests that wait for it. */
function inventory(db: D1Database, now: number, ttlMs: number): Promise<EligibleAd[]> {
  const day = utcDay(now);
  if (held !== null && held.day === day && now - held.storedAt < ttlMs && now >= held.storedAt) return held.ads;
  const entry = { day, storedAt: now, ads: readInventory(db, now) };
  held = ttlMs > 0 ? entry : null;
  // A failed read is not kept: the next request reads again.
  void entry.ads.catch(() => {
    if (held === entry) held = null;
  });
  return entry.ads;
}

/** Forgets this isolate's inventory: a campaign changed here shows in its feeds at once (other isolates within the lifetime). */
export function forgetInventory(): void {
  held = null;
}

/** The viewer's blocks with the inventory's parties, and (for the home feed) the interests they follow. */
const VIEWER_SQL = `
  SELECT
    (SELECT json_group_array(x.id) FROM (
      SELECT blocked_id AS id FROM blocks WHERE blocker_id = ?1 AND blocked_id IN (SELECT value FROM json_each(?2))
      UNION SELECT blocker_id FROM blocks WHERE blocked_id = ?1 AND blocker_id IN (SELECT value FROM json_each(?2))) x) AS blocked,
    CASE WHEN ?3 = 1 THEN (SELECT json_group_array(json_array(y.id, y.key, y.name)) FROM
      (SELECT i.id, i.key, i.name FROM follows f JOIN interests i ON i.id = f.target_id
       WHERE f.follower_id = ?1 AND f.target_type = 'interest' LIMIT 100) y) END AS interests`;

/** Who asks: a signed-in person (blocks and follows apply), or a signed-out visitor (neither exists). */
type AdViewer = { id: number; wantsInterests: boolean } | null;

/** The inventory at `now` (this isolate's copy while it is fresh). */
export function adInventory(db: D1Database, now: number, ttlMs = INVENTORY_TTL_MS): Promise<EligibleAd[]> {
  return inventory(db, now, ttlMs);
}

/** The viewer's read for these ads (blocks with their parties, follows when asked), for the caller's batch; null when there is nothing to read. */
export function viewerAdStatement(db: D1Database, viewer: { id: number; wantsInterests: boolean }, ads: readonly EligibleAd[]): D1PreparedStatement | null {
  if (ads.length === 0) return null;
  const parties = [...new Set(ads.flatMap((ad) => ad.parties))];
  return db.prepare(VIEWER_SQL).bind(viewer.id, JSON.stringify(parties), viewer.wantsInterests ? 1 : 0);
}

/** The ads the viewer may be shown, given what their read answered (nothing read: nothing to drop). */
export function viewerAds(ads: EligibleAd[], row: unknown): EligibleAds {
  const facts = (row ?? null) as { blocked: string; interests: string | null } | null;
  const blocked = new Set(JSON.parse(facts?.blocked ?? "[]") as number[]);
  return {
    ads: blocked.size === 0 ? ads : ads.filter((ad) => !ad.parties.some((party) => blocked.has(party))),
    followedInterests: interestsOf(facts?.interests ?? null),
  };
}

/** The ads this viewer may be shown, and their followed interests (the home feed's relevance), with a read of their own. */
export async function eligibleAds(db: D1Database, viewer: AdViewer, now: number, ttlMs = INVENTORY_TTL_MS): Promise<EligibleAds> {
  const ads = await inventory(db, now, ttlMs);
  const statement = viewer === null ? null : viewerAdStatement(db, viewer, ads);
  if (statement === null) return { ads, followedInterests: [] };
  return viewerAds(ads, await statement.first());
}

/** What the related feed's relevance needs of the close-up's pin: its category and interests; null when it is no pin a stranger may see in a feed. */
export async function relatedFeedOf(db: D1Database, pinId: string): Promise<{ category: string | null; interestIds: number[] } | null> {
  const row = await db
    .prepare(
      `SELECT p.category, (SELECT json_group_array(x.interest_id) FROM (SELECT interest_id FROM pin_interests WHERE pin_id = p.id LIMIT 20) x) AS interests
       FROM pins p LEFT JOIN boards b ON b.id = p.board_id JOIN users pu ON pu.id = p.pinner_id
       WHERE p.id = ?1 AND ${VISIBLE}`,
    )
    .bind(pinId)
    .first<{ category: string | null; interests: string }>();
  return row ? { category: row.category, interestIds: JSON.parse(row.interests) as number[] } : null;
}
