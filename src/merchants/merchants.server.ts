// The verified merchant program's storage: a business's application and its review, the review of
// its product pins (items), the profile's cover pin, per-person banners, and the reviewers'
// queue and decisions. Every state change asks ./program.ts's transition table, is one D1 batch
// whose main statement re-checks both the actor's right and the state it was decided from (a
// change made meanwhile changes nothing), and writes its business history row in that batch.
import { actorMay, historyRow, requireAction, seconds } from "~/business/core.server.ts";
import { blockedHostsAmong } from "~/builder/drafts.server.ts";
import { badRequest, conflict, notFound, type FieldProblem } from "~/domain/errors.ts";
import { isAllowedLink } from "~/pins/pin.ts";
import {
  COUNTRY_UNAVAILABLE,
  REVIEW_STATUSES,
  celebrationBannerShows,
  isVerified,
  programOpenIn,
  reviewStatusOf,
  runChecks,
  transition,
  welcomeBannerShows,
  type BannerState,
  type Check,
  type ItemStatus,
  type ProgramEvent,
  type ProgramStatus,
  type ReviewState,
  type ReviewerDecision,
} from "./program.ts";

/** Items one review lists and one approval marks: bounded so a page and a batch stay small. */
const MAX_ITEMS = 200;
/** Applications one queue page lists. */
const QUEUE_PAGE = 50;

interface ApplicationRow {
  business_id: number;
  profile_id: number;
  country: string;
  program_status: ProgramStatus | null;
  review_status: number;
  review_reasons: string;
  checks: string;
  can_appeal: number;
  is_appeal: number;
  appeal_count: number;
  appeal_comment: string | null;
  shipping_policy_url: string | null;
  return_policy_url: string | null;
  applied_at: number;
  decided_at: number | null;
  updated_at: number;
}

interface Application {
  business_id: string;
  country: string;
  program_status: ProgramStatus | null;
  review_status: number;
  review_status_name: ReturnType<typeof reviewStatusOf>;
  review_reasons: string[];
  checks: Check[];
  can_appeal: boolean;
  is_appeal: boolean;
  appeal_count: number;
  appeal_comment: string | null;
  shipping_policy_url: string | null;
  return_policy_url: string | null;
  applied_time: number;
  decided_time: number | null;
}

function applicationOf(row: ApplicationRow): Application {
  return {
    business_id: String(row.business_id),
    country: row.country,
    program_status: row.program_status,
    review_status: row.review_status,
    review_status_name: reviewStatusOf(row.review_status),
    review_reasons: JSON.parse(row.review_reasons) as string[],
    checks: JSON.parse(row.checks) as Check[],
    can_appeal: row.can_appeal === 1,
    is_appeal: row.is_appeal === 1,
    appeal_count: row.appeal_count,
    appeal_comment: row.appeal_comment,
    shipping_policy_url: row.shipping_policy_url,
    return_policy_url: row.return_policy_url,
    applied_time: seconds(row.applied_at),
    decided_time: row.decided_at === null ? null : seconds(row.decided_at),
  };
}

const stateOf = (row: ApplicationRow | null): ReviewState | null =>
  row === null ? null : { review: reviewStatusOf(row.review_status), program: row.program_status, canAppeal: row.can_appeal === 1, isAppeal: row.is_appeal === 1, appealCount: row.appeal_count };

async function applicationRow(db: D1Database, businessId: number): Promise<ApplicationRow | null> {
  return db.prepare("SELECT * FROM merchant_applications WHERE business_id = ?1").bind(businessId).first<ApplicationRow>();
}

interface BusinessFacts {
  profile_id: number;
  username: string;
  country: string;
  website: string | null;
}

async function businessFacts(db: D1Database, businessId: number): Promise<BusinessFacts> {
  const row = await db
    .prepare("SELECT b.profile_id, u.username, b.country, b.website FROM businesses b JOIN users u ON u.id = b.profile_id WHERE b.id = ?1")
    .bind(businessId)
    .first<BusinessFacts>();
  if (!row) throw notFound("business:api.notFound");
  return row;
}

