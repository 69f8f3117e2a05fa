// InviteMetadataResource get (spec 000 §7 "Invite metadata get: by invite_code"): who sent the
// invite a landing page carries, as §3 lists it. Throttled per client address; an unknown,
// expired or not-visible invite is one and the same 404.
import { enforce } from "~/server/rate-limit.server.ts";
import { clientIp } from "~/server/client-ip.ts";
import { notFound } from "~/domain/errors.ts";
import { viewerIdOf } from "~/users/user.ts";
import { INVITE_LOOKUP_RULE, inviteMetadataOptions, lookupInvite } from "~/invites/invites.server.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";

export const inviteMetadataResource: ResourceDefinition = {
  get: defineHandler({
    options: inviteMetadataOptions,
    async handle(c, options) {
      await enforce(c.env.DB, INVITE_LOOKUP_RULE, clientIp(c.req.raw));
      // The pin page's viewer: whoever's session it is sees what their own page would show.
      const invite = await lookupInvite(c.env.DB, options.invite_code, viewerIdOf(c.var.ctx));
      if (!invite) throw notFound();
      return invite;
    },
  }),
};
