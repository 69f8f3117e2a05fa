// UserLookupResource get: one person by username, for inviting collaborators and mentioning by name (the
// BoardCollaboratorResource takes user ids). Signed-in, full logins only; a user
// whose profile the viewer may not see (private, limited login) or with whom a block stands is the same 404 as no user.
import { z } from "zod";
import { requireFullViewer } from "~/accounts/guards.server.ts";
import { notFound } from "~/domain/errors.ts";
import { userImageUrl, usernameSchema } from "~/users/user.ts";
import { findVisibleUser } from "~/users/users.server.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";

export const userLookupResource: ResourceDefinition = {
  get: defineHandler({
    options: z.strictObject({ username: usernameSchema }),
    async handle(c, options) {
      const viewer = requireFullViewer(c.var.ctx);
      const row = await findVisibleUser(c.env.DB, options.username, viewer.user.id);
      if (!row) throw notFound("api.notFound");
      return { id: String(row.id), username: row.username, full_name: row.full_name, image_medium_url: userImageUrl(row.image_key, "medium") };
    },
  }),
};