/** The website's host, lower-cased, or null when it has none that parses. */
function hostOf(url: string | null): string | null {
  if (!url) return null;
  try {
    return new URL(url).hostname.toLowerCase().replace(/\.+$/, "").replace(/^www\./, "") || null;
  } catch {
    return null;
  }
}

/**
 * The checks, from real rows: the profile's age, its claimed domain's age on Pinloom (the
 * business's website host or the profile's verified domain, owned through link_domains, dated
 * from the profile's first pin linking to it: the earliest Pinloom can vouch for), the avatar,
 * the cover pin, the bio, product pins, and complaints (reports, hides) among comments on its pins.
 */
async function eligibility(db: D1Database, business: BusinessFacts, now: number): Promise<Check[]> {
  const profile = await db
    .prepare("SELECT created_at, image_key, about, domain_url, domain_verified FROM users WHERE id = ?1")
    .bind(business.profile_id)
    .first<{ created_at: number; image_key: string | null; about: string; domain_url: string | null; domain_verified: number }>();
  if (!profile) throw notFound("business:api.notFound");
  const candidates = [hostOf(business.website), profile.domain_verified === 1 ? hostOf(profile.domain_url) ?? profile.domain_url?.toLowerCase() ?? null : null].filter(
    (host): host is string => host !== null,
  );
  const [claimed, products, comments, cover] = await db.batch<Record<string, number | string | null>>([
    db
      .prepare(
        `SELECT lower(d.domain) AS domain,
                (SELECT MIN(p.created_at) FROM pins p WHERE p.pinner_id = ?1 AND lower(p.domain) = lower(d.domain)) AS first_seen
         FROM link_domains d WHERE d.official_user_id = ?1 AND d.is_blocked = 0 AND lower(d.domain) IN (SELECT value FROM json_each(?2))
         ORDER BY first_seen IS NULL, first_seen LIMIT 1`,
      )
      .bind(business.profile_id, JSON.stringify(candidates)),
    db.prepare("SELECT COUNT(*) AS n FROM pins WHERE pinner_id = ?1 AND kind = 'product' AND is_deleted = 0 AND is_hidden = 0").bind(business.profile_id),
    db
      .prepare(
        `SELECT COUNT(*) AS n, COALESCE(SUM(c.is_hidden = 1 OR EXISTS (SELECT 1 FROM comment_flags f WHERE f.comment_id = c.id)), 0) AS complained
         FROM comments c JOIN pins p ON p.id = c.pin_id WHERE p.pinner_id = ?1 AND c.user_id <> ?1`,
      )
      .bind(business.profile_id),
    db
      .prepare("SELECT COUNT(*) AS n FROM merchant_covers c JOIN pins p ON p.id = c.pin_id AND p.pinner_id = c.profile_id AND p.is_deleted = 0 WHERE c.profile_id = ?1")
      .bind(business.profile_id),
  ]);
  const domainRow = claimed!.results[0];
  const commentRow = comments!.results[0];
  return runChecks({
    now,
    profileCreatedAt: profile.created_at,
    domain: domainRow ? String(domainRow["domain"]) : null,
    domainFirstSeenAt: domainRow && domainRow["first_seen"] !== null ? Number(domainRow["first_seen"]) : null,
    hasProfileImage: profile.image_key !== null,
    hasCoverImage: Number(cover!.results[0]?.["n"] ?? 0) > 0,
    bio: profile.about,
    productPins: Number(products!.results[0]?.["n"] ?? 0),
    comments: Number(commentRow?.["n"] ?? 0),
    complainedComments: Number(commentRow?.["complained"] ?? 0),
  });
}

// ---- The merchant's side ----

interface ItemCounts {
  approved: number;
  pending: number;
  declined: number;
  appeal_pending: number;
}

