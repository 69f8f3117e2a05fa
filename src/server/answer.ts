// How account calls answer: the v3 envelope {status, code, message, data}, never cached, with
// the session's Set-Cookie lines when one was started or ended.
import type { Context } from "hono";
import type { AppEnv } from "./context.ts";
import { toResourceError, type ApiError } from "./errors.ts";

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
