// Session calls outside /v3 (spec 000 §7): GET /refresh_token, GET /refresh_stored_accounts,
// POST /vx/users/cctld_token/, and the country-domain end of that hand-off, POST /cctld_session/.
import { Hono } from "hono";
import { z } from "zod";
import { sessionPayload, userRow } from "~/accounts/answer.server.ts";
import { success } from "~/server/answer.ts";
import { readFields } from "~/server/body.ts";
import { requireSession } from "~/accounts/guards.server.ts";
import { invalidToken, peekToken, spendWith, storeToken } from "~/accounts/handshake.server.ts";
import { enforce, RATE_RULES } from "~/server/rate-limit.server.ts";
import { daysToExpiration, readSessionWith, replaceSession, startSession, TOKEN_REFRESH_WINDOW_DAYS } from "~/accounts/session.server.ts";
import { sessionAccounts } from "~/accounts/switcher.server.ts";
import type { AppEnv } from "~/server/context.ts";
import { ApiError, ErrorCode } from "~/server/errors.ts";
import { badRequest, notFound } from "~/domain/errors.ts";

export const sessionRoutes = new Hono<AppEnv>();

/** Path of the country-domain session endpoint the cctld token is posted to. */
const CCTLD_SESSION_PATH = "/cctld_session/";

/**
 * The family of domains this Worker serves, main and country domains alike, from CCTLD_HOSTS
 * ("pinloom.com, pinloom.fr, pinloom.de"); bounded, hostnames only.
 */
function cctldHosts(env: Env): string[] {
  return (env.CCTLD_HOSTS ?? "")
    .split(",")
    .map((host) => host.trim().toLowerCase())
    .filter((host) => /^[a-z0-9.-]{1,253}$/.test(host))
    .slice(0, 50);
}

// Spec 000 §4 "Token refresh": the client calls this once its session has fewer than 90 days
// left. Inside that window the session gets a new id and a full lifetime (the old id stops
// working at once); outside it nothing changes, so a stray call cannot churn sessions.
sessionRoutes.get("/refresh_token", async (c) => {
  requireSession(c.var.ctx);
  const db = c.env.DB;
  // A GET that mints a session: it reads its session from D1, never from the isolate's cache,
  // so a session revoked on another isolate a moment ago cannot refresh itself into a live one.
  const session = requireSession({ ...c.var.ctx, session: (await readSessionWith(db, c.req.raw, null, Date.now(), { cached: false })).session });
  if (daysToExpiration(session.expiresAt) > TOKEN_REFRESH_WINDOW_DAYS) {
    return success(c, { days_to_expiration: daysToExpiration(session.expiresAt) });
  }
  const next = await startSession(db, c.req.raw, session.user.id);
  await replaceSession(db, session.id, next);
  return success(c, { days_to_expiration: daysToExpiration(next.expiresAt) }, next.cookies);
});

sessionRoutes.get("/refresh_stored_accounts", async (c) => {
  return success(c, { session_accounts: await sessionAccounts(c.env.DB, c.req.raw) });
});

const cctldSchema = z.strictObject({ host: z.string().max(253).optional() });

sessionRoutes.post("/vx/users/cctld_token/", async (c) => {
  const session = requireSession(c.var.ctx);
  const hosts = cctldHosts(c.env);
  if (hosts.length === 0) throw notFound();
  const parsed = cctldSchema.safeParse(await readFields(c));
  if (!parsed.success) throw badRequest([{ field: "host", reason: "validation.invalid" }]);
  const here = new URL(c.req.url).hostname;
  const host = parsed.data.host?.toLowerCase() ?? hosts.find((candidate) => candidate !== here);
  if (host === undefined) throw notFound();
  if (!hosts.includes(host) || host === here) throw badRequest([{ field: "host", reason: "validation.invalidValue", values: { values: hosts.join(", ") } }]);
  await enforce(c.env.DB, RATE_RULES.cctldPerAccount, session.user.id);
  const token = await storeToken(c.env.DB, session.user.id, "cctld");
  return success(c, { token, url: `https://${host}${CCTLD_SESSION_PATH}` });
});

// The country domain's end: a form POST {token} from the main site. It is cross-site by
// nature, so the CSRF middleware lets this one path through on its Origin alone
// (src/server/csrf.ts) and the check is here: the Origin must be one of our own domains,
// which stops another site from logging a visitor into the attacker's account.
sessionRoutes.post(CCTLD_SESSION_PATH, async (c) => {
  const hosts = cctldHosts(c.env);
  if (hosts.length === 0) throw notFound();
  const origin = c.req.header("origin");
  const ownOrigins = new Set([new URL(c.req.url).origin, ...hosts.map((host) => `https://${host}`)]);
  if (origin === undefined || !ownOrigins.has(origin)) {
    throw new ApiError(403, ErrorCode.CsrfFailed, { message: "api.csrfFailed", extraData: { reason: "origin" } });
  }
  const fields = await readFields(c);
  const token = typeof fields.token === "string" ? fields.token : "";
  const db = c.env.DB;
  const userId = await peekToken(db, token, "cctld");
  if (userId === null) throw invalidToken();
  const session = await startSession(db, c.req.raw, userId, Date.now(), { withDevice: false });
  await spendWith(db, token, "cctld", userId, session.statements);
  const row = await userRow(db, userId);
  if (!row) throw invalidToken();
  return success(c, sessionPayload(row, session.expiresAt), session.cookies);
});
