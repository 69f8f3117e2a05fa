// UserSessionResource (spec 000 §7): create lists this device's accounts for the switcher and
// switches between them; delete signs out. Switching needs no password because the target
// account already has a live session on THIS device; it gets a new session id with that
// session's own expiry, the device gets a new token, and the account switched away from stays
// signed in. An account whose session on the device expired answers 401 code 19 with its
// username: the switcher shows the login form for it.
import { z } from "zod";
import { sessionPayload, userRow } from "~/accounts/answer.server.ts";
import { safeRedirectPath } from "~/accounts/redirect.ts";
import { clearCookie, endSession, SESSION_COOKIE } from "~/accounts/session.server.ts";
import { accountsOnDevice, sessionAccounts, switchAccount } from "~/accounts/switcher.server.ts";
import { ApiError, ErrorCode } from "~/server/errors.ts";
import { clientIp, throttleSubject } from "~/server/client-ip.ts";
import { enforce, RATE_RULES } from "~/server/rate-limit.server.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";

const createOptions = z.strictObject({
  session_accounts: z.literal(true),
  switch_to_user_id: z.string().regex(/^\d{1,20}$/).optional(),
});

const deleteOptions = z.strictObject({
  disable_auth_failure_redirect: z.boolean().optional(),
  reason: z.string().max(64).optional(),
  next: z.string().max(2048).optional(),
});

export const userSessionResource: ResourceDefinition = {
  create: defineHandler({
    options: createOptions,
    async handle(c, options) {
      const db = c.env.DB;
      if (options.switch_to_user_id === undefined) return { session_accounts: await sessionAccounts(db, c.req.raw) };
      const targetId = Number(options.switch_to_user_id);
      // Every switch writes a session row: bounded per address (the device's token changes with each).
      await enforce(db, RATE_RULES.switchPerAddress, throttleSubject(clientIp(c.req.raw)));
      const outcome = await switchAccount(db, c.req.raw, targetId);
      if (outcome.kind === "password") {
        throw new ApiError(401, ErrorCode.ReauthRequired, { message: "accounts:switch.passwordAgain", extraData: { username_or_email: outcome.username } });
      }
      if (outcome.kind === "changed") throw new ApiError(409, ErrorCode.Conflict, { message: "accounts:switch.changed" });
      if (outcome.kind === "notOnDevice") throw new ApiError(403, ErrorCode.Forbidden, { message: "accounts:switch.notOnDevice" });
      for (const cookie of outcome.cookies) c.header("Set-Cookie", cookie, { append: true });
      const row = await userRow(db, targetId);
      if (!row) throw new ApiError(403, ErrorCode.Forbidden, { message: "accounts:switch.notOnDevice" });
      return { session_accounts: await accountsOnDevice(db, outcome.deviceId), user: sessionPayload(row, outcome.expiresAt).user };
    },
  }),
  delete: defineHandler({
    options: deleteOptions,
    async handle(c, options) {
      const session = c.var.ctx.session;
      // Idempotent: signed out already is still a success with the same redirect.
      if (session) await endSession(c.env.DB, session.id);
      c.header("Set-Cookie", clearCookie(SESSION_COOKIE), { append: true });
      return { redirect_url: safeRedirectPath(options.next) };
    },
  }),
};
