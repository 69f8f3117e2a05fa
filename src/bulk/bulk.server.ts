// Bulk editing's storage: templates and the account's current objects as CSV, uploads checked
// whole and applied whole, and the uploads' history with their row errors. An upload that has
// any error changes nothing and is kept as FAILED with its errors; one without applies every row
// in ONE D1 batch with a history row per object, each statement re-checking the uploader's role
// and the upload's own row (the first statement), so a file applied meanwhile (its hash already
// APPLIED) or a role taken away writes nothing at all.
import { blockedHostsAmong } from "~/builder/drafts.server.ts";
import { linkHost } from "~/builder/drafts.ts";
import {
  insertAdGroups,
  insertAds,
  insertCampaigns,
  insertHistory,
  insertKeywords,
  insertProductGroups,
  promotablePinsAmong,
  readInventory,
  updateAdGroups,
  updateAds,
  updateCampaigns,
  updateKeywords,
  updateProductGroups,
  type Inventory,
  type WriteScope,
} from "~/campaigns/campaigns.server.ts";
import { DAY_MS, formatMoney, isoDay } from "~/campaigns/validation.ts";
import { actorMayOn, likeTerm, newId, requireAssetAction, seconds, where } from "~/business/core.server.ts";
import type { BusinessAction } from "~/business/roles.ts";
import { tablePage, type TablePage, type TableState } from "~/business/table-state.ts";
import { conflict, notFound } from "~/domain/errors.ts";
import { toHex } from "~/runtime/sha256.ts";
import { EXAMPLES, FILE_LIMITS, sectionColumns, sectionTypes, type Column, type RowType, type Section } from "./columns.ts";
import { readCsv, writeCsv } from "./csv.ts";
import { destinationsIn, pinIdsIn, readSheet, validateRows, type BulkError, type BulkPlan } from "./validate.ts";
import type { UPLOAD_SEARCHES, UPLOAD_SORTS, UploadFilters } from "./queries.ts";

interface BulkAccount {
  id: number;
  businessId: number;
  name: string;
  country: string;
  currency: string;
}

/** The ad account, when the viewer's role on it allows `action`; a stranger learns nothing (404). */
async function bulkAccount(db: D1Database, userId: number, businessId: number, adAccountId: number, action: BusinessAction): Promise<BulkAccount> {
  await requireAssetAction(db, businessId, userId, action, { type: "AD_ACCOUNT", id: adAccountId });
  const row = await db.prepare("SELECT id, name, country, currency FROM ad_accounts WHERE id = ?1 AND business_id = ?2").bind(adAccountId, businessId).first<{ id: number; name: string; country: string; currency: string }>();
  if (!row) throw notFound("business:api.adAccountNotFound");
  return { ...row, businessId };
}

// ---- Download ----

const ref = (id: number | null) => (id === null ? "" : `id:${id}`);
const money = (micro: number | null) => (micro === null ? "" : formatMoney(micro));

/** An object of the account as a row of the file: ids written id:…, which spreadsheets keep as text (16 digits lose their last in a number cell). */
function rowsOf(inventory: Inventory, type: RowType): Array<Partial<Record<Column, string>>> {
  switch (type) {
    case "CAMPAIGN":
      return inventory.campaigns.map((row) => ({
        id: ref(row.id),
        name: row.name,
        status: row.status,
        goal: row.goal,
        daily_budget: money(row.daily_budget_micro),
        start_date: isoDay(row.start_at),
        duration_days: row.end_at === null ? "" : String(Math.round((row.end_at - row.start_at) / DAY_MS)),
      }));
    case "AD_GROUP":
      return inventory.adGroups.map((row) => {
        const targeting = JSON.parse(row.targeting) as { auto?: unknown; size?: unknown };
        return {
          id: ref(row.id),
          campaign_id: ref(row.campaign_id),
          name: row.name,
          status: row.status,
          bid: money(row.bid_micro),
          auto_targeting: targeting.auto === false ? "FALSE" : "TRUE",
          audience_size: typeof targeting.size === "string" ? targeting.size : "",
        };
      });
    case "AD":
      return inventory.ads.map((row) => ({
        id: ref(row.id),
        ad_group_id: ref(row.ad_group_id),
        name: row.name,
        status: row.status,
        pin_id: ref(row.pin_id),
        product_group_id: ref(row.product_group_id),
        ad_type: row.ad_type,
        destination_url: row.destination_url,
      }));
    case "KEYWORD":
      return inventory.keywords.map((row) => ({ id: ref(row.id), ad_group_id: ref(row.ad_group_id), keyword: row.text, match_type: row.match_type, bid: money(row.bid_micro), status: row.status }));
    case "PRODUCT_GROUP":
      return inventory.productGroups.map((row) => ({ id: ref(row.id), name: row.name, status: row.status, filters: row.filters }));
  }
}

