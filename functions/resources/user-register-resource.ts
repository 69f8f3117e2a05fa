// UserRegisterResource create (spec 000 §7): the sign-up body as options, answered like the
// register handshake followed by the session exchange, in one step and one D1 batch (the user
// row and its first session together).
import { sessionPayload, userRow } from "~/accounts/answer.server.ts";
import { parseSignup, prepareUser, runSignupBatch } from "~/accounts/register.server.ts";
import { startSession } from "~/accounts/session.server.ts";
import { z } from "zod";
import { signupOrigin } from "~/server/client-ip.ts";
import { internalError } from "~/server/errors.ts";
import { signupConsent } from "../consent.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";

export const userRegisterResource: ResourceDefinition = {
  create: defineHandler({
    // Validated by parseSignup (strict, bounded) so every refusal, the password rule's words
    // included, matches the register handshake's.
    options: z.record(z.string(), z.unknown()),
    async handle(c, options) {
      const body = parseSignup(options, c.var.ctx.country);
      const db = c.env.DB;
      const prepared = await prepareUser(c.env, signupOrigin(c.req.raw), body, null);
      const session = await startSession(db, c.req.raw, prepared.userId);
      await runSignupBatch(db, [prepared.statement, ...prepared.companions, ...signupConsent(c, prepared.userId), ...session.statements]);
      for (const cookie of session.cookies) c.header("Set-Cookie", cookie, { append: true });
      const row = await userRow(db, prepared.userId);
      if (!row) throw internalError(new Error("user row missing after sign-up"));
      return sessionPayload(row, session.expiresAt);
    },
  }),
};
