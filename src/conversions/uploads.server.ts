// Uploaded files beside the conversions API: offline conversions (each row a conversion_events row,
// source UPLOAD, through conversionStatement, so a purchase the tag or the API already reported is
// kept once) and PCA customer lists (each row's hashed address matched into a CUSTOMER_LIST
// audience of the account; addresses are hashed here and never kept). A file with any bad row
// applies nothing and is kept FAILED with its errors, as bulk files are; a good file is applied in
// ONE batch with its upload row (guarded by the uploader's role) and a history row.
import { FILE_LIMITS } from "~/bulk/columns.ts";
import {
  actorMayOn,
  historyRow,
  likeTerm,
  newId,
  seconds,
  where,
} from "~/business/core.server.ts";
import {
  tablePage,
  type TablePage,
  type TableState,
} from "~/business/table-state.ts";
import { badRequest, notFound } from "~/domain/errors.ts";
import { accountFor, recheckAccount, type ConversionsAccount } from "./account.server.ts";
import { conversionStatement, emailSha256 } from "./record.server.ts";
import {
  checkOfflineFile,
  checkPcaFile,
  type PersonRef,
  type UploadError,
  type UploadErrorCode,
  type UploadKind,
} from "./upload-rows.ts";


const KIND_SQL: Record<UploadKind, "OFFLINE" | "PCA"> = {
  offline: "OFFLINE",
  pca: "PCA",
};

export interface ConversionUpload {
  id: string;
  kind: UploadKind;
  file_name: string;
  audience: { id: string; name: string } | null;
  row_count: number;
  status: "APPLIED" | "FAILED";
  error_count: number;
  /** OFFLINE: events stored; PCA: people matched. */
  stored_count: number;
  /** OFFLINE: rows already stored under their event id; PCA: rows that matched nobody. */
  skipped_count: number;
  uploaded_by: string;
  created_time: number;
}

const UPLOAD_SELECT = `SELECT up.id, up.kind, up.file_name, up.audience_id, a.name AS audience_name, up.row_count, up.status, up.error_count, up.stored_count, up.skipped_count, up.created_at, u.full_name, u.username
  FROM conversion_uploads up JOIN users u ON u.id = up.uploaded_by LEFT JOIN audiences a ON a.id = up.audience_id`;

function uploadOf(row: Record<string, unknown>): ConversionUpload {
  return {
    id: String(row["id"]),
    kind: row["kind"] === "PCA" ? "pca" : "offline",
    file_name: String(row["file_name"]),
    audience:
      row["audience_id"] === null
        ? null
        : {
            id: String(row["audience_id"]),
            name: String(row["audience_name"] ?? ""),
          },
    row_count: Number(row["row_count"]),
    status: row["status"] as ConversionUpload["status"],
    error_count: Number(row["error_count"]),
    stored_count: Number(row["stored_count"]),
    skipped_count: Number(row["skipped_count"]),
    uploaded_by: String(row["full_name"] || row["username"]),
    created_time: seconds(Number(row["created_at"])),
  };
}

const uploadById = async (
  db: D1Database,
  account: ConversionsAccount,
  kind: UploadKind,
  id: number,
) =>
  db
    .prepare(
      `${UPLOAD_SELECT} WHERE up.id = ?1 AND up.ad_account_id = ?2 AND up.kind = ?3`,
    )
    .bind(id, account.id, KIND_SQL[kind])
    .first<Record<string, unknown>>();

interface Upload {
  account: ConversionsAccount;
  userId: number;
  kind: UploadKind;
  id: number;
  fileName: string;
  audienceId: number | null;
  rows: number;
  now: number;
}

export type UploadOutcome =
  | { status: "APPLIED"; upload: ConversionUpload }
  | { status: "FAILED"; upload: ConversionUpload; errors: UploadError[] };

