// Lead forms' storage (migration 0043): the advertiser's form on an ad (written by quick promote
// in its own batch, or from the ads table), the form a person opens from a promoted pin (only
// while its ad runs), their submission (one per person per form), and the advertiser's table
// and CSV of what was sent. Values arrive checked by ./lead-form.ts; the role table decides
// every advertiser read and write, and each write re-checks it in SQL.
import { blockedHostsAmong } from "~/builder/drafts.server.ts";
import { adAccountBusiness } from "~/business/business.server.ts";
import { actorMay, historyRow, likeTerm, newId, requireAction, requireAssetAction, seconds, where } from "~/business/core.server.ts";
import { tablePage, type TablePage } from "~/business/table-state.ts";
import { writeCsv } from "~/bulk/csv.ts";
import { badRequest, conflict, notFound, type FieldProblem } from "~/domain/errors.ts";
import { visibleSql } from "~/visibility/visibility.server.ts";
import { autofill, checkSubmission, dedupeKey, LEAD_CSV_COLUMNS, LEAD_FIELDS, privacyPolicyProblem, type AutofillViewer, type CallToAction, type LeadField, type LeadFormInput, type LeadSubmissionInput } from "./lead-form.ts";
import type { LeadSubmissionQuery } from "./lead-table.ts";

/** Rows one CSV holds: far above a real form's leads, a bound on one request's memory. */
const CSV_ROW_LIMIT = 10_000;

/**
 * An ad runs when it, its ad group and its campaign are ACTIVE, it is approved, the campaign is
 * inside its dates and its pin may be shown in a shared feed: the feeds' own rule
 * (src/ads/delivery.server.ts). Over ?1 now; aliases f (form), a, g, c, p, b, pu.
 */
const RUNNING = `a.status = 'ACTIVE' AND a.review_status = 'APPROVED' AND g.status = 'ACTIVE' AND c.status = 'ACTIVE'
  AND c.start_at <= ?1 AND (c.end_at IS NULL OR c.end_at > ?1) AND ${visibleSql("feedPin", { pin: "p", board: "b", pinner: "pu" }, null)}`;
const FORM_JOINS = `FROM lead_forms f JOIN ads a ON a.id = f.ad_id JOIN ad_groups g ON g.id = a.ad_group_id JOIN campaigns c ON c.id = a.campaign_id
  JOIN pins p ON p.id = a.pin_id LEFT JOIN boards b ON b.id = p.board_id JOIN users pu ON pu.id = p.pinner_id`;

export interface LeadFormRecord {
  adId: string;
  headline: string;
  privacyPolicyUrl: string;
  callToAction: CallToAction;
  fields: LeadField[];
  formSubmissions: number;
}

const fieldsOf = (text: string): LeadField[] => {
  const parsed = JSON.parse(text) as unknown;
  return Array.isArray(parsed) ? LEAD_FIELDS.filter((field) => parsed.includes(field)) : [];
};

const recordOf = (row: Record<string, unknown>): LeadFormRecord => ({
  adId: String(row["ad_id"]),
  headline: String(row["headline"]),
  privacyPolicyUrl: String(row["privacy_policy_url"]),
  callToAction: row["call_to_action"] as CallToAction,
  fields: fieldsOf(String(row["fields"])),
  formSubmissions: Number(row["submissions"] ?? 0),
});

const FORM_COLUMNS = `f.ad_id, f.headline, f.privacy_policy_url, f.call_to_action, f.fields, (SELECT COUNT(*) FROM lead_submissions s WHERE s.ad_id = f.ad_id) AS submissions`;

// ---- The advertiser's form ----

/** The privacy policy's problem under the link rule, with the blocked hosts looked up. */
export async function privacyPolicyProblems(db: D1Database, form: LeadFormInput, prefix: string): Promise<FieldProblem[]> {
  let host = "";
  try {
    host = new URL(form.privacyPolicyUrl).hostname.toLowerCase();
  } catch {
    // privacyPolicyProblem names it.
  }
  const problem = privacyPolicyProblem(form.privacyPolicyUrl, await blockedHostsAmong(db, host ? [host] : []));
  return problem ? [{ field: `${prefix}privacyPolicyUrl`, reason: problem }] : [];
}

/**
 * The statement that sets an ad's form (made or replaced), for the caller's batch, written only
 * while `guard` holds (SQL over the caller's own parameters, numbered after these five).
 */
