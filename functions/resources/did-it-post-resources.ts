// Tried-it posts: DidItActivityResource (post, delete) and DidItUserFeedResource (a pin's posts).
import { z } from "zod";
import { DID_IT_DETAILS_MAX } from "~/comments/comment.ts";
import { createDidItPost, deleteDidItPost, listDidItPosts } from "~/comments/did-it-posts.server.ts";
import { afterWrite } from "~/server/after-write.ts";
import { idSchema } from "~/social/guard.server.ts";
import { viewerIdOf } from "~/users/user.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";
import { bookmarkKeyset, feedAnswer, keysetBookmark, pageSize } from "./paging.ts";

export const didItActivityResource: ResourceDefinition = {
  create: defineHandler({
    options: z.strictObject({
      pin_id: idSchema,
      details: z.string().max(5000).trim().min(1).max(DID_IT_DETAILS_MAX),
      image_signature: z.string().max(64).optional(),
    }),
    handle: async (c, o) => afterWrite(c, await createDidItPost(c.env.DB, c.var.ctx, o.pin_id, o.details, o.image_signature)),
  }),
  delete: defineHandler({
    options: z.strictObject({ did_it_id: idSchema }),
    handle: async (c, o) => afterWrite(c, await deleteDidItPost(c.env.DB, c.var.ctx, o.did_it_id)),
  }),
};

export const didItUserFeedResource: ResourceDefinition = {
  get: defineHandler({
    options: z.strictObject({ pin_id: idSchema, bookmark: keysetBookmark.optional(), page_size: pageSize.default(20) }),
    handle: async (c, o) => feedAnswer(await listDidItPosts(c.env.DB, viewerIdOf(c.var.ctx), o.pin_id, bookmarkKeyset(o.bookmark), o.page_size)),
  }),
};
