// Where promoted pins go in a feed (docs/decisions.md, "Promoted pins in feeds"). Pure: the
// eligible ads come from one query (delivery.server.ts), and this module decides which of them
// fit this feed and this viewer, paces each campaign's budget through the day, and places at
// most one promoted pin in every PROMOTED_EVERY organic pins, never one ad or one pin twice.

/** At most one promoted pin in every this many organic pins: the first after this many. */
const PROMOTED_EVERY = 6;

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** Spec 002 §4 promotion goals. */
export type CampaignGoal = "CONSIDERATION" | "WEB_CONVERSION" | "CATALOG_SALES";

/**
 * What one counted event costs, in micro-units of the ad account's currency. Awareness
 * (CONSIDERATION) pays per thousand impressions, the goals that want a visit pay per click; the
 * other event of each goal is counted and free.
 */
export const PRICES: Record<CampaignGoal, { viewMicro: number; clickMicro: number }> = {
  CONSIDERATION: { viewMicro: 3_000, clickMicro: 0 },
  WEB_CONVERSION: { viewMicro: 0, clickMicro: 500_000 },
  CATALOG_SALES: { viewMicro: 0, clickMicro: 500_000 },
};

/** The UTC date of `now`, YYYY-MM-DD: a campaign's day and ad_spend_daily's `day`. */
export function utcDay(now: number): string {
  return new Date(now).toISOString().slice(0, 10);
}

/**
 * How much of the daily budget may be spent by `now`: the budget times the share of the UTC day
 * gone, but at least one hour's share, so a campaign can start serving at midnight.
 */
export function pacedBudgetMicro(dailyBudgetMicro: number, now: number): number {
  const elapsed = ((now % DAY_MS) + DAY_MS) % DAY_MS;
  return Math.floor((dailyBudgetMicro * Math.max(elapsed, HOUR_MS)) / DAY_MS);
}

/** A campaign at or over its paced budget is not served. */
export function withinPace(spentTodayMicro: number, dailyBudgetMicro: number, now: number): boolean {
  return spentTodayMicro < pacedBudgetMicro(dailyBudgetMicro, now) && spentTodayMicro < dailyBudgetMicro;
}

export interface Interest {
  id: number;
  key: string;
  name: string;
}

export type KeywordMatch = "BROAD" | "PHRASE" | "EXACT" | "NEGATIVE_PHRASE" | "NEGATIVE_EXACT";

/** An ad group's targeting JSON (migration 0033), as far as serving reads it. */
export interface Targeting {
  auto: boolean;
  /** Interest keys (or ids as text) the advertiser chose. */
  interests: string[];
  /** Locales (fr, en_US) or two-letter countries (FR) the ad is shown in; empty: everywhere. */
  locales: string[];
}

/** One eligible ad: a running, approved ad of an ACTIVE campaign whose pin the viewer may see. */
export interface AdCandidate {
  adId: number;
  campaignId: number;
  adAccountId: number;
  pinId: number;
  goal: CampaignGoal;
  dailyBudgetMicro: number;
  spentTodayMicro: number;
  targeting: Targeting;
  /** The pin's title, description and category, for matching a search. */
  pinText: string;
  category: string | null;
  pinInterests: Interest[];
  keywords: Array<{ text: string; matchType: KeywordMatch }>;
}

/** The feed asking, and what the viewer is known by. */
export type FeedContext = { locale: string; country: string } & (
  | { kind: "home"; followedInterests: Interest[] }
  | { kind: "search"; query: string }
  | { kind: "related"; category: string | null; interestIds: number[] }
);

/** Why a promoted pin was shown (spec 000 §3 adTargetingAttribution, spec 001 show_ad_reasons). */
export type AdReason = { kind: "INTEREST"; name: string } | { kind: "SEARCH_TERM"; term: string } | { kind: "LOCATION"; place: string } | { kind: "AUTO_TARGETING" };

/** Lowercased words of a text (letters and digits of any script). */
function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

const phraseIn = (phrase: string[], within: string[]) => phrase.length > 0 && within.some((_, start) => phrase.every((word, index) => within[start + index] === word));

/** Whether the search query matches the pin's own text (every query word starts a pin word) or one of the ad group's keywords; a negative keyword refuses. */
export function searchMatch(candidate: Pick<AdCandidate, "pinText" | "keywords">, query: string): boolean {
  const asked = words(query);
  if (asked.length === 0) return false;
  let keywordHit = false;
  for (const keyword of candidate.keywords) {
    const phrase = words(keyword.text);
    const exact = phrase.join(" ") === asked.join(" ");
    if (keyword.matchType === "NEGATIVE_EXACT" && exact) return false;
    if (keyword.matchType === "NEGATIVE_PHRASE" && phraseIn(phrase, asked)) return false;
    if (keyword.matchType === "EXACT" && exact) keywordHit = true;
    if (keyword.matchType === "PHRASE" && phraseIn(phrase, asked)) keywordHit = true;
    if (keyword.matchType === "BROAD" && phrase.length > 0 && phrase.every((word) => asked.includes(word))) keywordHit = true;
  }
  if (keywordHit) return true;
  const own = words(candidate.pinText);
  return asked.every((word) => own.some((candidateWord) => candidateWord.startsWith(word)));
}