/** The upload row itself, written only while the uploader may upload. */
function uploadRow(
  db: D1Database,
  upload: Upload,
  status: "APPLIED" | "FAILED",
  errorCount: number,
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO conversion_uploads (id, ad_account_id, business_id, kind, audience_id, uploaded_by, file_name, row_count, status, error_count, created_at)
       SELECT ?3, ?4, ?1, ?5, ?6, ?2, ?7, ?8, ?9, ?10, ?11 WHERE ${actorMayOn("conversions.upload", "AD_ACCOUNT", "?4")}`,
    )
    .bind(
      upload.account.businessId,
      upload.userId,
      upload.id,
      upload.account.id,
      KIND_SQL[upload.kind],
      upload.audienceId,
      upload.fileName,
      upload.rows,
      status,
      errorCount,
      upload.now,
    );
}

async function written(
  db: D1Database,
  upload: Upload,
): Promise<ConversionUpload> {
  const row = await uploadById(db, upload.account, upload.kind, upload.id);
  // Nothing recorded: the role was taken away between the check and the write (403).
  if (!row)
    await recheckAccount(db, upload.account, upload.userId, "conversions.upload");
  return uploadOf(row!);
}

async function recordFailure(
  db: D1Database,
  upload: Upload,
  errors: UploadError[],
): Promise<UploadOutcome> {
  const kept = errors
    .slice(0, FILE_LIMITS.keptErrors)
    .map((error, seq) => ({ seq, ...error }));
  await db.batch([
    uploadRow(db, upload, "FAILED", errors.length),
    db
      .prepare(
        `INSERT INTO conversion_upload_errors (upload_id, seq, row_number, column_name, code)
         SELECT ?1, json_extract(value, '$.seq'), json_extract(value, '$.row'), json_extract(value, '$.column'), json_extract(value, '$.code')
         FROM json_each(?2) WHERE EXISTS (SELECT 1 FROM conversion_uploads WHERE id = ?1)`,
      )
      .bind(upload.id, JSON.stringify(kept)),
  ]);
  return { status: "FAILED", upload: await written(db, upload), errors };
}

/**
 * Stops the whole batch when the upload's row was not written (the uploader's role was taken away
 * meanwhile): the events' statement is shared with the tag and the API and carries no role check,
 * so a failed NOT NULL here rolls them back with it.
 */
const uploadGuard = (db: D1Database, uploadId: number) =>
  db
    .prepare(
      "INSERT INTO conversion_upload_errors (upload_id, seq, row_number, column_name, code) SELECT NULL, 0, 0, '', '' WHERE NOT EXISTS (SELECT 1 FROM conversion_uploads WHERE id = ?1)",
    )
    .bind(uploadId);

const hashOf = async (person: PersonRef): Promise<string | null> =>
  person === null
    ? null
    : "sha256" in person
      ? person.sha256
      : emailSha256(person.email);

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * One uploaded file of `kind`, checked whole: applied in one batch, or recorded as failed with
 * its row errors. A PCA list goes into `audienceId`, a customer list of this account.
 */
export async function uploadConversionFile(
  db: D1Database,
  userId: number,
  businessId: number,
  adAccountId: number,
  kind: UploadKind,
  file: { name: string; bytes: Uint8Array },
  audienceId: number | null,
  now = Date.now(),
): Promise<UploadOutcome> {
  const account = await accountFor(
    db,
    userId,
    businessId,
    adAccountId,
    "conversions.upload",
  );
  if (kind === "pca") {
    if (audienceId === null)
      throw badRequest([
        { field: "audience_id", reason: "validation.required" },
      ]);
    const audience = await db
      .prepare(
        "SELECT id FROM audiences WHERE id = ?1 AND ad_account_id = ?2 AND type = 'CUSTOMER_LIST'",
      )
      .bind(audienceId, account.id)
      .first();
    if (!audience) throw notFound("capi:uploads.audienceNotFound");
  }
  const upload: Upload = {
    account,
    userId,
    kind,
    id: newId(),
    fileName: file.name,
    audienceId: kind === "pca" ? audienceId : null,
    rows: 0,
    now,
  };
  let text: string;
  try {
    text = utf8.decode(file.bytes);
  } catch {
    return recordFailure(db, upload, [
      { row: 0, column: "", code: "FILE_NOT_UTF8" },
    ]);
  }
  return kind === "offline"
    ? applyOffline(db, upload, text)
    : applyPca(db, upload, text);
}

async function applyOffline(
  db: D1Database,
  upload: Upload,
  text: string,
): Promise<UploadOutcome> {
  const checked = checkOfflineFile(text, upload.now);
  if (!checked.ok)
    return recordFailure(db, { ...upload, rows: checked.rows }, checked.errors);
  const rows = checked.rows;
  const stamped: Upload = { ...upload, rows: rows.length };
  const hashes = await Promise.all(rows.map((row) => hashOf(row.person)));
  const keys = JSON.stringify(
    rows.map((row) => `${row.eventName}:${row.eventId}`),
  );
  // Numbers this module made, never input: safe inside the SQL text.
  const applied = `EXISTS (SELECT 1 FROM conversion_uploads WHERE id = ${upload.id})`;
  try {
    await db.batch([
      uploadRow(db, stamped, "APPLIED", 0),
      uploadGuard(db, upload.id),
      ...rows.map((row, at) =>
        conversionStatement(db, {
          adAccountId: upload.account.id,
          tagId: null,
          source: "UPLOAD",
          receivedAt: upload.now,
          event: {
            eventName: row.eventName,
            eventId: row.eventId,
            eventTime: row.eventTime,
            isTest: false,
            valueMicro: row.valueMicro,
            currency: row.currency,
            orderQuantity: row.orderQuantity,
            clickId: row.clickId,
            emailSha256: hashes[at] ?? null,
          },
        }),
      ),
      // The counts, from the events this batch wrote (received now, from an upload, under the file's ids).
      db
        .prepare(
          `UPDATE conversion_uploads SET stored_count = n, skipped_count = row_count - n FROM (SELECT COUNT(*) AS n FROM conversion_events
           WHERE ad_account_id = ?2 AND source = 'UPLOAD' AND received_at = ?3 AND event_name || ':' || event_id IN (SELECT value FROM json_each(?4)))
         WHERE id = ?1`,
        )
        .bind(upload.id, upload.account.id, upload.now, keys),
      historyRow(
        db,
        upload.account.businessId,
        upload.userId,
        "CONVERSION_UPLOAD_APPLIED",
        "CONVERSION_UPLOAD",
        upload.id,
        {
          name: upload.fileName,
          ad_account_id: String(upload.account.id),
          rows: rows.length,
        },
        upload.now,
        applied,
      ),
    ]);
  } catch (error) {
    if (!(error instanceof Error && /constraint failed/i.test(error.message)))
      throw error;
    await recheckAccount(db, upload.account, upload.userId, "conversions.upload");
    throw error;
  }
  return { status: "APPLIED", upload: await written(db, stamped) };
}

async function applyPca(
  db: D1Database,
  upload: Upload,
  text: string,
): Promise<UploadOutcome> {
  const checked = checkPcaFile(text);
  if (!checked.ok)
    return recordFailure(db, { ...upload, rows: checked.rows }, checked.errors);
  const stamped: Upload = { ...upload, rows: checked.rows.length };
  const hashes = JSON.stringify([
    ...new Set(
      await Promise.all(checked.rows.map((row) => hashOf(row.person))),
    ),
  ]);
  const applied = `EXISTS (SELECT 1 FROM conversion_uploads WHERE id = ${upload.id})`;
  await db.batch([
    uploadRow(db, stamped, "APPLIED", 0),
    db
      .prepare(
        `INSERT OR IGNORE INTO audience_members (audience_id, user_id) SELECT ?1, user_id FROM email_match WHERE email_sha256 IN (SELECT value FROM json_each(?2)) AND ${applied}`,
      )
      .bind(upload.audienceId, hashes),
    db
      .prepare(
        `UPDATE audiences SET updated_at = ?2 WHERE id = ?1 AND ${applied}`,
      )
      .bind(upload.audienceId, upload.now),
    db
      .prepare(
        `UPDATE conversion_uploads SET stored_count = n, skipped_count = row_count - n
         FROM (SELECT COUNT(*) AS n FROM email_match WHERE email_sha256 IN (SELECT value FROM json_each(?2))) WHERE id = ?1`,
      )
      .bind(upload.id, hashes),
    historyRow(
      db,
      upload.account.businessId,
      upload.userId,
      "PCA_UPLOAD_APPLIED",
      "CONVERSION_UPLOAD",
      upload.id,
      {
        name: upload.fileName,
        ad_account_id: String(upload.account.id),
        audience_id: String(upload.audienceId),
        rows: checked.rows.length,
      },
      upload.now,
      applied,
    ),
  ]);
  return { status: "APPLIED", upload: await written(db, stamped) };
}

// ---- History ----

export const CONVERSION_UPLOAD_SORTS = [
  "created_time",
  "file_name",
  "status",
] as const;
export const CONVERSION_UPLOAD_SEARCHES = ["file_name"] as const;
const ORDER: Record<(typeof CONVERSION_UPLOAD_SORTS)[number], string> = {
  created_time: "up.created_at",
  file_name: "up.file_name COLLATE NOCASE",
  status: "up.status",
};

export async function listConversionUploads(
  db: D1Database,
  userId: number,
  businessId: number,
  adAccountId: number,
  kind: UploadKind,
  state: TableState<
    (typeof CONVERSION_UPLOAD_SORTS)[number],
    (typeof CONVERSION_UPLOAD_SEARCHES)[number],
    unknown
  >,
): Promise<TablePage<ConversionUpload>> {
  const account = await accountFor(
    db,
    userId,
    businessId,
    adAccountId,
    "conversions.read",
  );
  const parts: Array<[(n: number) => string, unknown]> = [];
  if (state.searchTerm)
    parts.push([
      (n) => `up.file_name LIKE ?${n} ESCAPE '\\'`,
      likeTerm(state.searchTerm),
    ]);
  const clause = where(parts, 5);
  const order = `${ORDER[state.sortBy]} ${state.sortDirection === "ASCENDING" ? "ASC" : "DESC"}, up.id`;
  const [rows, count] = await db.batch<Record<string, unknown>>([
    db
      .prepare(
        `${UPLOAD_SELECT} WHERE up.ad_account_id = ?1 AND up.kind = ?4${clause.sql} ORDER BY ${order} LIMIT ?2 OFFSET ?3`,
      )
      .bind(
        account.id,
        state.limit,
        state.startIndex - 1,
        KIND_SQL[kind],
        ...clause.values,
      ),
    db
      .prepare(
        `SELECT COUNT(*) AS n FROM conversion_uploads up WHERE up.ad_account_id = ?1 AND up.kind = ?2${where(parts, 3).sql}`,
      )
      .bind(account.id, KIND_SQL[kind], ...clause.values),
  ]);
  return tablePage(
    rows!.results.map(uploadOf),
    Number(count!.results[0]?.["n"] ?? 0),
    state,
  );
}

const SHOWN_ERRORS = 200;

/** One upload and its first row errors, in file order. */
export async function getConversionUpload(
  db: D1Database,
  userId: number,
  businessId: number,
  adAccountId: number,
  kind: UploadKind,
  uploadId: number,
): Promise<{
  upload: ConversionUpload;
  errors: Array<{ row: number; column: string; code: UploadErrorCode }>;
}> {
  const account = await accountFor(
    db,
    userId,
    businessId,
    adAccountId,
    "conversions.read",
  );
  const row = await uploadById(db, account, kind, uploadId);
  if (!row) throw notFound("capi:uploads.notFound");
  const { results } = await db
    .prepare(
      `SELECT row_number, column_name, code FROM conversion_upload_errors WHERE upload_id = ?1 ORDER BY seq LIMIT ${SHOWN_ERRORS}`,
    )
    .bind(uploadId)
    .all<{ row_number: number; column_name: string; code: UploadErrorCode }>();
  return {
    upload: uploadOf(row),
    errors: results.map((error) => ({
      row: error.row_number,
      column: error.column_name,
      code: error.code,
    })),
  };
}

/** The account's customer lists a PCA file may go into (newest first, bounded). */
export async function customerLists(
  db: D1Database,
  userId: number,
  businessId: number,
  adAccountId: number,
): Promise<Array<{ id: string; name: string }>> {
  const account = await accountFor(
    db,
    userId,
    businessId,
    adAccountId,
    "conversions.read",
  );
  const { results } = await db
    .prepare(
      "SELECT id, name FROM audiences WHERE ad_account_id = ?1 AND type = 'CUSTOMER_LIST' ORDER BY created_at DESC LIMIT 100",
    )
    .bind(account.id)
    .all<{ id: number; name: string }>();
  return results.map((row) => ({ id: String(row.id), name: row.name }));
}
