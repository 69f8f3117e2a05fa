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
import { Hono, type Context } from "hono";
import { z } from "zod";
import { success } from "../src/accounts/answer.server.ts";
import { readFields } from "../src/server/body.ts";
import { flagComment, removeMention, setHelpful, setHighlight, setLike, translateComment } from "../src/comments/actions.server.ts";
import { uploadDidItPhoto } from "../src/comments/did-it-posts.server.ts";
import { COMMENT_FEATURES, type FeatureMap } from "../src/comments/comment.ts";
import { updateFeatures } from "../src/comments/features.server.ts";
import { requireWriteAllowed } from "../src/accounts/guards.server.ts";
import type { AppEnv } from "../src/server/context.ts";
import { badRequest, notFound, zodProblems } from "../src/server/errors.ts";
import { idSchema } from "../src/social/guard.server.ts";

export const commentRoutes = new Hono<AppEnv>();

/** A path id as the API spells ids; anything else is a 404 like an unknown comment. */
function pathId(value: string | undefined): number {
  const parsed = idSchema.safeParse(value);
  if (!parsed.success) throw notFound("comments:api.notFound");
  return parsed.data;
}

async function body<Schema extends z.ZodType>(c: Context<AppEnv>, schema: Schema): Promise<z.output<Schema>> {
  const input = await readFields(c);
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw badRequest(zodProblems(parsed.error, "", input));
  return parsed.data;
}

// Form bodies carry every value as text; JSON ones as themselves.
const reactionType = z.union([z.literal(1), z.literal("1")]);
const flag = z.union([z.boolean(), z.enum(["true", "false"]).transform((value) => value === "true")]);

const reactBody = z.strictObject({ reaction_type: reactionType });
commentRoutes.post("/aggregated_comments/:id{[0-9]+}/react/", async (c) => {
  const id = pathId(c.req.param("id"));
  await body(c, reactBody);
  return success(c, await setLike(c, id, true));
});
// Taking a like back needs no body: there is one reaction type and one reaction per person.
commentRoutes.delete("/aggregated_comments/:id{[0-9]+}/react/", async (c) => success(c, await setLike(c, pathId(c.req.param("id")), false)));

commentRoutes.post("/helpful/1/:id{[0-9]+}/", async (c) => success(c, await setHelpful(c, pathId(c.req.param("id")), true)));
commentRoutes.delete("/helpful/1/:id{[0-9]+}/", async (c) => success(c, await setHelpful(c, pathId(c.req.param("id")), false)));

const highlightBody = z.strictObject({ aggregated_comment: idSchema, pin: idSchema, highlight: flag });
commentRoutes.put("/aggregated_comments/pin/highlight/", async (c) => {
  const input = await body(c, highlightBody);
  return success(c, await setHighlight(c, input.aggregated_comment, input.pin, input.highlight));
});

const flagBody = z.strictObject({
  reason: z.string().trim().min(1).max(50),
  detailedReasons: z.array(z.string().trim().min(1).max(100)).max(10).default([]),
  // The spec's client repeats the path's id in the body.
  commentId: idSchema.optional(),
});
commentRoutes.put("/aggregated_comments/:id{[0-9]+}/flag/", async (c) => {
  const id = pathId(c.req.param("id"));
  const input = await body(c, flagBody);
  if (input.commentId !== undefined && input.commentId !== id) throw badRequest([{ field: "commentId", reason: "comments:validation.idMismatch" }]);
  return success(c, await flagComment(c, id, input.reason, input.detailedReasons));
});

commentRoutes.delete("/aggregated_comments/:id{[0-9]+}/mentions/", async (c) => success(c, await removeMention(c, pathId(c.req.param("id")))));

commentRoutes.get("/aggregated_comments/:id{[0-9]+}/translate/", async (c) => success(c, await translateComment(c, pathId(c.req.param("id")))));

commentRoutes.post("/did_it/photos/", async (c) => success(c, await uploadDidItPhoto(c)));

/**
 * The settings page's form for the viewer's own comment features: the same change as
 * AggregatedCommentFeaturesResource.update (updateFeatures: the passcode when parental
 * controls are on, attempts throttled by requirePasscode), in the body shape every settings
 * form sends, so the page's script re-sends it with the passcode the modal asks for.
 */
const featuresBody = z.strictObject({ allow_comments: flag.optional(), allow_mentions: flag.optional(), passcode: z.string().max(64).optional() });
commentRoutes.put("/users/settings/comments/", async (c) => {
  const viewerId = requireWriteAllowed(c).user.id;
  const input = await body(c, featuresBody);
  const featureMap = Object.fromEntries(COMMENT_FEATURES.flatMap((feature) => (input[feature] === undefined ? [] : [[feature, input[feature]]]))) as FeatureMap;
  return success(c, await updateFeatures(c, viewerId, featureMap, input.passcode));
});