export interface ProgramView {
  business_id: string;
  /** The business's profile: its badge, shop and pages. */
  profile: { id: string; username: string };
  available: boolean;
  /** The stored application, or null before the first one. */
  application: Application | null;
  /** The checks as they stand now (before applying, or to see what changed since). */
  eligibility: Check[];
  may_apply: boolean;
  cover_pin_id: string | null;
  items: ItemCounts;
  /** Declined and appealed items, newest first, so the merchant sees why and may appeal. */
  declined_items: Array<{ pin_id: string; title: string; status: ItemStatus; reason: string | null }>;
  banners: { welcome: boolean; celebration: boolean; welcome_dismissed_time: number | null; welcome_dismiss_count: number; celebration_dismissed: boolean };
}

const ITEM_STATUS_SQL = "COALESCE(mi.status, 'pending')";

async function bannerState(db: D1Database, userId: number): Promise<BannerState> {
  const row = await db
    .prepare("SELECT welcome_dismissed_at, welcome_dismiss_count, celebration_dismissed FROM merchant_banners WHERE user_id = ?1")
    .bind(userId)
    .first<{ welcome_dismissed_at: number | null; welcome_dismiss_count: number; celebration_dismissed: number }>();
  return { welcomeDismissedAt: row?.welcome_dismissed_at ?? null, welcomeDismissCount: row?.welcome_dismiss_count ?? 0, celebrationDismissed: row?.celebration_dismissed === 1 };
}

/** The program as a member of the business sees it. */
export async function programOf(db: D1Database, userId: number, businessId: number, now = Date.now()): Promise<ProgramView> {
  await requireAction(db, businessId, userId, "business.read");
  const business = await businessFacts(db, businessId);
  const [row, checks, banner, extra] = await Promise.all([
    applicationRow(db, businessId),
    eligibility(db, business, now),
    bannerState(db, userId),
    db.batch<Record<string, unknown>>([
      db.prepare("SELECT pin_id FROM merchant_covers WHERE profile_id = ?1").bind(business.profile_id),
      db
        .prepare(
          `SELECT ${ITEM_STATUS_SQL} AS status, COUNT(*) AS n FROM pins p LEFT JOIN merchant_items mi ON mi.business_id = ?2 AND mi.pin_id = p.id
           WHERE p.pinner_id = ?1 AND p.kind = 'product' AND p.is_deleted = 0 GROUP BY 1`,
        )
        .bind(business.profile_id, businessId),
      db
        .prepare(
          `SELECT p.id, p.title, mi.status, mi.reason FROM merchant_items mi JOIN pins p ON p.id = mi.pin_id AND p.is_deleted = 0
           WHERE mi.business_id = ?1 AND mi.status IN ('declined', 'appeal_pending') ORDER BY mi.updated_at DESC LIMIT ${MAX_ITEMS}`,
        )
        .bind(businessId),
    ]),
  ]);
  const items: ItemCounts = { approved: 0, pending: 0, declined: 0, appeal_pending: 0 };
  for (const count of extra[1]!.results) items[count["status"] as ItemStatus] = Number(count["n"]);
  const accepted = isVerified(row?.program_status ?? null);
  const coverPin = extra[0]!.results[0]?.["pin_id"];
  return {
    business_id: String(businessId),
    profile: { id: String(business.profile_id), username: business.username },
    available: programOpenIn(business.country),
    application: row ? applicationOf(row) : null,
    eligibility: checks,
    may_apply: transition(stateOf(row), "apply") !== null,
    cover_pin_id: coverPin === undefined ? null : String(coverPin),
    items,
    declined_items: extra[2]!.results.map((item) => ({ pin_id: String(item["id"]), title: String(item["title"]), status: item["status"] as ItemStatus, reason: (item["reason"] as string | null) ?? null })),
    banners: {
      welcome: welcomeBannerShows(banner, accepted, now),
      celebration: celebrationBannerShows(banner, accepted),
      welcome_dismissed_time: banner.welcomeDismissedAt === null ? null : seconds(banner.welcomeDismissedAt),
      welcome_dismiss_count: banner.welcomeDismissCount,
      celebration_dismissed: banner.celebrationDismissed,
    },
  };
}

function refusedTransition(): never {
  throw conflict("merchants:errors.notNow");
}

