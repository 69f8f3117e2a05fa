// The conversions API and the hub's calls for it and for conversion uploads (spec 002 "Conversion
// and tag screens"; paths recorded in docs/decisions.md).
//
// Server to server, mounted at /v5 (the ads API's shape), authenticated by a token alone:
//   POST /v5/ad_accounts/{adAccountId}/events   Authorization: Bearer <token>   {test?, data: [event]}
// A missing, unknown, revoked or other account's token is the same 401, so the answer never says
// whether the account exists. At most 1 MB and 1,000 events a call, 60 calls a minute a token.
//
// The hub's calls, nested under the business and the ad account as every business call is:
//   GET    /v3/businesses/{id}/ad_accounts/{adAccountId}/conversions/tokens/
//   POST   /v3/businesses/{id}/ad_accounts/{adAccountId}/conversions/tokens/             {name}
//   DELETE /v3/businesses/{id}/ad_accounts/{adAccountId}/conversions/tokens/{tokenId}/
//   GET    /v3/businesses/{id}/ad_accounts/{adAccountId}/conversions/overview/           events by day and name, the API's calls
//   GET    /v3/businesses/{id}/ad_accounts/{adAccountId}/conversions/uploads/{kind}/template/   text/csv (kind offline or pca)
//   POST   /v3/businesses/{id}/ad_accounts/{adAccountId}/conversions/uploads/{kind}/?audience_id   multipart `file`, or JSON {file_name, content}
//   GET    /v3/businesses/{id}/ad_accounts/{adAccountId}/conversions/uploads/{kind}/     the history (table state)
//   GET    /v3/businesses/{id}/ad_accounts/{adAccountId}/conversions/uploads/{kind}/{uploadId}/   one upload and its row errors
import { Hono, type Context } from "hono";
import { z } from "zod";
import { API_LIMITS, readBatch } from "~/conversions/api-payload.ts";
import { createToken, eventsOverview, ingestEvents, listCalls, listTokens, revokeToken, throttleToken, tokenFor, TOKEN_LIMITS } from "~/conversions/api.server.ts";
import { uploadQuery } from "~/conversions/queries.ts";
import { UPLOAD_KINDS, uploadTemplate, type UploadErrorCode, type UploadKind } from "~/conversions/upload-rows.ts";
import { getConversionUpload, listConversionUploads, uploadConversionFile } from "~/conversions/uploads.server.ts";
import { badRequest, DomainError } from "~/domain/errors.ts";
import { failureWithData, success } from "~/server/answer.ts";
import { parseJsonText, readParsed } from "~/server/body.ts";
import type { AppEnv } from "~/server/context.ts";
import { ApiError, ErrorCode } from "~/server/errors.ts";
import { uploadedFile } from "./business-bulk.ts";
import { accountGate, pathId, query } from "./business-request.ts";

// ---- The API ----

export const conversionsApiRoutes = new Hono<AppEnv>();

const tooLarge = () => new ApiError(413, ErrorCode.PayloadTooLarge, { message: "api.payloadTooLarge", values: { limit: API_LIMITS.maxBodyBytes } });
const refused = () => new DomainError("unauthorized", { message: "capi:api.unauthorized" });

const utf8 = new TextDecoder("utf-8", { fatal: true });

async function receiveEvents(c: Context<AppEnv>): Promise<Response> {
  const declared = Number(c.req.header("content-length") ?? "0");
  if (declared > API_LIMITS.maxBodyBytes) throw tooLarge();
  const adAccountId = Number(c.req.param("adAccountId"));
  const presented = /^Bearer (\S+)$/.exec(c.req.header("authorization") ?? "")?.[1] ?? "";
  const tokenId = Number.isSafeInteger(adAccountId) ? await tokenFor(c.env.DB, adAccountId, presented) : null;
  if (tokenId === null) throw refused();
  await throttleToken(c.env.DB, tokenId);
  const bytes = await c.req.arrayBuffer();
  if (bytes.byteLength > API_LIMITS.maxBodyBytes) throw tooLarge();
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw badRequest([{ field: "body", reason: "validation.notUtf8" }]);
  }
  const now = Date.now();
  const batch = readBatch(parseJsonText(text, "body"), now);
  if (!batch.ok) throw badRequest(batch.problems);
  const outcomes = await ingestEvents(c.env.DB, tokenId, adAccountId, batch.events, batch.test, now);
  const t = c.var.t;
  return c.json(
    {
      num_events_received: outcomes.length,
      num_events_processed: outcomes.filter((outcome) => outcome.status === "processed").length,
      test: batch.test,
      events: outcomes.map((outcome) => {
        const errors = (outcome.errors ?? []).map((error) => ({ ...error, message: t(`capi:reasons.${error.reason}`) }));
        return {
          index: outcome.index,
          status: outcome.status,
          ...(errors.length > 0 ? { error_message: errors.map((error) => `${error.field || "event"}: ${error.message}`).join("; "), errors } : {}),
        };
      }),
    },
    200,
    { "Cache-Control": "no-store" },
  );
}

conversionsApiRoutes.post("/ad_accounts/:adAccountId{[0-9]{1,20}}/events", receiveEvents);
conversionsApiRoutes.post("/ad_accounts/:adAccountId{[0-9]{1,20}}/events/", receiveEvents);

// ---- The hub's calls ----