export function upsertLeadFormStatement(db: D1Database, adId: number, adAccountId: number, form: LeadFormInput, now: number, guard: string, guardValues: unknown[] = []): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO lead_forms (ad_id, ad_account_id, headline, privacy_policy_url, call_to_action, fields, created_at, updated_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7 WHERE ${guard}
       ON CONFLICT (ad_id) DO UPDATE SET headline = excluded.headline, privacy_policy_url = excluded.privacy_policy_url,
         call_to_action = excluded.call_to_action, fields = excluded.fields, updated_at = excluded.updated_at`,
    )
    .bind(adId, adAccountId, form.headline, form.privacyPolicyUrl, form.callToAction, JSON.stringify(form.fields), now, ...guardValues);
}

async function accountBusiness(db: D1Database, adAccountId: number): Promise<number> {
  const businessId = await adAccountBusiness(db, adAccountId);
  if (businessId === null) throw notFound("business:api.adAccountNotFound");
  return businessId;
}

/** Sets the form of one of the account's pin ads, for a role that may change campaigns; its history row in the same batch. */
export async function saveLeadForm(db: D1Database, userId: number, adAccountId: number, adId: number, form: LeadFormInput, now = Date.now()): Promise<LeadFormRecord> {
  const businessId = await accountBusiness(db, adAccountId);
  await requireAction(db, businessId, userId, "campaign.update");
  const ad = await db.prepare("SELECT pin_id, name FROM ads WHERE id = ?1 AND ad_account_id = ?2").bind(adId, adAccountId).first<{ pin_id: number | null; name: string }>();
  if (!ad) throw notFound("leads:api.adNotFound");
  const problems = await privacyPolicyProblems(db, form, "");
  // A product group has no pin to show the form beside.
  if (ad.pin_id === null) problems.push({ field: "adId", reason: "leads:validation.pinAdsOnly" });
  if (problems.length > 0) throw badRequest(problems);
  // ?8 business, ?9 actor: the guard's own numbering after the five the statement uses.
  const guard = actorMay("campaign.update").replaceAll("?1", "?8").replaceAll("?2", "?9") + " AND EXISTS (SELECT 1 FROM ads WHERE id = ?1 AND ad_account_id = ?2)";
  const [write] = await db.batch([
    upsertLeadFormStatement(db, adId, adAccountId, form, now, guard, [businessId, userId]),
    historyRow(db, businessId, userId, "LEAD_FORM_SAVED", "AD", adId, { name: ad.name, headline: form.headline, fields: form.fields, call_to_action: form.callToAction }, now, "changes() = 1"),
  ]);
  if (write!.meta.changes !== 1) {
    await requireAction(db, businessId, userId, "campaign.update");
    throw notFound("leads:api.adNotFound");
  }
  return (await leadFormsOf(db, adAccountId, [adId])).get(String(adId))!;
}

/** The forms of these ads of one account (the ads table's column), by ad id. The caller has checked the reader may. */
export async function leadFormsOf(db: D1Database, adAccountId: number, adIds: readonly number[]): Promise<Map<string, LeadFormRecord>> {
  if (adIds.length === 0) return new Map();
  const { results } = await db
    .prepare(`SELECT ${FORM_COLUMNS} FROM lead_forms f WHERE f.ad_account_id = ?1 AND f.ad_id IN (SELECT value FROM json_each(?2)) LIMIT 100`)
    .bind(adAccountId, JSON.stringify(adIds.slice(0, 100)))
    .all<Record<string, unknown>>();
  return new Map(results.map((row) => [String(row["ad_id"]), recordOf(row)]));
}

// ---- The form a person opens ----

export interface PublicLeadForm {
  ad_id: string;
  advertiser_name: string;
  headline: string;
  privacy_policy_url: string;
  call_to_action: CallToAction;
  fields: LeadField[];
  form_submissions: number;
  /** Spec 000 §5, §6: name and email for a signed-in viewer flagged eligible for each; empty signed out. */
  prefill: { fullName?: string; email?: string };
  /** Whether this viewer has sent it already (signed in: their account). */
  submitted: boolean;
}

/** The running form of an ad; a paused, ended or rejected ad's form is as absent as no form. */
export async function openLeadForm(db: D1Database, adId: number, viewer: (AutofillViewer & { id: number }) | null, now = Date.now()): Promise<PublicLeadForm> {
  const row = await db
    .prepare(
      `SELECT ${FORM_COLUMNS}, biz.name AS advertiser_name,
         EXISTS (SELECT 1 FROM lead_submissions s WHERE s.ad_id = f.ad_id AND s.dedupe_key = ?3) AS submitted
       ${FORM_JOINS} JOIN ad_accounts acc ON acc.id = a.ad_account_id JOIN businesses biz ON biz.id = acc.business_id
       WHERE f.ad_id = ?2 AND ${RUNNING}`,
    )
    .bind(now, adId, viewer === null ? "" : `u${viewer.id}`)
    .first<Record<string, unknown>>();
  if (!row) throw notFound("leads:api.formNotFound");
  const form = recordOf(row);
  return {
    ad_id: form.adId,
    advertiser_name: String(row["advertiser_name"]),
    headline: form.headline,
    privacy_policy_url: form.privacyPolicyUrl,
    call_to_action: form.callToAction,
    fields: form.fields,
    form_submissions: form.formSubmissions,
    prefill: autofill(viewer, form.fields),
    submitted: row["submitted"] === 1,
  };
}

/** The running ad of this pin that carries a form (the close-up's button), or null. */
export async function runningLeadFormOfPin(db: D1Database, pinId: number, now = Date.now()): Promise<{ adId: string; callToAction: CallToAction } | null> {
  const row = await db
    .prepare(`SELECT f.ad_id, f.call_to_action ${FORM_JOINS} WHERE a.pin_id = ?2 AND ${RUNNING} ORDER BY a.id LIMIT 1`)
    .bind(now, pinId)
    .first<{ ad_id: number; call_to_action: CallToAction }>();
  return row ? { adId: String(row.ad_id), callToAction: row.call_to_action } : null;
}

export interface SubmissionRequest {
  adId: number;
  userId: number | null;
  /** The throttle's subject for the network address (signed-out one-per-person when nothing else names them). */
  address: string;
  locale: string;
  input: LeadSubmissionInput;
}

/**
 * One submission: the form must be running, the values fit the fields it asks, and this person
 * must not have sent it before (refused with 409: a lead is a request to be contacted once, and
 * a second one would let anyone who knows an address overwrite what its owner sent).
 */
export async function submitLead(db: D1Database, request: SubmissionRequest, now = Date.now()): Promise<{ id: string; form_submissions: number }> {
  const row = await db.prepare(`SELECT f.fields, a.ad_account_id ${FORM_JOINS} WHERE f.ad_id = ?2 AND ${RUNNING}`).bind(now, request.adId).first<{ fields: string; ad_account_id: number }>();
  if (!row) throw notFound("leads:api.formNotFound");
  const checked = checkSubmission(fieldsOf(row.fields), request.input);
  if (!checked.ok) throw badRequest(checked.problems);
  const values = checked.values;
  const id = newId();
  // The running rule again inside the write: an ad paused meanwhile collects nothing.
  const [insert, count] = await db.batch([
    db
      .prepare(
        `INSERT INTO lead_submissions (id, ad_id, ad_account_id, user_id, dedupe_key, full_name, email, phone_number, zip_code, locale, created_at)
         SELECT ?3, f.ad_id, a.ad_account_id, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?1 ${FORM_JOINS} WHERE f.ad_id = ?2 AND ${RUNNING}
         ON CONFLICT (ad_id, dedupe_key) DO NOTHING`,
      )
      .bind(now, request.adId, id, request.userId, dedupeKey(request.userId, values, request.address), values.fullName ?? null, values.email ?? null, values.phoneNumber ?? null, values.zipCode ?? null, request.locale),
    db.prepare("SELECT COUNT(*) AS n FROM lead_submissions WHERE ad_id = ?1").bind(request.adId),
  ]);
  if (insert!.meta.changes !== 1) {
    const still = await db.prepare(`SELECT 1 ${FORM_JOINS} WHERE f.ad_id = ?2 AND ${RUNNING}`).bind(now, request.adId).first();
    throw still ? conflict("leads:api.alreadySubmitted") : notFound("leads:api.formNotFound");
  }
  return { id: String(id), form_submissions: Number((count!.results[0] as { n: number } | undefined)?.n ?? 0) };
}

// ---- What the advertiser reads ----

export interface LeadSubmissionRow {
  id: string;
  ad_id: string;
  ad_name: string;
  full_name: string | null;
  email: string | null;
  phone_number: string | null;
  zip_code: string | null;
  locale: string;
  signed_in: boolean;
  created_time: number;
}

/** leads.read on the ad account (its asset roles taking part): a stranger is told it does not exist. */
async function requireLeadsRead(db: D1Database, userId: number, adAccountId: number): Promise<void> {
  const businessId = await accountBusiness(db, adAccountId);
  await requireAssetAction(db, businessId, userId, "leads.read", { type: "AD_ACCOUNT", id: adAccountId });
}

const SUBMISSION_FROM = "FROM lead_submissions s JOIN ads a ON a.id = s.ad_id WHERE s.ad_account_id = ?1";

function submissionOf(row: Record<string, unknown>): LeadSubmissionRow {
  const text = (name: string) => (row[name] === null ? null : String(row[name]));
  return {
    id: String(row["id"]),
    ad_id: String(row["ad_id"]),
    ad_name: String(row["ad_name"]),
    full_name: text("full_name"),
    email: text("email"),
    phone_number: text("phone_number"),
    zip_code: text("zip_code"),
    locale: String(row["locale"]),
    signed_in: row["user_id"] !== null,
    created_time: seconds(Number(row["created_at"])),
  };
}

const SUBMISSION_COLUMNS = "s.id, s.ad_id, a.name AS ad_name, s.full_name, s.email, s.phone_number, s.zip_code, s.locale, s.user_id, s.created_at";

/** One page of an account's submissions in the table state: search by name or email, filter by ad. */
export async function listLeadSubmissions(db: D1Database, userId: number, adAccountId: number, state: LeadSubmissionQuery): Promise<TablePage<LeadSubmissionRow>> {
  await requireLeadsRead(db, userId, adAccountId);
  const parts: Array<[(n: number) => string, unknown]> = [];
  if (state.searchTerm) parts.push([(n) => `s.${state.searchBy === "email" ? "email" : "full_name"} LIKE ?${n} ESCAPE '\\'`, likeTerm(state.searchTerm)]);
  const adIds = state.filtersPayload?.ad_ids;
  if (adIds && adIds.length > 0) parts.push([(n) => `s.ad_id IN (SELECT value FROM json_each(?${n}))`, JSON.stringify(adIds.map(Number))]);
  const clause = where(parts, 4);
  const direction = state.sortDirection === "DESCENDING" ? "DESC" : "ASC";
  const order = `${state.sortBy === "full_name" ? "s.full_name COLLATE NOCASE" : state.sortBy === "email" ? "s.email" : "s.created_at"} ${direction}, s.id ${direction}`;
  const [rows, count] = await db.batch<Record<string, unknown>>([
    db.prepare(`SELECT ${SUBMISSION_COLUMNS} ${SUBMISSION_FROM}${clause.sql} ORDER BY ${order} LIMIT ?2 OFFSET ?3`).bind(adAccountId, state.limit, state.startIndex - 1, ...clause.values),
    db.prepare(`SELECT COUNT(*) AS n ${SUBMISSION_FROM} AND ?2 IS NULL AND ?3 IS NULL${clause.sql}`).bind(adAccountId, null, null, ...clause.values),
  ]);
  return tablePage(rows!.results.map(submissionOf), Number(count!.results[0]?.["n"] ?? 0), state);
}

/** Every submission of the account as a CSV (byte order mark, formula guard: the bulk files' writer), newest first. */
export async function leadSubmissionsCsv(db: D1Database, userId: number, adAccountId: number): Promise<string> {
  await requireLeadsRead(db, userId, adAccountId);
  const { results } = await db
    .prepare(`SELECT ${SUBMISSION_COLUMNS} ${SUBMISSION_FROM} ORDER BY s.created_at DESC, s.id DESC LIMIT ?2`)
    .bind(adAccountId, CSV_ROW_LIMIT)
    .all<Record<string, unknown>>();
  const rows = results.map((row) => {
    const lead = submissionOf(row);
    return [new Date(Number(row["created_at"])).toISOString(), lead.ad_id, lead.ad_name, lead.full_name ?? "", lead.email ?? "", lead.phone_number ?? "", lead.zip_code ?? "", lead.locale, lead.signed_in ? "true" : "false"];
  });
  return writeCsv(LEAD_CSV_COLUMNS, rows);
}
