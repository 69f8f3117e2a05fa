// UserSessionResource (spec 000 §7): create lists this device's accounts for the switcher and
// switches between them; delete signs out. Switching needs no password because the target
// account already has a live session on THIS device (the device cookie is HttpOnly and
// __Host-); it gets a new session id, and the account switched away from stays signed in.
import { z } from "zod";
import { sessionPayload, userRow } from "../../src/accounts/answer.server.ts";
import { safeRedirectPath } from "../../src/accounts/redirect.ts";
import { clearCookie, deviceSessions, endSession, saveSession, SESSION_COOKIE, startSession } from "../../src/accounts/session.server.ts";
import { deviceIdOf, sessionAccounts } from "../../src/accounts/switcher.server.ts";
import { ApiError, ErrorCode } from "../../src/server/errors.ts";
import { clientIp } from "../../src/server/client-ip.ts";
import { enforce, RATE_RULES } from "../../src/server/rate-limit.server.ts";
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
      const deviceId = await deviceIdOf(c.req.raw);
      // Every switch writes a session row: bounded per device (or per address without one).
      await enforce(db, RATE_RULES.switchPerDevice, deviceId ?? clientIp(c.req.raw));
      const live = deviceId ? await deviceSessions(db, deviceId) : [];
      if (!live.some((session) => session.user.id === targetId)) {
        throw new ApiError(403, ErrorCode.Forbidden, { message: "accounts:switch.notOnDevice" });
      }
      const session = await startSession(db, c.req.raw, targetId);
      await saveSession(db, session);
      for (const cookie of session.cookies) c.header("Set-Cookie", cookie, { append: true });
      const row = await userRow(db, targetId);
      if (!row) throw new ApiError(403, ErrorCode.Forbidden, { message: "accounts:switch.notOnDevice" });
      return { session_accounts: await sessionAccounts(db, c.req.raw), user: sessionPayload(row, session.expiresAt).user };
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
