// Who may call what (spec 000 §6). Every later feature asks these instead of reading the
// viewer itself: signed out → 401, limited login → 403 code 17, write-banned → 403.
import type { Context } from "hono";
import type { AppEnv } from "../server/context.ts";
import { ApiError, ErrorCode } from "../server/errors.ts";
import type { Session } from "./session.server.ts";

export const signedOut = () => new ApiError(401, ErrorCode.Unauthorized, { message: "api.unauthorized" });

/** Any live session, limited login included (reading your own account, signing out). */
export function requireSession(c: Context<AppEnv>): Session {
  const session = c.var.ctx.session;
  if (!session) throw signedOut();
  return session;
}

/** A full login: limited-login viewers get 403 code 17 and are asked to log in fully. */
export function requireFullViewer(c: Context<AppEnv>): Session {
  const session = requireSession(c);
  if (c.var.ctx.viewerType === "LIMITED_LOGIN") {
    throw new ApiError(403, ErrorCode.LimitedLogin, { message: "accounts:guard.limitedLogin" });
  }
  return session;
}

/** A full login that may change things: write-banned accounts get 403. */
export function requireWriteAllowed(c: Context<AppEnv>): Session {
  const session = requireFullViewer(c);
  if (session.user.is_write_banned === 1) {
    throw new ApiError(403, ErrorCode.Forbidden, { message: "accounts:guard.writeBanned" });
  }
  return session;
}
