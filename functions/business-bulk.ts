// Bulk editing's calls (spec 002 §2 "Bulk editing"; paths ours, recorded in docs/decisions.md),
// nested under the business and the ad account as every business call is, answering the /v3
// envelope. Every call needs a full login; the role table decides the rest (bulk.read to
// download and read history, bulk.upload to upload); a stranger gets 404.
//   GET  /v3/businesses/{id}/ad_accounts/{adAccountId}/bulk/download/?section&current   text/csv
//   POST /v3/businesses/{id}/ad_accounts/{adAccountId}/bulk/uploads/    multipart `file`, or JSON {file_name, content}
//   GET  /v3/businesses/{id}/ad_accounts/{adAccountId}/bulk/uploads/?(table state)
//   GET  /v3/businesses/{id}/ad_accounts/{adAccountId}/bulk/uploads/{uploadId}/?page&limit   the upload and its row errors
//   GET  /v3/businesses/{id}/ad_accounts/{adAccountId}/bulk/error_codes/   every code with its meaning, and the columns
import { Hono, type Context } from "hono";
import { requireFullViewer, requireWriteAllowed } from "~/accounts/guards.server.ts";
import { bulkAccountSummary, downloadSection, getUpload, listUploads, uploadBulkFile } from "~/bulk/bulk.server.ts";
import { BULK_ERROR_CODES, FILE_LIMITS, TYPE_COLUMNS, type BulkErrorCode } from "~/bulk/columns.ts";
import { errorMessage } from "~/bulk/messages.ts";
import { downloadQuery, uploadErrorsQuery, uploadJsonBody, uploadQuery } from "~/bulk/queries.ts";
import { requireAssetAction } from "~/business/core.server.ts";
import { badRequest, DomainError } from "~/domain/errors.ts";
import { failureWithData, success } from "~/server/answer.ts";
import { mediaTypeOf, readForm, readParsed } from "~/server/body.ts";
import type { AppEnv } from "~/server/context.ts";
import { ApiError, ErrorCode } from "~/server/errors.ts";
import { pathId, query } from "./business-request.ts";

export const bulkRoutes = new Hono<AppEnv>();

const BASE = "/businesses/:businessId{[0-9]+}/ad_accounts/:adAccountId{[0-9]+}/bulk";

const ids = (c: Context<AppEnv>) => ({ businessId: pathId(c.req.param("businessId"), "business:api.notFound"), adAccountId: pathId(c.req.param("adAccountId"), "business:api.adAccountNotFound") });

/** The errors a person reads in an answer: at most this many (the upload's page lists them all). */
const ANSWERED_ERRORS = 100;

const described = (t: Context<AppEnv>["var"]["t"], error: { row: number; column: string; code: BulkErrorCode; values?: Record<string, string | number> }) => ({
  row: error.row,
  column: error.column,
  code: error.code,
  message: errorMessage(t, error.code, error.values),
});

bulkRoutes.get(`${BASE}/download/`, async (c) => {
  const userId = requireFullViewer(c.var.ctx).user.id;
  const { businessId, adAccountId } = ids(c);
  await requireAssetAction(c.env.DB, businessId, userId, "bulk.read", { type: "AD_ACCOUNT", id: adAccountId });
  const input = query(c, downloadQuery);
  const file = await downloadSection(c.env.DB, userId, businessId, adAccountId, input.section, input.current === "1");
  return c.body(file.csv, 200, {
    "Content-Type": "text/csv; charset=utf-8",
    "Content-Disposition": `attachment; filename="${file.fileName}"`,
    "Cache-Control": "private, no-store",
  });
});