/**
 * Apply: the country gate (spec 002 §5: a 400 naming the country), then the checks; all PASS is
 * APPLIED and UNDER_REVIEW, any FAIL is FAILED with the failing checks as review_reasons.
 */
export async function apply(db: D1Database, userId: number, businessId: number, now = Date.now()): Promise<ProgramView> {
  await requireAction(db, businessId, userId, "merchant.manage");
  const business = await businessFacts(db, businessId);
  if (!programOpenIn(business.country)) throw badRequest([{ field: "country", reason: COUNTRY_UNAVAILABLE }], COUNTRY_UNAVAILABLE);
  const row = await applicationRow(db, businessId);
  const processing = transition(stateOf(row), "apply");
  if (!processing) refusedTransition();
  const checks = await eligibility(db, business, now);
  const failed = checks.filter((check) => check.result === "FAIL");
  const next = transition(processing, failed.length === 0 ? "checks_passed" : "checks_failed")!;
  const reasons = failed.map((check) => check.reason!);
  // ?5..?11 the new state, ?12 the country it was decided in, ?13 now.
  const values = [next.program, REVIEW_STATUSES[next.review], JSON.stringify(reasons), JSON.stringify(checks), next.canAppeal ? 1 : 0, next.isAppeal ? 1 : 0, next.appealCount, business.country, now];
  const write = row
    ? db
        .prepare(
          `UPDATE merchant_applications SET program_status = ?5, review_status = ?6, review_reasons = ?7, checks = ?8, can_appeal = ?9, is_appeal = ?10,
             appeal_count = ?11, appeal_comment = NULL, country = ?12, applied_at = ?13, decided_at = NULL, decided_by = NULL, updated_at = ?13
           WHERE business_id = ?1 AND updated_at = ?3 AND ${actorMay("merchant.manage")}`,
        )
        .bind(businessId, userId, row.updated_at, null, ...values)
    : db
        .prepare(
          `INSERT INTO merchant_applications (business_id, profile_id, country, program_status, review_status, review_reasons, checks, can_appeal, is_appeal, appeal_count, applied_at, updated_at)
           SELECT ?1, ?3, ?12, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?13, ?13 WHERE ${actorMay("merchant.manage")}
           ON CONFLICT (business_id) DO NOTHING`,
        )
        .bind(businessId, userId, business.profile_id, null, ...values);
  const [result] = await db.batch([
    // The badge is not touched: every way back to applying (FAILED, CANCELLED) already took it away.
    write,
    historyRow(db, businessId, userId, failed.length === 0 ? "MERCHANT_APPLIED" : "MERCHANT_CHECKS_FAILED", "MERCHANT_APPLICATION", businessId, { review_status: next.review, failed: failed.map((check) => check.check) }, now, "(SELECT updated_at FROM merchant_applications WHERE business_id = ?1) = " + String(now)),
  ]);
  if (result!.meta.changes !== 1) refusedTransition();
  return programOf(db, userId, businessId, now);
}

/** A merchant's own transition (appeal, withdraw), re-checked against the state it was decided from. */
async function merchantTransition(db: D1Database, userId: number, businessId: number, event: Extract<ProgramEvent, "appeal" | "withdraw">, comment: string | null, now: number): Promise<ProgramView> {
  await requireAction(db, businessId, userId, "merchant.manage");
  const business = await businessFacts(db, businessId);
  const row = await applicationRow(db, businessId);
  const next = transition(stateOf(row), event);
  if (!row || !next) refusedTransition();
  const [result] = await db.batch([
    db
      .prepare(
        `UPDATE merchant_applications SET program_status = ?5, review_status = ?6, can_appeal = ?7, is_appeal = ?8, appeal_count = ?9,
           appeal_comment = COALESCE(?10, appeal_comment), updated_at = ?11
         WHERE business_id = ?1 AND updated_at = ?3 AND ${actorMay("merchant.manage")}`,
      )
      .bind(businessId, userId, row.updated_at, null, next.program, REVIEW_STATUSES[next.review], next.canAppeal ? 1 : 0, next.isAppeal ? 1 : 0, next.appealCount, comment, now),
    db.prepare("UPDATE users SET is_verified_merchant = ?2 WHERE id = ?1 AND changes() = 1").bind(business.profile_id, isVerified(next.program) ? 1 : 0),
    historyRow(db, businessId, userId, event === "appeal" ? "MERCHANT_APPEALED" : "MERCHANT_WITHDRAWN", "MERCHANT_APPLICATION", businessId, { appeal_count: next.appealCount, program_status: next.program }, now, `(SELECT updated_at FROM merchant_applications WHERE business_id = ?1) = ${now}`),
  ]);
  if (result!.meta.changes !== 1) refusedTransition();
  return programOf(db, userId, businessId, now);
}

