// InviteResource create: a signed-in person mints an invite code for a pin they can see, to
// share through one of the documented channels (src/invites/invite.ts INVITE_CHANNELS).
// Bounded per person per hour; a pin they cannot see answers the pin page's 404.
import { enforce } from "~/server/rate-limit.server.ts";
import { ApiError, ErrorCode } from "~/server/errors.ts";
import { notFound } from "~/domain/errors.ts";
import { INVITE_CREATE_RULE, createInvite, inviteCreateOptions } from "~/invites/invites.server.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";

export const inviteResource: ResourceDefinition = {
  create: defineHandler({
    options: inviteCreateOptions,
    async handle(c, options) {
      const { ctx } = c.var;
      if (!ctx.session) throw new ApiError(401, ErrorCode.Unauthorized, { message: "api.unauthorized" });
      if (ctx.viewerType !== "AUTH") throw new ApiError(403, ErrorCode.LimitedLogin, { message: "invites:api.fullLoginRequired" });
      // A write like any other: write-banned accounts cannot hand out links (spec 000 §6).
      if (ctx.session.user.is_write_banned === 1) throw new ApiError(403, ErrorCode.Forbidden, { message: "accounts:guard.writeBanned" });
      const senderId = ctx.session.user.id;
      await enforce(c.env.DB, INVITE_CREATE_RULE, senderId);
      const invite = await createInvite(c.env.DB, senderId, options.pin_id, options.invite_channel);
      if (!invite) throw notFound("api.pinNotFound");
      return invite;
    },
  }),
};
