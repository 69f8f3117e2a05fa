// Advertiser recommendations (spec 002 §7): mounted at /ads/v4 and answering as the spec's
// client reads them, {resource_response: {status, code, message, data}}, failures included (with
// data [] so a client's failure leaves an empty list). Members of the ad account's business read
// them; anyone else is told the ad account does not exist.
//   GET /ads/v4/notification_messages/RECOMMENDATIONS/?recipient_id={adAccountId}&recipient_type=ADVERTISER
//   PUT /ads/v4/notification_messages/RECOMMENDATIONS/{kind}/?recipient_id&recipient_type   {state, snooze_days?}
import { Hono, type Context } from "hono";
import { requireFullViewer, requireWriteAllowed } from "~/accounts/guards.server.ts";
import { RECOMMENDATION_KINDS, recommendationQuery, recommendationUpdate, type RecommendationKind } from "~/business/recommendations.ts";
import { accountFor, answerRecommendation, listRecommendations } from "~/business/recommendations.server.ts";
import { readParsed } from "~/server/body.ts";
import type { AppEnv } from "~/server/context.ts";
import { badRequest, DomainError, notFound, zodProblems } from "~/domain/errors.ts";
import { ApiError, internalError, toApiError, toResourceError } from "~/server/errors.ts";
import { isStorageUnavailable, unavailable } from "~/server/unavailable.ts";

export const recommendationRoutes = new Hono<AppEnv>();

const PATH = "/notification_messages/RECOMMENDATIONS/";

/** The answer in resource_response, a failure with empty data and the error beside it. */
async function answer(c: Context<AppEnv>, work: () => Promise<unknown>): Promise<Response> {
  try {
    return c.json({ resource_response: { status: "success", code: 0, message: "ok", data: await work() } }, 200, { "Cache-Control": "private, no-store" });
  } catch (thrown) {
    const error = thrown instanceof ApiError || thrown instanceof DomainError ? toApiError(thrown) : isStorageUnavailable(thrown) ? unavailable(thrown) : internalError(thrown);
    if (error.status >= 500) console.error(error.cause ?? error);
    const body = toResourceError(error, c.var.t);
    return c.json({ resource_response: { status: "failure", code: body.code, message: body.message, data: [], error: body } }, error.status, { "Cache-Control": "private, no-store" });
  }
}

function recipient(c: Context<AppEnv>): number {
  const input = c.req.query();
  const parsed = recommendationQuery.safeParse(input);
  if (!parsed.success) throw badRequest(zodProblems(parsed.error, "", input));
  return Number(parsed.data.recipient_id);
}

recommendationRoutes.get(PATH, (c) => answer(c, async () => listRecommendations(c.env.DB, requireFullViewer(c.var.ctx).user.id, recipient(c))));

recommendationRoutes.put(`${PATH}:kind/`, (c) =>
  answer(c, async () => {
    const userId = requireWriteAllowed(c.var.ctx).user.id;
    const adAccountId = recipient(c);
    const kind = c.req.param("kind");
    if (!(RECOMMENDATION_KINDS as readonly string[]).includes(kind)) throw notFound("business:recommendations.notFound");
    // Who may, before what they sent: a stranger learns nothing from a 400.
    await accountFor(c.env.DB, userId, adAccountId, "recommendation.update");
    return answerRecommendation(c.env.DB, userId, adAccountId, kind as RecommendationKind, await readParsed(c, recommendationUpdate));
  }),
);
