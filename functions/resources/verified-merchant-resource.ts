// VerifiedMerchantResource (spec 002 §7, "method and payload not shown"): the program of one
// business as its members see it (get), applying (create), the shipping and return policy URLs
// (update) and leaving the program (delete). The same rules as the /v3 calls in
// functions/merchants.ts: a stranger gets 404, only an ADMIN of the business changes anything.
import { z } from "zod";
import { requireFullViewer, requireWriteAllowed } from "~/accounts/guards.server.ts";
import { idOption } from "~/boards/options.ts";
import { requireAction } from "~/business/core.server.ts";
import { apply, programOf, setPolicies, withdraw } from "~/merchants/merchants.server.ts";
import { policiesBody } from "~/merchants/program.ts";
import { purgePages } from "~/server/after-write.ts";
import { profilePaths } from "~/boards/write.server.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";

const businessOption = z.strictObject({ business_id: idOption });

export const verifiedMerchantResource: ResourceDefinition = {
  get: defineHandler({
    options: businessOption,
    handle: async (c, options) => programOf(c.env.DB, requireFullViewer(c.var.ctx).user.id, options.business_id),
  }),
  create: defineHandler({
    options: businessOption,
    handle: async (c, options) => apply(c.env.DB, requireWriteAllowed(c.var.ctx).user.id, options.business_id),
  }),
  update: defineHandler({
    options: z.strictObject({ business_id: idOption, ...policiesBody.shape }),
    async handle(c, { business_id, ...policies }) {
      const userId = requireWriteAllowed(c.var.ctx).user.id;
      await requireAction(c.env.DB, business_id, userId, "merchant.manage");
      return setPolicies(c.env.DB, userId, business_id, policies);
    },
  }),
  delete: defineHandler({
    options: businessOption,
    async handle(c, options) {
      const answer = await withdraw(c.env.DB, requireWriteAllowed(c.var.ctx).user.id, options.business_id);
      purgePages(c, profilePaths(answer.profile.username));
      return answer;
    },
  }),
};