const targetsInterest = (targeting: Targeting, interest: Interest) => targeting.interests.includes(interest.key) || targeting.interests.includes(String(interest.id));

/**
 * Why this ad fits this feed and viewer, or null when it does not. The location targeting, when
 * set, must hold; then search needs the query to match, related needs the same category or a
 * shared interest, and home needs an interest the viewer follows (in the pin or the targeting)
 * or auto-targeting.
 */
export function reasonsFor(candidate: AdCandidate, feed: FeedContext): AdReason[] | null {
  const reasons: AdReason[] = [];
  const places = candidate.targeting.locales;
  if (places.length > 0) {
    const place = places.find((entry) => entry === feed.locale || entry.toUpperCase() === feed.country.toUpperCase());
    if (place === undefined) return null;
    reasons.push({ kind: "LOCATION", place: feed.country });
  }
  if (feed.kind === "search") {
    if (!searchMatch(candidate, feed.query)) return null;
    return [{ kind: "SEARCH_TERM", term: feed.query.trim() }, ...reasons];
  }
  if (feed.kind === "related") {
    const shared = candidate.pinInterests.filter((interest) => feed.interestIds.includes(interest.id));
    const sameCategory = feed.category !== null && candidate.category === feed.category;
    if (shared.length === 0 && !sameCategory) return null;
    const named = shared.length > 0 ? shared.map((interest) => interest.name) : [feed.category!];
    return [...named.slice(0, 2).map((name): AdReason => ({ kind: "INTEREST", name })), ...reasons];
  }
  const followed = feed.followedInterests.filter((interest) => candidate.pinInterests.some((own) => own.id === interest.id) || targetsInterest(candidate.targeting, interest));
  if (followed.length > 0) return [...followed.slice(0, 2).map((interest): AdReason => ({ kind: "INTEREST", name: interest.name })), ...reasons];
  if (candidate.targeting.auto) return [{ kind: "AUTO_TARGETING" }, ...reasons];
  return null;
}

/** A relevance order: a search term or interest weighs more than auto-targeting alone. */
const weight = (reasons: AdReason[]) => reasons.reduce((sum, reason) => sum + (reason.kind === "AUTO_TARGETING" ? 1 : reason.kind === "LOCATION" ? 1 : 3), 0);

interface ChosenAd {
  candidate: AdCandidate;
  reasons: AdReason[];
}

/**
 * The ads this page may show, best first: fitting the feed, within pace, none already shown in
 * this feed session, no pin the organic page holds, one ad per campaign (so one campaign does
 * not take every slot), at most `slots`.
 */
export function chooseAds(candidates: readonly AdCandidate[], feed: FeedContext, options: { now: number; shownAdIds: ReadonlySet<number>; organicPinIds: ReadonlySet<number>; slots: number }): ChosenAd[] {
  const fitting: Array<ChosenAd & { weight: number; headroom: number }> = [];
  for (const candidate of candidates) {
    if (options.shownAdIds.has(candidate.adId) || options.organicPinIds.has(candidate.pinId)) continue;
    if (!withinPace(candidate.spentTodayMicro, candidate.dailyBudgetMicro, options.now)) continue;
    const reasons = reasonsFor(candidate, feed);
    if (reasons === null) continue;
    const headroom = pacedBudgetMicro(candidate.dailyBudgetMicro, options.now) - candidate.spentTodayMicro;
    fitting.push({ candidate, reasons, weight: weight(reasons), headroom });
  }
  fitting.sort((a, b) => b.weight - a.weight || b.headroom - a.headroom || a.candidate.adId - b.candidate.adId);
  const chosen: ChosenAd[] = [];
  const campaigns = new Set<number>();
  const pins = new Set<number>();
  for (const entry of fitting) {
    if (chosen.length >= options.slots) break;
    if (campaigns.has(entry.candidate.campaignId) || pins.has(entry.candidate.pinId)) continue;
    campaigns.add(entry.candidate.campaignId);
    pins.add(entry.candidate.pinId);
    chosen.push({ candidate: entry.candidate, reasons: entry.reasons });
  }
  return chosen;
}

/**
 * How many of a page's `size` cells a feed keeps for promoted pins when it will place some: one
 * in every `every + 1`, so the page holds the same number of cells with ads as without (placing
 * them costs no extra cells to render, and the organic pins they displace open the next page).
 */
export function reservedSlots(size: number, every = PROMOTED_EVERY): number {
  return Math.floor(size / (every + 1));
}

/** How many promoted slots a page of `organicCount` organic pins has. */
export function promotedSlots(organicCount: number, every = PROMOTED_EVERY): number {
  return Math.floor(organicCount / every);
}

/**
 * The page's cells: the organic pins in their order, with the next promoted pin after every
 * `every` organic ones (never before the first `every`, never two in a row).
 */
export function interleavePromoted<Organic, Promoted>(organic: readonly Organic[], promoted: readonly Promoted[], every = PROMOTED_EVERY): Array<{ organic: Organic } | { promoted: Promoted }> {
  const cells: Array<{ organic: Organic } | { promoted: Promoted }> = [];
  let next = 0;
  organic.forEach((pin, index) => {
    cells.push({ organic: pin });
    if ((index + 1) % every === 0 && next < promoted.length) cells.push({ promoted: promoted[next++]! });
  });
  return cells;
}