export const appeal = (db: D1Database, userId: number, businessId: number, comment: string, now = Date.now()) => merchantTransition(db, userId, businessId, "appeal", comment, now);
export const withdraw = (db: D1Database, userId: number, businessId: number, now = Date.now()) => merchantTransition(db, userId, businessId, "withdraw", null, now);

/** Spec 000's link rule (http or https, not a blocked host) for each policy URL; "" clears one. */
export async function setPolicies(db: D1Database, userId: number, businessId: number, input: { shipping_policy_url?: string | undefined; return_policy_url?: string | undefined }, now = Date.now()): Promise<ProgramView> {
  await requireAction(db, businessId, userId, "merchant.manage");
  const fields = (["shipping_policy_url", "return_policy_url"] as const).filter((field) => input[field] !== undefined);
  if (fields.length === 0) throw badRequest([{ field: "body", reason: "merchants:validation.nothingToChange" }]);
  const hosts = fields.flatMap((field) => {
    try {
      return [new URL(input[field]!).hostname.toLowerCase()];
    } catch {
      return [];
    }
  });
  const blocked = await blockedHostsAmong(db, hosts);
  const problems: FieldProblem[] = fields.filter((field) => input[field] !== "" && !isAllowedLink(input[field], blocked)).map((field) => ({ field, reason: "merchants:validation.link" }));
  if (problems.length > 0) throw badRequest(problems);
  const row = await applicationRow(db, businessId);
  if (!row) throw conflict("merchants:errors.applyFirst");
  const value = (field: (typeof fields)[number]) => (input[field] === undefined ? undefined : input[field] === "" ? null : input[field]!);
  const shipping = value("shipping_policy_url");
  const returns = value("return_policy_url");
  const [result] = await db.batch([
    db
      .prepare(
        `UPDATE merchant_applications SET shipping_policy_url = CASE WHEN ?5 = 1 THEN ?6 ELSE shipping_policy_url END,
           return_policy_url = CASE WHEN ?7 = 1 THEN ?8 ELSE return_policy_url END, updated_at = ?9
         WHERE business_id = ?1 AND updated_at = ?3 AND ${actorMay("merchant.manage")}`,
      )
      .bind(businessId, userId, row.updated_at, null, shipping === undefined ? 0 : 1, shipping ?? null, returns === undefined ? 0 : 1, returns ?? null, now),
    historyRow(db, businessId, userId, "MERCHANT_POLICIES_UPDATED", "MERCHANT_APPLICATION", businessId, Object.fromEntries(fields.map((field) => [field, value(field)])), now, "changes() = 1"),
  ]);
  if (result!.meta.changes !== 1) refusedTransition();
  return programOf(db, userId, businessId, now);
}

/** Pins the profile may take its cover from: its own, newest first. */
export async function coverChoices(db: D1Database, userId: number, businessId: number): Promise<Array<{ id: string; title: string }>> {
  await requireAction(db, businessId, userId, "business.read");
  const { results } = await db
    .prepare(
      `SELECT p.id, p.title FROM businesses b JOIN pins p ON p.pinner_id = b.profile_id AND p.is_deleted = 0
       JOIN pin_images i ON i.pin_id = p.id AND i.size = '736x' WHERE b.id = ?1 ORDER BY p.created_at DESC, p.id DESC LIMIT 50`,
    )
    .bind(businessId)
    .all<{ id: number; title: string }>();
  return results.map((row) => ({ id: String(row.id), title: row.title }));
}

