// Onboarding and the topic calls of spec 001 §7 under /v3 (mounted at /v3):
//   GET /v3/users/me/onboarding/                   → {step, finished, first_home_feed_request_after_nux}
//   PUT /v3/users/me/onboarding/  {step, country?, locale?} → the same, after the move
//   GET /v3/users/me/interests/?blend_type=followed|suggested|mixed → [topic]
//   GET /v3/orientation/nux_creator_recommendations/  → [creator]
//   GET /v3/boards/{id}/interests/                  → [topic] (anyone who may see the board)
// Answers are {status, code, message, data}; an unknown query parameter or a bad value is a
// 400 naming it.
import { Hono } from "hono";
import { z } from "zod";
import { requireFullViewer, requireWriteAllowed } from "~/accounts/guards.server.ts";
import { requireBoardAction } from "~/boards/access.server.ts";
import { idOption } from "~/boards/options.ts";
import { badRequest, notFound, zodProblems } from "~/domain/errors.ts";
import { success } from "~/server/answer.ts";
import { readFields } from "~/server/body.ts";
import type { AppEnv } from "~/server/context.ts";
import { parseLocale } from "~/context/locales.ts";
import { LOCALE_COOKIE } from "~/context/request-context.ts";
import { BLEND_TYPES, MAX_CREATOR_SUGGESTIONS, MAX_TOPICS_SHOWN, onboardingUpdateSchema } from "~/onboarding/onboarding.ts";
import { boardInterests, creatorRecommendations, interestsFor, moveOnboarding, onboardingOf } from "~/onboarding/onboarding.server.ts";

export const onboardingRoutes = new Hono<AppEnv>();

/** How long the locale cookie (read by the request context) is kept. */
const LOCALE_COOKIE_SECONDS = 365 * 24 * 60 * 60;

function parseWith<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw badRequest(zodProblems(parsed.error, "", input));
  return parsed.data;
}

const pageSize = (maximum: number) => z.coerce.number().int().min(1).max(maximum).optional();

onboardingRoutes.get("/users/me/onboarding/", (c) => {
  const session = requireFullViewer(c.var.ctx);
  parseWith(z.strictObject({}), c.req.query());
  return success(c, onboardingOf(session.user));
});

onboardingRoutes.put("/users/me/onboarding/", async (c) => {
  const session = requireWriteAllowed(c.var.ctx);
  const update = parseWith(onboardingUpdateSchema, await readFields(c));
  const answer = await moveOnboarding(c.env.DB, session.user.id, onboardingOf(session.user).step, update);
  // The language chosen is the interface's from the next page on (the request context reads this cookie).
  const locale = parseLocale(update.locale);
  return success(c, answer, locale ? [`${LOCALE_COOKIE}=${locale}; Path=/; Max-Age=${LOCALE_COOKIE_SECONDS}; Secure; SameSite=Lax`] : []);
});

onboardingRoutes.get("/users/me/interests/", async (c) => {
  const session = requireFullViewer(c.var.ctx);
  const query = parseWith(z.strictObject({ blend_type: z.enum(BLEND_TYPES).optional(), page_size: pageSize(MAX_TOPICS_SHOWN) }), c.req.query());
  return success(c, await interestsFor(c.env.DB, session.user.id, query.blend_type ?? "mixed", query.page_size));
});

onboardingRoutes.get("/orientation/nux_creator_recommendations/", async (c) => {
  const session = requireFullViewer(c.var.ctx);
  const query = parseWith(z.strictObject({ page_size: pageSize(MAX_CREATOR_SUGGESTIONS) }), c.req.query());
  return success(c, await creatorRecommendations(c.env.DB, session.user.id, query.page_size));
});

onboardingRoutes.get("/boards/:id{[0-9]+}/interests/", async (c) => {
  const parsed = idOption.safeParse(c.req.param("id"));
  if (!parsed.success) throw notFound("api.boardNotFound");
  parseWith(z.strictObject({}), c.req.query());
  const { viewerId } = await requireBoardAction(c.env.DB, c.var.ctx, parsed.data, "view_public");
  return success(c, await boardInterests(c.env.DB, parsed.data, viewerId));
});
