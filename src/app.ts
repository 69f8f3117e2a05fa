// The Worker's Hono app: one door for every request, and the one module that mounts the edge
// functions (functions/ sits above src/server/ and the data layer; nothing below imports it).
// Middleware order matters and reads top to bottom: security headers wrap everything (so even
// errors carry them), then /healthz and the page cache's early answers, then the request
// context, CSRF and body bounds; the edge functions; and Astro for every other path.
import { Hono, type Context } from "hono";
import { getCookie } from "hono/cookie";
import { bodyLimit } from "hono/body-limit";
import { EDGE_ROUTES } from "../functions/routes.ts";
import { requestContext, type AppEnv } from "~/server/context.ts";
import { CSRF_COOKIE, csrf, csrfTokenCookie, hasCsrfCookie } from "~/server/csrf.ts";
import { appVersion } from "~/server/app-version.ts";
import { ApiError, ErrorCode, internalError, toApiError, toResourceError } from "~/server/errors.ts";
import { DomainError } from "~/domain/errors.ts";
import { isStorageUnavailable, unavailable } from "~/server/unavailable.ts";
import { PRIVATE_CACHE_CONTROL, earlyPageAnswer, servePage } from "~/server/page-cache.ts";
import { carriesSessionCookie } from "~/accounts/session.server.ts";
import { canNamePage } from "~/server/page-path.ts";
import { renderMemberIsland } from "~/member-page/islands.server.ts";
import { memberBesideSession } from "~/member-page/member-page.server.ts";
import { securityHeaders } from "~/server/security-headers.ts";
import { getT } from "~/i18n/i18n.ts";
import { EVENT_BATCH_LIMITS } from "~/events/ingest.server.ts";
import { DEFAULT_LOCALE } from "~/context/locales.ts";

/** Largest request body any route accepts; routes may bound theirs tighter. */
const MAX_BODY_BYTES = 1024 * 1024;
const PHOTO_UPLOAD_PATH = "/v3/did_it/photos/";
const PHOTO_UPLOAD_MAX_BYTES = 5 * 1024 * 1024 + 64 * 1024;
/**
 * The builder's uploads and a video upload's poster bound their own bodies as they stream, by
 * their declared length and the file limits (src/media/uploads.server.ts).
 */
const MEDIA_UPLOAD_PATH = "/v3/media/uploads/";
const MEDIA_POSTER_PATH = /^\/v3\/media\/uploads\/[0-9a-f]{32}\/poster\/$/;
const boundsOwnBody = (method: string, path: string) => (method === "POST" && path === MEDIA_UPLOAD_PATH) || (method === "PUT" && MEDIA_POSTER_PATH.test(path));
/** Paths the edge functions own below their own prefixes: never a page, so never a page-cache look-up. */
const EDGE_PREFIXES = EDGE_ROUTES.map(([path]) => path).filter((path) => path !== "/").map((path) => `${path}/`);
const isEdgePath = (path: string) => EDGE_PREFIXES.some((prefix) => path.startsWith(prefix));
/** Event batches: what a keepalive fetch may carry (src/events/ingest.server.ts). */
const EVENTS_PATH = /^\/resource\/ApiCResource\/create\/?$/;

export type PageRenderer = (c: Context<AppEnv>, request?: Request) => Promise<Response> | Response;

/** v3 calls answer {status, code, message, data}; /resource calls wrap it in resource_response. */
function errorResponse(c: Context<AppEnv>, error: ApiError): Response {
  const body = toResourceError(error, c.var.t ?? getT(DEFAULT_LOCALE));
  const envelope = { status: "failure", code: body.code, message: body.message, data: null, error: body };
  const payload = c.req.path.startsWith("/resource/") ? { resource_response: envelope } : { ...envelope, ...body };
  return c.json(payload, error.status, error.options.headers);
}

/**
 * The 404 page for a path no page can have (src/server/page-path.ts): Astro renders its 404
 * route, as for any missing page, without ever reading the path it could not route.
 */
async function notFoundPage(c: Context<AppEnv>, renderPage: PageRenderer): Promise<Response> {
  const request = new Request(new URL("/404", c.req.url), { method: c.req.method === "HEAD" ? "HEAD" : "GET", headers: c.req.raw.headers });
  const response = await renderPage(c, request);
  const copy = new Response(response.body, response);
  copy.headers.set("Cache-Control", PRIVATE_CACHE_CONTROL);
  return copy;
}

export function createApp(renderPage: PageRenderer) {
  const app = new Hono<AppEnv>();

  app.use(securityHeaders());
  app.use(appVersion());
  // The floor the benchmarks compare against: no context, no storage.
  app.get("/healthz", (c) => c.text("ok", 200, { "Cache-Control": "no-store" }));
  // A signed-out visitor's page held fresh in the page cache is answered before the request
  // context, CSRF and session work below: a hit then costs about what /healthz does. The
  // answer gets the CSRF cookie the skipped middleware would have issued.
  app.use(async (c, next) => {
    const early = isEdgePath(c.req.path)
      ? null
      : await earlyPageAnswer(c.req.raw, carriesSessionCookie(c.req.header("cookie")), (work) => c.executionCtx.waitUntil(work));
    if (!early) return next();
    const cookie = csrfTokenCookie(early, c.req.path, hasCsrfCookie(getCookie(c, CSRF_COOKIE)));
    if (cookie) early.headers.append("Set-Cookie", cookie);
    return early;
  });
  // A signed-in close-up's member-page state is read in the session's own statement.
  app.use(requestContext(memberBesideSession));
  app.use(csrf());
  const limitOf = (maxSize: number) =>
    bodyLimit({
      maxSize,
      onError: () => {
        throw new ApiError(413, ErrorCode.PayloadTooLarge, { message: "api.payloadTooLarge", values: { limit: maxSize } });
      },
    });
  const generalLimit = limitOf(MAX_BODY_BYTES);
  // Tried-it photos may be 5 MB (the handler checks the file itself); multipart framing on top.
  const photoLimit = limitOf(PHOTO_UPLOAD_MAX_BYTES);
  const eventsLimit = limitOf(EVENT_BATCH_LIMITS.maxBodyBytes);
  app.use((c, next) =>
    boundsOwnBody(c.req.method, c.req.path)
      ? next()
      : c.req.path === PHOTO_UPLOAD_PATH ? photoLimit(c, next) : EVENTS_PATH.test(c.req.path) ? eventsLimit(c, next) : generalLimit(c, next),
  );

  for (const [path, routes] of EDGE_ROUTES) app.route(path, routes);
  // Every other path is a page: signed-out renders are shared through the edge cache.
  // Signed-in close-ups are filled in from a shared member template (src/member-page/).
  app.all("*", (c) => (canNamePage(new URL(c.req.url).pathname) ? servePage(c, renderPage, { islands: renderMemberIsland }) : notFoundPage(c, renderPage)));

  app.onError((error, c) => {
    if (error instanceof ApiError || error instanceof DomainError) {
      const answer = toApiError(error);
      if (answer.status >= 500) console.error(answer.cause ?? answer);
      return errorResponse(c, answer);
    }
    console.error(error);
    return errorResponse(c, isStorageUnavailable(error) ? unavailable(error) : internalError(error));
  });
  return app;
}
