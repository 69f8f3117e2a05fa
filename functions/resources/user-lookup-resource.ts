// UserLookupResource get: one person by username, for inviting collaborators by name (the
// contract's BoardCollaboratorResource takes user ids). Signed-in, full logins only; a user
// whose profile the viewer may not see (private, limited login) is the same 404 as no user.
import { z } from "zod";
import { requireFullViewer } from "../../src/accounts/guards.server.ts";
import { notFound } from "../../src/domain/errors.ts";
import { profileVisibleSql, userImageUrl, usernameSchema } from "../../src/users/user.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";

export const userLookupResource: ResourceDefinition = {
  get: defineHandler({
    options: z.strictObject({ username: usernameSchema }),
    async handle(c, options) {
      const viewer = requireFullViewer(c.var.ctx);
      const row = await c.env.DB.prepare(
        `SELECT u.id, u.username, u.full_name, u.image_key FROM users u WHERE u.username = ?1 COLLATE NOCASE AND ${profileVisibleSql("u", "?2")}`,
      )
        .bind(options.username, viewer.user.id)
        .first<{ id: number; username: string; full_name: string; image_key: string | null }>();
      if (!row) throw notFound("api.notFound");
      return { id: String(row.id), username: row.username, full_name: row.full_name, image_medium_url: userImageUrl(row.image_key, "medium") };
    },
  }),
};
