// The request context, built once by Hono and read by Astro pages. Astro receives the same
// ExecutionContext object Hono got (as locals.cfContext), so it is the key that ties them.
import type { MiddlewareHandler } from "hono";
import { buildRequestContext, type RequestContext } from "~/context/request-context.ts";
import { getT, loadLocale, type TFunction } from "~/i18n/i18n.ts";
import {
  carriesSessionCookie,
  clearCookie,
  forgetSessions,
  readSessionWith,
  sessionWritesBegin,
  sessionWritesDone,
  touchSession,
  SESSION_COOKIE,
  type SessionCompanion,
} from "~/accounts/session.server.ts";

const contexts = new WeakMap<object, RequestContext>();

interface AppVariables {
  ctx: RequestContext;
  t: TFunction;
}
export type AppEnv = { Bindings: Env; Variables: AppVariables };

function runtimeCountry(request: Request): string | undefined {
  const cf = (request as Request & { cf?: { country?: unknown } }).cf;
  return typeof cf?.country === "string" ? cf.country : undefined;
}

function runtimeRegion(request: Request): string | undefined {
  const cf = (request as Request & { cf?: { regionCode?: unknown } }).cf;
  return typeof cf?.regionCode === "string" ? cf.regionCode : undefined;
}

/**
 * A read that rides in the session's own statement for some requests, and where its value
 * goes on the context: the app gives the member page's (src/member-page/), so this
 * middleware knows nothing of what it reads.
 */
type BesideSession = (method: string, path: string) => { companion: SessionCompanion; keep: (ctx: RequestContext, value: unknown) => void } | null;

/** Requests that change nothing: their session may come from the isolate's session cache. */
const SAFE_METHODS = new Set(["GET", "HEAD"]);

export function requestContext(besideSession: BesideSession = () => null): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    // Only a request carrying a session cookie pays for the D1 read; signed-out traffic does not.
    const cookies = c.req.header("cookie");
    // A signed-in close-up reads the viewer's state for a member page beside the session.
    const beside = besideSession(c.req.method, c.req.path);
    // A request that may write reads its session from D1 (never the cache): a session revoked on
    // any isolate never writes again.
    const safe = SAFE_METHODS.has(c.req.method);
    const { session, companion } = carriesSessionCookie(cookies)
      ? await readSessionWith(c.env.DB, c.req.raw, beside?.companion ?? null, Date.now(), { cached: safe })
      : { session: null, companion: null };
    if (session) {
      const touch = touchSession(c.env.DB, session);
      if (touch) c.executionCtx.waitUntil(touch);
    }
    const ctx = buildRequestContext(c.req.raw, { country: () => runtimeCountry(c.req.raw), region: () => runtimeRegion(c.req.raw), countryHosts: c.env.CCTLD_HOSTS, session });
    if (beside && session) beside.keep(ctx, companion);
    await loadLocale(ctx.locale);
    c.set("ctx", ctx);
    c.set("t", getT(ctx.locale));
    contexts.set(c.executionCtx, ctx);
    const writes = safe ? null : sessionWritesBegin();
    try {
      await next();
    } finally {
      if (writes !== null) {
        // What a signed-in person writes may change their own Session (their users row, their
        // sessions): their cached sessions in this isolate go, so their next request reads D1.
        if (session) forgetSessions({ userIds: [session.user.id], deviceIds: [session.deviceId] });
        // Forgets made while the writes were being built are repeated now they have committed.
        sessionWritesDone(writes);
      }
    }
    // A cookie naming a revoked or expired session is dropped, so the browser stops sending it.
    if (session === null && cookies?.includes(`${SESSION_COOKIE}=`) && !c.res.headers.getSetCookie().some((line) => line.startsWith(`${SESSION_COOKIE}=`))) {
      c.res = new Response(c.res.body, c.res);
      c.res.headers.append("Set-Cookie", clearCookie(SESSION_COOKIE));
    }
  };
}

/**
 * Runs `work` with `ctx` as the context Astro reads for this execution (a member template's,
 * src/member-page/), then puts the request's own back. `work` must finish the render
 * (read its body) before it returns: Astro reads the context while it streams.
 */
export async function withRenderContext<T>(executionContext: object, ctx: RequestContext, work: () => Promise<T>): Promise<T> {
  const own = contexts.get(executionContext);
  contexts.set(executionContext, ctx);
  try {
    return await work();
  } finally {
    if (own) contexts.set(executionContext, own);
    else contexts.delete(executionContext);
  }
}

/** The context Hono built for this execution, or a fresh one (astro dev runs without Hono). */
export function contextFor(executionContext: object | undefined, request: Request): RequestContext {
  return (executionContext && contexts.get(executionContext)) ?? buildRequestContext(request, { country: () => runtimeCountry(request), region: () => runtimeRegion(request) });
}