/** The cover image: one of the profile's own pins, with an image. */
export async function setCover(db: D1Database, userId: number, businessId: number, pinId: number, now = Date.now()): Promise<ProgramView> {
  await requireAction(db, businessId, userId, "merchant.manage");
  const business = await businessFacts(db, businessId);
  const pin = await db
    .prepare("SELECT 1 FROM pins p JOIN pin_images i ON i.pin_id = p.id AND i.size = '736x' WHERE p.id = ?1 AND p.pinner_id = ?2 AND p.is_deleted = 0")
    .bind(pinId, business.profile_id)
    .first();
  if (!pin) throw badRequest([{ field: "cover_pin_id", reason: "merchants:validation.coverPin" }]);
  const [result] = await db.batch([
    db
      .prepare(
        `INSERT INTO merchant_covers (profile_id, pin_id, updated_at) SELECT ?3, ?4, ?5 WHERE ${actorMay("merchant.manage")}
         ON CONFLICT (profile_id) DO UPDATE SET pin_id = excluded.pin_id, updated_at = excluded.updated_at`,
      )
      .bind(businessId, userId, business.profile_id, pinId, now),
    historyRow(db, businessId, userId, "MERCHANT_COVER_SET", "PIN", pinId, {}, now, "changes() = 1"),
  ]);
  if (result!.meta.changes !== 1) refusedTransition();
  return programOf(db, userId, businessId, now);
}

/** A banner dismissed by this person: the welcome one counts and dates each dismissal. */
export async function dismissBanner(db: D1Database, userId: number, businessId: number, banner: "welcome" | "celebration", now = Date.now()): Promise<ProgramView> {
  await requireAction(db, businessId, userId, "business.read");
  const statement =
    banner === "welcome"
      ? `INSERT INTO merchant_banners (user_id, welcome_dismissed_at, welcome_dismiss_count, updated_at) VALUES (?1, ?2, 1, ?2)
         ON CONFLICT (user_id) DO UPDATE SET welcome_dismissed_at = ?2, welcome_dismiss_count = welcome_dismiss_count + 1, updated_at = ?2`
      : `INSERT INTO merchant_banners (user_id, celebration_dismissed, updated_at) VALUES (?1, 1, ?2)
         ON CONFLICT (user_id) DO UPDATE SET celebration_dismissed = 1, updated_at = ?2`;
  await db.prepare(statement).bind(userId, now).run();
  return programOf(db, userId, businessId, now);
}

/** A declined item appealed by the merchant: appeal_pending until a reviewer decides again. */
export async function appealItem(db: D1Database, userId: number, businessId: number, pinId: number, comment: string, now = Date.now()): Promise<ProgramView> {
  await requireAction(db, businessId, userId, "merchant.manage");
  const [result] = await db.batch([
    db
      .prepare(`UPDATE merchant_items SET status = 'appeal_pending', appeal_comment = ?4, updated_at = ?5 WHERE business_id = ?1 AND pin_id = ?3 AND status = 'declined' AND ${actorMay("merchant.manage")}`)
      .bind(businessId, userId, pinId, comment, now),
    historyRow(db, businessId, userId, "MERCHANT_ITEM_APPEALED", "PIN", pinId, {}, now, "changes() = 1"),
  ]);
  if (result!.meta.changes !== 1) throw conflict("merchants:errors.itemNotDeclined");
  return programOf(db, userId, businessId, now);
}

// ---- The reviewers' side ----

/** An admin with the reviewer role, or the same 404 as an unknown page: the queue's existence is not told. */
export async function requireReviewer(db: D1Database, userId: number): Promise<void> {
  const row = await db.prepare("SELECT 1 FROM admin_users WHERE user_id = ?1 AND role = 'MERCHANT_REVIEWER'").bind(userId).first();
  if (!row) throw notFound();
}

