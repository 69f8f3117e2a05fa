// SponsorshipResource update: the pin's creator or sponsor approves, declines or deletes.
import { z } from "zod";
import { idSchema } from "~/social/guard.server.ts";
import { SPONSORSHIP_ACTIONS } from "~/social/sponsorship.ts";
import { updateSponsorship } from "~/social/sponsorship.server.ts";
import { afterWrite } from "~/server/after-write.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";

export const sponsorshipResource: ResourceDefinition = {
  update: defineHandler({
    options: z.strictObject({ pin_id: idSchema, action: z.enum(SPONSORSHIP_ACTIONS) }),
    handle: async (c, o) => afterWrite(c, await updateSponsorship(c.env.DB, c.var.ctx, o.pin_id, o.action)),
  }),
};