interface BulkDownload {
  fileName: string;
  csv: string;
}

/**
 * A section's file: its header and one example row per kind (ignored on upload), or with
 * `current` the account's objects of those kinds to edit and upload again.
 */
export async function downloadSection(db: D1Database, userId: number, businessId: number, adAccountId: number, section: Section, current: boolean): Promise<BulkDownload> {
  const account = await bulkAccount(db, userId, businessId, adAccountId, "bulk.read");
  const header = sectionColumns(section);
  const types = sectionTypes(section);
  const inventory = current ? await readInventory(db, account.id) : null;
  const rows = types.flatMap((type) => (inventory ? rowsOf(inventory, type) : [EXAMPLES[type]]).map((cells) => ({ ...cells, type: cells.type ?? type })));
  return {
    fileName: `pinloom-${section}-${account.id}-${current ? "current" : "template"}.csv`,
    csv: writeCsv(
      header,
      rows.map((cells) => header.map((column) => cells[column] ?? "")),
    ),
  };
}

// ---- Upload ----

interface UploadSummary {
  id: string;
  ad_account_id: string;
  file_name: string;
  row_count: number;
  status: "APPLIED" | "FAILED";
  error_count: number;
  created_count: number;
  updated_count: number;
  uploaded_by: { id: string; username: string; full_name: string };
  created_time: number;
}

type UploadOutcome = { status: "APPLIED"; upload: UploadSummary; duplicate: boolean } | { status: "FAILED"; upload: UploadSummary; errors: BulkError[] };

const UPLOAD_SELECT = `SELECT up.id, up.ad_account_id, up.file_name, up.row_count, up.status, up.error_count, up.created_count, up.updated_count, up.created_at,
  u.id AS user_id, u.username, u.full_name FROM bulk_uploads up JOIN users u ON u.id = up.uploaded_by`;

function uploadOf(row: Record<string, unknown>): UploadSummary {
  return {
    id: String(row["id"]),
    ad_account_id: String(row["ad_account_id"]),
    file_name: String(row["file_name"]),
    row_count: Number(row["row_count"]),
    status: row["status"] as UploadSummary["status"],
    error_count: Number(row["error_count"]),
    created_count: Number(row["created_count"]),
    updated_count: Number(row["updated_count"]),
    uploaded_by: { id: String(row["user_id"]), username: String(row["username"]), full_name: String(row["full_name"]) },
    created_time: seconds(Number(row["created_at"])),
  };
}

async function uploadById(db: D1Database, adAccountId: number, uploadId: number): Promise<UploadSummary | null> {
  const row = await db.prepare(`${UPLOAD_SELECT} WHERE up.id = ?1 AND up.ad_account_id = ?2`).bind(uploadId, adAccountId).first<Record<string, unknown>>();
  return row ? uploadOf(row) : null;
}

async function appliedWithHash(db: D1Database, adAccountId: number, hash: string): Promise<UploadSummary | null> {
  const row = await db.prepare(`${UPLOAD_SELECT} WHERE up.ad_account_id = ?1 AND up.content_hash = ?2 AND up.status = 'APPLIED'`).bind(adAccountId, hash).first<Record<string, unknown>>();
  return row ? uploadOf(row) : null;
}

interface Upload {
  account: BulkAccount;
  userId: number;
  id: number;
  fileName: string;
  hash: string;
  rows: number;
  now: number;
}

/** A refused file, kept with its first errors (and the count of all): one batch, only while the uploader may upload. */
async function recordFailure(db: D1Database, upload: Upload, errors: BulkError[]): Promise<UploadOutcome> {
  const kept = errors.slice(0, FILE_LIMITS.keptErrors).map((error, seq) => ({ seq, row: error.row, column: error.column, code: error.code, detail: error.values ?? {} }));
  await db.batch([
    db
      .prepare(
        `INSERT INTO bulk_uploads (id, ad_account_id, business_id, uploaded_by, file_name, content_hash, row_count, status, error_count, created_at)
         SELECT ?3, ?4, ?1, ?2, ?5, ?6, ?7, 'FAILED', ?8, ?9 WHERE ${actorMayOn("bulk.upload", "AD_ACCOUNT", "?4")}`,
      )
      .bind(upload.account.businessId, upload.userId, upload.id, upload.account.id, upload.fileName, upload.hash, upload.rows, errors.length, upload.now),
    db
      .prepare(
        `INSERT INTO bulk_upload_errors (upload_id, seq, row_number, column_name, code, detail)
         SELECT ?1, json_extract(value, '$.seq'), json_extract(value, '$.row'), json_extract(value, '$.column'), json_extract(value, '$.code'), json(json_extract(value, '$.detail'))
         FROM json_each(?2) WHERE EXISTS (SELECT 1 FROM bulk_uploads WHERE id = ?1)`,
      )
      .bind(upload.id, JSON.stringify(kept)),
  ]);
  const summary = await uploadById(db, upload.account.id, upload.id);
  // Nothing recorded: the role was taken away between the check and the write.
  if (!summary) await requireAssetAction(db, upload.account.businessId, upload.userId, "bulk.upload", { type: "AD_ACCOUNT", id: upload.account.id });
  return { status: "FAILED", upload: summary!, errors };
}

