// How account calls answer: the v3 envelope {status, code, message, data}, never cached, with
// the session's Set-Cookie lines when one was started or ended.
import type { Context } from "hono";
import type { AppEnv } from "../server/context.ts";
import { toResourceError, type ApiError } from "../server/errors.ts";
import { daysToExpiration } from "./session.server.ts";
import { toLimitedViewer, toViewer, viewerColumns, viewerTypeOf, type ViewerUserRow } from "./viewer.ts";

export function success(c: Context<AppEnv>, data: unknown, cookies: readonly string[] = []): Response {
  for (const cookie of cookies) c.header("Set-Cookie", cookie, { append: true });
  return c.json({ status: "success", code: 0, message: "ok", data }, 200, { "Cache-Control": "private, no-store" });
}

/** A failure that still carries data (the MFA challenge token of a 409); else as errorResponse. */
export function failureWithData(c: Context<AppEnv>, error: ApiError, data: unknown): Response {
  const body = toResourceError(error, c.var.t);
  return c.json({ status: "failure", data, error: body, ...body }, error.status, {
    "Cache-Control": "private, no-store",
  });
}

export async function userRow(db: D1Database, userId: number): Promise<ViewerUserRow | null> {
  return db.prepare(`SELECT ${viewerColumns("u")} FROM users u WHERE u.id = ?1`).bind(userId).first<ViewerUserRow>();
}

/** What a new session answers: the viewer (spec §3; the limited-login viewer for LIMITED_LOGIN). */
export function sessionPayload(row: ViewerUserRow, expiresAt: number) {
  const viewerType = viewerTypeOf(row);
  return {
    user: viewerType === "LIMITED_LOGIN" ? toLimitedViewer(row) : toViewer(row),
    viewer_type: viewerType,
    days_to_expiration: daysToExpiration(expiresAt),
  };
}