export async function isReviewer(db: D1Database, userId: number): Promise<boolean> {
  return (await db.prepare("SELECT 1 FROM admin_users WHERE user_id = ?1 AND role = 'MERCHANT_REVIEWER'").bind(userId).first()) !== null;
}

export interface QueueEntry extends Application {
  business_name: string;
  profile: { id: string; username: string };
}

const QUEUE_SELECT = `SELECT a.*, b.name AS business_name, u.username FROM merchant_applications a JOIN businesses b ON b.id = a.business_id JOIN users u ON u.id = a.profile_id`;

const queueEntry = (row: ApplicationRow & { business_name: string; username: string }): QueueEntry => ({
  ...applicationOf(row),
  business_name: row.business_name,
  profile: { id: String(row.profile_id), username: row.username },
});

/** Applications, those waiting for a reviewer first (oldest first), then the rest by last change. */
export async function reviewQueue(db: D1Database, reviewerId: number): Promise<QueueEntry[]> {
  await requireReviewer(db, reviewerId);
  const { results } = await db
    .prepare(`${QUEUE_SELECT} ORDER BY a.review_status <> ${REVIEW_STATUSES.UNDER_REVIEW}, CASE WHEN a.review_status = ${REVIEW_STATUSES.UNDER_REVIEW} THEN a.applied_at ELSE -a.updated_at END LIMIT ${QUEUE_PAGE}`)
    .all<ApplicationRow & { business_name: string; username: string }>();
  return results.map(queueEntry);
}

export interface ReviewItem {
  pin_id: string;
  title: string;
  status: ItemStatus;
  reason: string | null;
  appeal_comment: string | null;
}

export async function reviewOf(db: D1Database, reviewerId: number, businessId: number): Promise<QueueEntry & { items: ReviewItem[] }> {
  await requireReviewer(db, reviewerId);
  const row = await db.prepare(`${QUEUE_SELECT} WHERE a.business_id = ?1`).bind(businessId).first<ApplicationRow & { business_name: string; username: string }>();
  if (!row) throw notFound("merchants:errors.noApplication");
  const { results } = await db
    .prepare(
      `SELECT p.id, p.title, ${ITEM_STATUS_SQL} AS status, mi.reason, mi.appeal_comment FROM pins p LEFT JOIN merchant_items mi ON mi.business_id = ?2 AND mi.pin_id = p.id
       WHERE p.pinner_id = ?1 AND p.kind = 'product' AND p.is_deleted = 0 ORDER BY p.created_at DESC, p.id DESC LIMIT ${MAX_ITEMS}`,
    )
    .bind(row.profile_id, businessId)
    .all<{ id: number; title: string; status: ItemStatus; reason: string | null; appeal_comment: string | null }>();
  return { ...queueEntry(row), items: results.map((item) => ({ pin_id: String(item.id), title: item.title, status: item.status, reason: item.reason, appeal_comment: item.appeal_comment })) };
}

/**
 * A reviewer's decision on an application. Approving completes the review, accepts the merchant,
 * turns the profile's badge on and approves every product pin still pending; the later program
 * decisions keep the badge only while the merchant is ACCEPTED. Answers the review and the
 * profile's username (its pages are purged by the caller).
 */