/** Every row of the plan, the upload's row and the history, in one batch; the upload's row goes first and guards the rest. */
async function apply(db: D1Database, upload: Upload, plan: BulkPlan): Promise<UploadOutcome> {
  const { account } = upload;
  // Numbers this module made, never input: safe inside the SQL text.
  const guard = `${actorMayOn("bulk.upload", "AD_ACCOUNT", String(account.id))} AND EXISTS (SELECT 1 FROM bulk_uploads WHERE id = ${upload.id} AND status = 'APPLIED')`;
  const scope: WriteScope = { businessId: account.businessId, actorId: upload.userId, adAccountId: account.id, now: upload.now, guard };
  const history = [
    { action: "BULK_UPLOAD_APPLIED", entity_type: "BULK_UPLOAD", entity_id: String(upload.id), detail: { name: upload.fileName, ad_account_id: String(account.id), rows: upload.rows, created: plan.created, updated: plan.updated } },
    ...plan.history,
  ];
  const statements = [
    db
      .prepare(
        `INSERT INTO bulk_uploads (id, ad_account_id, business_id, uploaded_by, file_name, content_hash, row_count, status, created_count, updated_count, created_at)
         SELECT ?3, ?4, ?1, ?2, ?5, ?6, ?7, 'APPLIED', ?8, ?9, ?10 WHERE ${actorMayOn("bulk.upload", "AD_ACCOUNT", "?4")} ON CONFLICT DO NOTHING`,
      )
      .bind(account.businessId, upload.userId, upload.id, account.id, upload.fileName, upload.hash, upload.rows, plan.created, plan.updated, upload.now),
    // Parents before children: product groups and campaigns, then ad groups, ads and keywords.
    ...insertProductGroups(db, scope, plan.productGroups.create),
    ...insertCampaigns(db, scope, plan.campaigns.create),
    ...insertAdGroups(db, scope, plan.adGroups.create),
    ...insertAds(db, scope, plan.ads.create),
    ...insertKeywords(db, scope, plan.keywords.create),
    ...updateProductGroups(db, scope, plan.productGroups.update),
    ...updateCampaigns(db, scope, plan.campaigns.update),
    ...updateAdGroups(db, scope, plan.adGroups.update),
    ...updateAds(db, scope, plan.ads.update),
    ...updateKeywords(db, scope, plan.keywords.update),
    ...insertHistory(db, scope, history),
  ];
  try {
    await db.batch(statements);
  } catch (error) {
    // The account changed between the check and the write (a parent deleted, the same keyword
    // added): the whole batch rolled back, and the same upload may simply be tried again.
    if (error instanceof Error && /constraint failed/i.test(error.message)) throw conflict("bulk:upload.changedMeanwhile");
    throw error;
  }
  const applied = await uploadById(db, account.id, upload.id);
  if (applied) return { status: "APPLIED", upload: applied, duplicate: false };
  // Not written: the same file was applied meanwhile, or the role is gone (403).
  await requireAssetAction(db, account.businessId, upload.userId, "bulk.upload", { type: "AD_ACCOUNT", id: account.id });
  const earlier = await appliedWithHash(db, account.id, upload.hash);
  if (!earlier) throw conflict("bulk:upload.changedMeanwhile");
  return { status: "APPLIED", upload: earlier, duplicate: true };
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** A UTC day's midnight. */
const midnight = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;

/**
 * One uploaded file, checked and applied whole, or recorded as failed with its errors. The same
 * bytes already applied to this account answer that upload again (duplicate) and change nothing.
 */
export async function uploadBulkFile(db: D1Database, userId: number, businessId: number, adAccountId: number, file: { name: string; bytes: Uint8Array }, now = Date.now()): Promise<UploadOutcome> {
  const account = await bulkAccount(db, userId, businessId, adAccountId, "bulk.upload");
  const hash = toHex(new Uint8Array(await crypto.subtle.digest("SHA-256", new Uint8Array(file.bytes))));
  const earlier = await appliedWithHash(db, account.id, hash);
  if (earlier) return { status: "APPLIED", upload: earlier, duplicate: true };
  const upload: Upload = { account, userId, id: newId(), fileName: file.name, hash, rows: 0, now };

  let text: string;
  try {
    text = utf8.decode(file.bytes);
  } catch {
    return recordFailure(db, upload, [{ row: 0, column: "", code: "FILE_NOT_UTF8" }]);
  }
  const csv = readCsv(text);
  if (!csv.ok) return recordFailure(db, upload, [{ row: csv.row, column: "", code: csv.problem }]);
  const sheet = readSheet(csv.header, csv.records);
  if (!sheet.ok) return recordFailure(db, { ...upload, rows: csv.records.length }, sheet.errors);
  upload.rows = sheet.rows.length;

  const [inventory, promotablePins, blockedHosts] = await Promise.all([
    readInventory(db, account.id),
    promotablePinsAmong(db, pinIdsIn(sheet.rows)),
    blockedHostsAmong(db, destinationsIn(sheet.rows).flatMap((link) => linkHost(link) ?? [])),
  ]);
  const result = validateRows(sheet.rows, { country: account.country, today: midnight(now), inventory, blockedHosts, promotablePins, newId, uploadId: upload.id });
  if (!result.ok) return recordFailure(db, upload, result.errors);
  return apply(db, upload, result.plan);
}

// ---- History ----

const UPLOAD_ORDER: Record<(typeof UPLOAD_SORTS)[number], string> = { created_time: "up.created_at", file_name: "up.file_name COLLATE NOCASE", status: "up.status" };

export async function listUploads(
  db: D1Database,
  userId: number,
  businessId: number,
  adAccountId: number,
  state: TableState<(typeof UPLOAD_SORTS)[number], (typeof UPLOAD_SEARCHES)[number], UploadFilters>,
): Promise<TablePage<UploadSummary>> {
  const account = await bulkAccount(db, userId, businessId, adAccountId, "bulk.read");
  const parts: Array<[(n: number) => string, unknown]> = [];
  if (state.searchTerm) parts.push([(n) => `up.file_name LIKE ?${n} ESCAPE '\\'`, likeTerm(state.searchTerm)]);
  if (state.filtersPayload?.status?.length) parts.push([(n) => `up.status IN (SELECT value FROM json_each(?${n}))`, JSON.stringify(state.filtersPayload.status)]);
  const clause = where(parts, 4);
  const order = `${UPLOAD_ORDER[state.sortBy]} ${state.sortDirection === "ASCENDING" ? "ASC" : "DESC"}, up.id`;
  const [rows, count] = await db.batch<Record<string, unknown>>([
    db.prepare(`${UPLOAD_SELECT} WHERE up.ad_account_id = ?1${clause.sql} ORDER BY ${order} LIMIT ?2 OFFSET ?3`).bind(account.id, state.limit, state.startIndex - 1, ...clause.values),
    db.prepare(`SELECT COUNT(*) AS n FROM bulk_uploads up WHERE up.ad_account_id = ?1${where(parts, 2).sql}`).bind(account.id, ...clause.values),
  ]);
  return tablePage(rows!.results.map(uploadOf), Number(count!.results[0]?.["n"] ?? 0), state);
}

interface StoredError {
  row: number;
  column: string;
  code: BulkError["code"];
  values: Record<string, string | number>;
}

/** One upload and a page of its row errors, in file order. */
export async function getUpload(
  db: D1Database,
  userId: number,
  businessId: number,
  adAccountId: number,
  uploadId: number,
  page: { limit: number; startIndex: number },
): Promise<{ upload: UploadSummary; errors: StoredError[]; kept_errors: number }> {
  const account = await bulkAccount(db, userId, businessId, adAccountId, "bulk.read");
  const upload = await uploadById(db, account.id, uploadId);
  if (!upload) throw notFound("bulk:api.uploadNotFound");
  const [rows, count] = await db.batch<Record<string, unknown>>([
    db.prepare("SELECT row_number, column_name, code, detail FROM bulk_upload_errors WHERE upload_id = ?1 ORDER BY seq LIMIT ?2 OFFSET ?3").bind(uploadId, page.limit, page.startIndex - 1),
    db.prepare("SELECT COUNT(*) AS n FROM bulk_upload_errors WHERE upload_id = ?1").bind(uploadId),
  ]);
  return {
    upload,
    errors: rows!.results.map((row) => ({ row: Number(row["row_number"]), column: String(row["column_name"]), code: row["code"] as BulkError["code"], values: JSON.parse(String(row["detail"])) as Record<string, string | number> })),
    kept_errors: Number(count!.results[0]?.["n"] ?? 0),
  };
}

/** The ad account as the bulk pages show it (name, currency), when the viewer may read it. */
export async function bulkAccountSummary(db: D1Database, userId: number, businessId: number, adAccountId: number): Promise<{ id: string; name: string; country: string; currency: string }> {
  const account = await bulkAccount(db, userId, businessId, adAccountId, "bulk.read");
  return { id: String(account.id), name: account.name, country: account.country, currency: account.currency };
}
