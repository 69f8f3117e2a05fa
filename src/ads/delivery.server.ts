// The eligible ads for one feed request, in ONE indexed query (campaigns_running, then
// ads_campaign): ACTIVE ads, approved, of ACTIVE ad groups of ACTIVE campaigns inside their
// start and end, promoting a pin anyone may open in a shared feed (the feedPin rule of
// src/visibility/), whose advertiser's profile and pinner are in no block with the viewer; with
// the campaign's spend today for pacing and what relevance needs (the pin's words, interests,
// the ad group's targeting and keywords, and the viewer's followed interests). Which of them a
// page shows is decided by placement.ts.
import { GRID_CELL_COLUMNS, GRID_IMAGE_JOINS, gridPin, type GridCellRow, type GridPin } from "~/pins/pins.server.ts";
import { visibleSql } from "~/visibility/visibility.server.ts";
import type { CallToAction } from "~/leads/lead-form.ts";
import { utcDay, type AdCandidate, type CampaignGoal, type Interest, type KeywordMatch, type Targeting } from "./placement.ts";

/** Most running campaigns and ads one request looks at: bounded whatever is booked. */
const MAX_CAMPAIGNS = 200;
const MAX_ADS = 60;

const VISIBLE = visibleSql("feedPin", { pin: "p", board: "b", pinner: "pu" }, null);

const ELIGIBLE_SQL = `
  WITH run AS (
    SELECT c.id, c.goal, c.daily_budget_micro FROM campaigns c
    WHERE c.status = 'ACTIVE' AND c.start_at <= ?2 AND (c.end_at IS NULL OR c.end_at > ?2)
    LIMIT ${MAX_CAMPAIGNS}
  ),
  spent(campaign_id, micro) AS (
    SELECT campaign_id, SUM(spend_micro) FROM ad_spend_daily WHERE day = ?3 AND campaign_id IN (SELECT id FROM run) GROUP BY campaign_id
  )
  SELECT a.id AS ad_id, a.campaign_id, a.ad_account_id, a.destination_url, run.goal, run.daily_budget_micro,
    COALESCE(spent.micro, 0) AS spent_micro, g.targeting, biz.name AS advertiser_name,
    p.title AS pin_title, p.description AS pin_description, p.category AS pin_category,
    (SELECT json_group_array(json_array(x.id, x.key, x.name)) FROM
      (SELECT i.id, i.key, i.name FROM pin_interests pi JOIN interests i ON i.id = pi.interest_id WHERE pi.pin_id = p.id LIMIT 10) x) AS pin_interests,
    (SELECT json_group_array(json_array(k.text, k.match_type)) FROM
      (SELECT text, match_type FROM keywords WHERE ad_group_id = g.id AND status = 'ACTIVE' LIMIT 50) k) AS keywords,
    (SELECT json_group_array(json_array(y.id, y.key, y.name)) FROM
      (SELECT i.id, i.key, i.name FROM follows f JOIN interests i ON i.id = f.target_id
       WHERE f.follower_id = ?1 AND f.target_type = 'interest' LIMIT 100) y) AS viewer_interests,
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
    AND NOT EXISTS (SELECT 1 FROM blocks WHERE (blocker_id = ?1 AND blocked_id IN (biz.profile_id, p.pinner_id)) OR (blocked_id = ?1 AND blocker_id IN (biz.profile_id, p.pinner_id)))
  ORDER BY a.id
  LIMIT ${MAX_ADS}`;

interface EligibleRow extends GridCellRow {
  ad_id: number;
  campaign_id: number;
  ad_account_id: number;
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
  viewer_interests: string;
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

export async function eligibleAds(db: D1Database, viewerId: number, now: number): Promise<EligibleAds> {
  const { results } = await db.prepare(ELIGIBLE_SQL).bind(viewerId, now, utcDay(now)).all<EligibleRow>();
  const ads = results.map((row): EligibleAd => ({
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
  }));
  return { ads, followedInterests: results.length > 0 ? interestsOf(results[0]!.viewer_interests) : [] };
}