export async function decide(db: D1Database, reviewerId: number, businessId: number, decision: ReviewerDecision, reasons: string[], now = Date.now()): Promise<{ review: QueueEntry & { items: ReviewItem[] }; username: string }> {
  await requireReviewer(db, reviewerId);
  const row = await applicationRow(db, businessId);
  if (!row) throw notFound("merchants:errors.noApplication");
  if (decision === "disapprove" && reasons.length === 0) throw badRequest([{ field: "review_reasons", reason: "merchants:validation.reasonsNeeded" }]);
  const next = transition(stateOf(row), decision);
  if (!next) refusedTransition();
  const REVIEWER = "EXISTS (SELECT 1 FROM admin_users WHERE user_id = ?2 AND role = 'MERCHANT_REVIEWER')";
  const statements = [
    db
      .prepare(
        `UPDATE merchant_applications SET program_status = ?5, review_status = ?6, is_appeal = ?7, review_reasons = ?8, decided_at = ?9, decided_by = ?2, updated_at = ?9
         WHERE business_id = ?1 AND updated_at = ?3 AND ${REVIEWER}`,
      )
      .bind(businessId, reviewerId, row.updated_at, null, next.program, REVIEW_STATUSES[next.review], next.isAppeal ? 1 : 0, JSON.stringify(reasons), now),
    db.prepare("UPDATE users SET is_verified_merchant = ?2 WHERE id = ?1 AND changes() = 1").bind(row.profile_id, isVerified(next.program) ? 1 : 0),
  ];
  if (decision === "approve") {
    // A new acceptance is celebrated and welcomed afresh for everyone in the business.
    statements.push(
      db
        .prepare(
          `DELETE FROM merchant_banners WHERE user_id IN (SELECT user_id FROM business_members WHERE business_id = ?1)
             AND (SELECT updated_at FROM merchant_applications WHERE business_id = ?1) = ?2`,
        )
        .bind(businessId, now),
    );
    statements.push(
      db
        .prepare(
          `INSERT INTO merchant_items (business_id, pin_id, status, updated_at)
           SELECT ?1, p.id, 'approved', ?3 FROM pins p WHERE p.pinner_id = ?2 AND p.kind = 'product' AND p.is_deleted = 0
             AND (SELECT updated_at FROM merchant_applications WHERE business_id = ?1) = ?3
           ORDER BY p.created_at DESC LIMIT ${MAX_ITEMS}
           ON CONFLICT (business_id, pin_id) DO UPDATE SET status = 'approved', updated_at = excluded.updated_at WHERE merchant_items.status = 'pending'`,
        )
        .bind(businessId, row.profile_id, now),
    );
  }
  statements.push(
    historyRow(db, businessId, reviewerId, `MERCHANT_REVIEW_${decision.toUpperCase()}`, "MERCHANT_APPLICATION", businessId, { review_status: next.review, program_status: next.program, review_reasons: reasons }, now, `(SELECT updated_at FROM merchant_applications WHERE business_id = ?1) = ${now}`),
  );
  const [result] = await db.batch(statements);
  if (result!.meta.changes !== 1) refusedTransition();
  const username = (await db.prepare("SELECT username FROM users WHERE id = ?1").bind(row.profile_id).first<{ username: string }>())?.username ?? "";
  return { review: await reviewOf(db, reviewerId, businessId), username };
}

/** A reviewer's decision on one item (a pending, declined or appealed product pin of the merchant). */
export async function decideItem(db: D1Database, reviewerId: number, businessId: number, pinId: number, status: "approved" | "declined", reason: string | null, now = Date.now()): Promise<QueueEntry & { items: ReviewItem[] }> {
  await requireReviewer(db, reviewerId);
  const row = await applicationRow(db, businessId);
  if (!row) throw notFound("merchants:errors.noApplication");
  const pin = await db.prepare("SELECT 1 FROM pins WHERE id = ?1 AND pinner_id = ?2 AND kind = 'product' AND is_deleted = 0").bind(pinId, row.profile_id).first();
  if (!pin) throw notFound("merchants:errors.noItem");
  await db.batch([
    db
      .prepare(
        `INSERT INTO merchant_items (business_id, pin_id, status, reason, updated_at) VALUES (?1, ?3, ?4, ?5, ?6)
         ON CONFLICT (business_id, pin_id) DO UPDATE SET status = excluded.status, reason = excluded.reason, updated_at = excluded.updated_at`,
      )
      .bind(businessId, reviewerId, pinId, status, reason, now),
    historyRow(db, businessId, reviewerId, status === "approved" ? "MERCHANT_ITEM_APPROVED" : "MERCHANT_ITEM_DECLINED", "PIN", pinId, { reason }, now, "changes() = 1"),
  ]);
  return reviewOf(db, reviewerId, businessId);
}