/** The file of an upload: a multipart `file` part, or the JSON form's text; over the limit is a 413. */
export async function uploadedFile(c: Context<AppEnv>): Promise<{ name: string; bytes: Uint8Array }> {
  const tooLarge = () => new DomainError("too_large", { message: "bulk:upload.tooLarge", values: { maximum: FILE_LIMITS.bytes } });
  if (mediaTypeOf(c) === "application/json") {
    const input = await readParsed(c, uploadJsonBody);
    const bytes = new TextEncoder().encode(input.content);
    if (bytes.byteLength > FILE_LIMITS.bytes) throw tooLarge();
    return { name: input.file_name, bytes };
  }
  if (mediaTypeOf(c) !== "multipart/form-data") throw badRequest([{ field: "content-type", reason: "validation.invalidValue", values: { values: "multipart/form-data, application/json" } }]);
  const form = await readForm(c);
  const file = form["file"];
  if (!(file instanceof File)) throw badRequest([{ field: "file", reason: "validation.required" }]);
  if (file.size > FILE_LIMITS.bytes) throw tooLarge();
  const name = file.name.trim().slice(0, FILE_LIMITS.fileName) || "upload.csv";
  return { name, bytes: new Uint8Array(await file.arrayBuffer()) };
}

bulkRoutes.post(`${BASE}/uploads/`, async (c) => {
  const userId = requireWriteAllowed(c.var.ctx).user.id;
  const { businessId, adAccountId } = ids(c);
  // Who may, before what they sent: a stranger learns nothing from a 400 or a 413.
  await requireAssetAction(c.env.DB, businessId, userId, "bulk.upload", { type: "AD_ACCOUNT", id: adAccountId });
  const outcome = await uploadBulkFile(c.env.DB, userId, businessId, adAccountId, await uploadedFile(c));
  if (outcome.status === "APPLIED") return success(c, { upload: outcome.upload, duplicate: outcome.duplicate });
  const t = c.var.t;
  const refusal = new ApiError(400, ErrorCode.InvalidParameters, {
    message: "bulk:upload.failed",
    values: { count: outcome.errors.length },
    detail: outcome.errors.slice(0, 20).map((error) => ({ field: `row ${error.row}${error.column ? ` ${error.column}` : ""}`, reason: `bulk:codes.${error.code}`, ...(error.values ? { values: error.values } : {}) })),
    extraData: { upload_id: outcome.upload.id },
  });
  return failureWithData(c, refusal, { upload: outcome.upload, errors: outcome.errors.slice(0, ANSWERED_ERRORS).map((error) => described(t, error)) });
});

bulkRoutes.get(`${BASE}/uploads/`, async (c) => {
  const userId = requireFullViewer(c.var.ctx).user.id;
  const { businessId, adAccountId } = ids(c);
  await requireAssetAction(c.env.DB, businessId, userId, "bulk.read", { type: "AD_ACCOUNT", id: adAccountId });
  return success(c, await listUploads(c.env.DB, userId, businessId, adAccountId, query(c, uploadQuery)));
});

bulkRoutes.get(`${BASE}/uploads/:uploadId{[0-9]+}/`, async (c) => {
  const userId = requireFullViewer(c.var.ctx).user.id;
  const { businessId, adAccountId } = ids(c);
  await requireAssetAction(c.env.DB, businessId, userId, "bulk.read", { type: "AD_ACCOUNT", id: adAccountId });
  const uploadId = pathId(c.req.param("uploadId"), "bulk:api.uploadNotFound");
  const page = query(c, uploadErrorsQuery);
  const found = await getUpload(c.env.DB, userId, businessId, adAccountId, uploadId, page);
  return success(c, {
    upload: found.upload,
    errors: { items: found.errors.map((error) => described(c.var.t, error)), page: page.page, limit: page.limit, start_index: page.startIndex, total_count: found.kept_errors },
  });
});

bulkRoutes.get(`${BASE}/error_codes/`, async (c) => {
  const userId = requireFullViewer(c.var.ctx).user.id;
  const { businessId, adAccountId } = ids(c);
  await bulkAccountSummary(c.env.DB, userId, businessId, adAccountId);
  return success(c, {
    codes: BULK_ERROR_CODES.map((code) => ({ code, meaning: c.var.t(`bulk:codes.${code}`) })),
    columns: Object.fromEntries(Object.entries(TYPE_COLUMNS).map(([type, spec]) => [type, { columns: spec.columns, required: spec.required }])),
  });
});
