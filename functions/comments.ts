// The comment calls of spec 000 §7 that keep their /v3 paths (mounted at /v3), answering
// {status, code, message, data}.
//   POST|DELETE /v3/aggregated_comments/{id}/react/   {reaction_type: 1}
//   POST|DELETE /v3/helpful/1/{commentId}/
//   PUT         /v3/aggregated_comments/pin/highlight/ {aggregated_comment, pin, highlight}
//   PUT         /v3/aggregated_comments/{id}/flag/    {reason, detailedReasons?}
//   DELETE      /v3/aggregated_comments/{id}/mentions/
//   GET         /v3/aggregated_comments/{id}/translate/
//   POST        /v3/did_it/photos/                    multipart `pin_id`, `photo`
//   PUT         /v3/users/settings/comments/          {allow_comments?, allow_mentions?, passcode?}
import { Hono } from "hono";
import { z } from "zod";
import { success } from "~/server/answer.ts";
import { readForm, readParsed } from "~/server/body.ts";
import { flagComment, removeMention, setHelpful, setHighlight, setLike, translateComment } from "~/comments/actions.server.ts";
import { storeDidItPhoto } from "~/comments/did-it-posts.server.ts";
import { COMMENT_FEATURES, type FeatureMap } from "~/comments/comment.ts";
import { updateFeatures } from "~/comments/features.server.ts";
import { requireWriteAllowed } from "~/accounts/guards.server.ts";
import { afterWrite } from "~/server/after-write.ts";
import { clientIp, throttleSubject } from "~/server/client-ip.ts";
import type { AppEnv } from "~/server/context.ts";
import { enforce, RATE_RULES } from "~/server/rate-limit.server.ts";
import { badRequest, notFound } from "~/domain/errors.ts";
import { idSchema } from "~/social/guard.server.ts";
import { viewerIdOf } from "~/users/user.ts";

export const commentRoutes = new Hono<AppEnv>();

/** A path id as the API spells ids; anything else is a 404 like an unknown comment. */
function pathId(value: string | undefined): number {
  const parsed = idSchema.safeParse(value);
  if (!parsed.success) throw notFound("comments:api.notFound");
  return parsed.data;
}


// Form bodies carry every value as text; JSON ones as themselves.
const reactionType = z.union([z.literal(1), z.literal("1")]);
const flag = z.union([z.boolean(), z.enum(["true", "false"]).transform((value) => value === "true")]);

const reactBody = z.strictObject({ reaction_type: reactionType });
commentRoutes.post("/aggregated_comments/:id{[0-9]+}/react/", async (c) => {
  const id = pathId(c.req.param("id"));
  await readParsed(c, reactBody);
  return success(c, await setLike(c.env.DB, c.var.ctx, id, true));
});
// Taking a like back needs no body: there is one reaction type and one reaction per person.
commentRoutes.delete("/aggregated_comments/:id{[0-9]+}/react/", async (c) => success(c, await setLike(c.env.DB, c.var.ctx, pathId(c.req.param("id")), false)));

commentRoutes.post("/helpful/1/:id{[0-9]+}/", async (c) => success(c, await setHelpful(c.env.DB, c.var.ctx, pathId(c.req.param("id")), true)));
commentRoutes.delete("/helpful/1/:id{[0-9]+}/", async (c) => success(c, await setHelpful(c.env.DB, c.var.ctx, pathId(c.req.param("id")), false)));

const highlightBody = z.strictObject({ aggregated_comment: idSchema, pin: idSchema, highlight: flag });
commentRoutes.put("/aggregated_comments/pin/highlight/", async (c) => {
  const input = await readParsed(c, highlightBody);
  return success(c, afterWrite(c, await setHighlight(c.env.DB, c.var.ctx, input.aggregated_comment, input.pin, input.highlight)));
});

const flagBody = z.strictObject({
  reason: z.string().trim().min(1).max(50),
  detailedReasons: z.array(z.string().trim().min(1).max(100)).max(10).default([]),
  // The spec's client repeats the path's id in the body.
  commentId: idSchema.optional(),
});
commentRoutes.put("/aggregated_comments/:id{[0-9]+}/flag/", async (c) => {
  const id = pathId(c.req.param("id"));
  const input = await readParsed(c, flagBody);
  if (input.commentId !== undefined && input.commentId !== id) throw badRequest([{ field: "commentId", reason: "comments:validation.idMismatch" }]);
  return success(c, await flagComment(c.env.DB, c.var.ctx, id, input.reason, input.detailedReasons));
});

commentRoutes.delete("/aggregated_comments/:id{[0-9]+}/mentions/", async (c) => success(c, afterWrite(c, await removeMention(c.env.DB, c.var.ctx, pathId(c.req.param("id"))))));

commentRoutes.get("/aggregated_comments/:id{[0-9]+}/translate/", async (c) => {
  const reader = { viewerId: viewerIdOf(c.var.ctx), address: throttleSubject(clientIp(c.req.raw)), language: c.var.ctx.language };
  return success(c, await translateComment(c.env.DB, { cache: c.env.CACHE, ai: c.env.AI }, reader, pathId(c.req.param("id"))));
});

/**
 * One multipart `photo` for the pin named by the `pin_id` field (storeDidItPhoto). The upload
 * is counted before the body is read or stripped: both cost memory and CPU, so a flood of
 * uploads (valid or not) is refused before any of that work.
 */
commentRoutes.post("/did_it/photos/", async (c) => {
  await enforce(c.env.DB, RATE_RULES.didItPostPerUser, requireWriteAllowed(c.var.ctx).user.id);
  const type = (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "multipart/form-data") throw badRequest([{ field: "content-type", reason: "validation.invalidValue", values: { values: "multipart/form-data" } }]);
  const form = await readForm(c);
  const pinField = idSchema.safeParse(form.pin_id);
  if (!pinField.success) throw badRequest([{ field: "pin_id", reason: typeof form.pin_id === "string" ? "validation.invalidFormat" : "validation.required" }]);
  return success(c, await storeDidItPhoto(c.env.DB, c.env.MEDIA, c.var.ctx, pinField.data, form.photo));
});

/**
 * The settings page's form for the viewer's own comment features: the same change as
 * AggregatedCommentFeaturesResource.update (updateFeatures: the passcode when parental
 * controls are on, attempts throttled by requirePasscode), in the body shape every settings
 * form sends, so the page's script re-sends it with the passcode the modal asks for.
 */
const featuresBody = z.strictObject({ allow_comments: flag.optional(), allow_mentions: flag.optional(), passcode: z.string().max(64).optional() });
commentRoutes.put("/users/settings/comments/", async (c) => {
  const viewerId = requireWriteAllowed(c.var.ctx).user.id;
  const input = await readParsed(c, featuresBody);
  const featureMap = Object.fromEntries(COMMENT_FEATURES.flatMap((feature) => (input[feature] === undefined ? [] : [[feature, input[feature]]]))) as FeatureMap;
  return success(c, await updateFeatures(c.env.DB, c.var.ctx, viewerId, featureMap, input.passcode));
});
