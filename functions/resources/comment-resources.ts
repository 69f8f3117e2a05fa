// The comment XResources: UnifiedCommentsResource (list),
// AggregatedCommentResource (post, edit, delete), AggregatedCommentHideResource and
// AggregatedCommentFeaturesResource.
import { z } from "zod";
import { COMMENT_TEXT_MAX, commentTextSchema, featureMapSchema, tagsSchema } from "~/comments/comment.ts";
import { createComment, deleteComment, hideComment, listComments, updateComment } from "~/comments/comments.server.ts";
import { getFeatures, updateFeatures } from "~/comments/features.server.ts";
import { afterWrite } from "~/server/after-write.ts";
import { idSchema } from "~/social/guard.server.ts";
import { viewerIdOf } from "~/users/user.ts";
import { claimOf } from "~/server/client-request.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";
import { bookmarkKeyset, feedAnswer, keysetBookmark, pageSize } from "./paging.ts";

/**
 * The text as sent, checked 1..500 after trimming; the raw string travels on, because tag
 * offsets count in it (src/comments/comment.ts alignTags).
 */
const rawText = z.string().superRefine((value, ctx) => {
  const parsed = commentTextSchema.safeParse(value);
  if (parsed.success) return;
  const problem = parsed.error.issues[0]?.message === "tooLong" ? "tooLong" : "empty";
  ctx.addIssue({ code: "custom", message: `comments:validation.${problem}`, params: { values: { maximum: COMMENT_TEXT_MAX } } });
});

export const unifiedCommentsResource: ResourceDefinition = {
  get: defineHandler({
    options: z.strictObject({ pin_id: idSchema, parent_id: idSchema.optional(), bookmark: keysetBookmark.optional(), page_size: pageSize.default(20) }),
    handle: async (c, o) =>
      feedAnswer(await listComments(c.env.DB, viewerIdOf(c.var.ctx), { pin_id: o.pin_id, parent_id: o.parent_id, bookmark: bookmarkKeyset(o.bookmark), page_size: o.page_size })),
  }),
};

export const aggregatedCommentResource: ResourceDefinition = {
  create: defineHandler({
    options: z.strictObject({ pin_id: idSchema, text: rawText, tags: tagsSchema.default([]), parent_id: idSchema.optional() }),
    appliesOnce: true,
    handle: async (c, o) => afterWrite(c, await createComment(c.env.DB, c.var.ctx, { pin_id: o.pin_id, raw: o.text, tags: o.tags, parent_id: o.parent_id }, claimOf(c))),
  }),
  update: defineHandler({
    options: z.strictObject({ commentId: idSchema, text: rawText, tags: tagsSchema.optional(), force: z.boolean().optional(), orbacSubjectId: idSchema.optional() }),
    handle: async (c, o) => afterWrite(c, await updateComment(c.env.DB, c.var.ctx, { commentId: o.commentId, raw: o.text, tags: o.tags, orbacSubjectId: o.orbacSubjectId })),
  }),
  delete: defineHandler({
    options: z.strictObject({ commentId: idSchema }),
    handle: async (c, o) => afterWrite(c, await deleteComment(c.env.DB, c.var.ctx, o.commentId)),
  }),
};

export const aggregatedCommentHideResource: ResourceDefinition = {
  create: defineHandler({
    options: z.strictObject({ commentId: idSchema, for_user: z.boolean().default(false) }),
    handle: async (c, o) => afterWrite(c, await hideComment(c.env.DB, c.var.ctx, o.commentId, o.for_user)),
  }),
};

export const aggregatedCommentFeaturesResource: ResourceDefinition = {
  get: defineHandler({
    options: z.strictObject({ userId: idSchema }),
    handle: (c, o) => getFeatures(c.env.DB, c.var.ctx, o.userId),
  }),
  update: defineHandler({
    options: z.strictObject({ userId: idSchema, featureMap: featureMapSchema, passcode: z.string().max(64).optional() }),
    handle: (c, o) => updateFeatures(c.env.DB, c.var.ctx, o.userId, o.featureMap, o.passcode),
  }),
};