export const conversionsHubRoutes = new Hono<AppEnv>();

const BASE = "/businesses/:businessId{[0-9]+}/ad_accounts/:adAccountId{[0-9]+}/conversions";

const accountParam = (c: Context<AppEnv>) => pathId(c.req.param("adAccountId"), "business:api.adAccountNotFound");

const tokenBody = z.strictObject({ name: z.string().trim().min(1).max(TOKEN_LIMITS.nameLength) });

conversionsHubRoutes.get(`${BASE}/tokens/`, async (c) => {
  const { userId, businessId } = await accountGate(c, "conversions.read", false, accountParam(c));
  return success(c, { items: await listTokens(c.env.DB, userId, businessId, accountParam(c)) });
});

conversionsHubRoutes.post(`${BASE}/tokens/`, async (c) => {
  const { userId, businessId } = await accountGate(c, "conversions_token.manage", true, accountParam(c));
  const adAccountId = accountParam(c);
  const input = await readParsed(c, tokenBody);
  const made = await createToken(c.env.DB, userId, businessId, adAccountId, input.name);
  return success(c, { ...made.item, token: made.token });
});

conversionsHubRoutes.delete(`${BASE}/tokens/:tokenId{[0-9]+}/`, async (c) => {
  const { userId, businessId } = await accountGate(c, "conversions_token.manage", true, accountParam(c));
  const tokenId = pathId(c.req.param("tokenId"), "capi:tokens.notFound");
  return success(c, await revokeToken(c.env.DB, userId, businessId, accountParam(c), tokenId));
});

conversionsHubRoutes.get(`${BASE}/overview/`, async (c) => {
  const { userId, businessId } = await accountGate(c, "conversions.read", false, accountParam(c));
  const adAccountId = accountParam(c);
  const [overview, calls] = await Promise.all([eventsOverview(c.env.DB, userId, businessId, adAccountId), listCalls(c.env.DB, userId, businessId, adAccountId)]);
  return success(c, { ...overview, calls });
});

const kindParam = (c: Context<AppEnv>): UploadKind => {
  const kind = c.req.param("kind") ?? "";
  if (!(UPLOAD_KINDS as readonly string[]).includes(kind)) throw new DomainError("not_found", { message: "api.notFound" });
  return kind as UploadKind;
};

const UPLOADS = `${BASE}/uploads/:kind{offline|pca}`;

conversionsHubRoutes.get(`${UPLOADS}/template/`, async (c) => {
  await accountGate(c, "conversions.read", false, accountParam(c));
  const kind = kindParam(c);
  return c.body(uploadTemplate(kind, Date.now()), 200, {
    "Content-Type": "text/csv; charset=utf-8",
    "Content-Disposition": `attachment; filename="pinloom-${kind}-template.csv"`,
    "Cache-Control": "private, no-store",
  });
});

/** The errors an answer lists: at most this many (the upload's page lists its kept ones). */
const ANSWERED_ERRORS = 100;

const described = (t: Context<AppEnv>["var"]["t"], error: { row: number; column: string; code: UploadErrorCode }) => ({ ...error, message: t(`capi:codes.${error.code}`) });

const audienceQuery = z.strictObject({ audience_id: z.string().regex(/^\d{1,18}$/).optional() });

conversionsHubRoutes.post(`${UPLOADS}/`, async (c) => {
  // Who may, before what they sent: a stranger learns nothing from a 400 or a 413.
  const { userId, businessId } = await accountGate(c, "conversions.upload", true, accountParam(c));
  const adAccountId = accountParam(c);
  const kind = kindParam(c);
  const audience = query(c, audienceQuery).audience_id;
  const outcome = await uploadConversionFile(c.env.DB, userId, businessId, adAccountId, kind, await uploadedFile(c), audience === undefined ? null : Number(audience));
  if (outcome.status === "APPLIED") return success(c, { upload: outcome.upload });
  const t = c.var.t;
  const refusal = new ApiError(400, ErrorCode.InvalidParameters, {
    message: "capi:uploads.failed",
    values: { count: outcome.errors.length },
    detail: outcome.errors.slice(0, 20).map((error) => ({ field: `row ${error.row}${error.column ? ` ${error.column}` : ""}`, reason: `capi:codes.${error.code}` })),
    extraData: { upload_id: outcome.upload.id },
  });
  return failureWithData(c, refusal, { upload: outcome.upload, errors: outcome.errors.slice(0, ANSWERED_ERRORS).map((error) => described(t, error)) });
});

conversionsHubRoutes.get(`${UPLOADS}/`, async (c) => {
  const { userId, businessId } = await accountGate(c, "conversions.read", false, accountParam(c));
  return success(c, await listConversionUploads(c.env.DB, userId, businessId, accountParam(c), kindParam(c), query(c, uploadQuery)));
});

conversionsHubRoutes.get(`${UPLOADS}/:uploadId{[0-9]+}/`, async (c) => {
  const { userId, businessId } = await accountGate(c, "conversions.read", false, accountParam(c));
  const uploadId = pathId(c.req.param("uploadId"), "capi:uploads.notFound");
  const found = await getConversionUpload(c.env.DB, userId, businessId, accountParam(c), kindParam(c), uploadId);
  return success(c, { upload: found.upload, errors: found.errors.map((error) => described(c.var.t, error)) });
});
