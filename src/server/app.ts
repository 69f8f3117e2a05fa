// The Worker's Hono app: one door for every request. Middleware order matters and reads top
// to bottom: security headers wrap everything (so even errors carry them), then the request
// context, CSRF and body bounds; the edge functions; and Astro for every other path.
import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { graphqlRoutes } from "../../functions/graphql.ts";
import { attributionRoutes } from "../../functions/attribution.ts";
import { mediaRoutes } from "../../functions/media.ts";
import { resourceRoutes } from "../../functions/resource.ts";
import { seoRoutes } from "../../functions/seo.ts";
import { sessionRoutes } from "../../functions/session-routes.ts";
import { stateRoutes } from "../../functions/state.ts";
import { v3Routes } from "../../functions/v3.ts";
import { requestContext, type AppEnv } from "./context.ts";
import { csrf } from "./csrf.ts";
import { appVersion } from "./app-version.ts";
import { ApiError, ErrorCode, internalError, toResourceError } from "./errors.ts";
import { isStorageUnavailable, unavailable } from "./unavailable.ts";
import { servePage } from "./page-cache.ts";
import { renderMemberIsland } from "./member-islands.ts";
import { securityHeaders } from "./security-headers.ts";
import { getT } from "../i18n/i18n.ts";
import { EVENT_BATCH_LIMITS } from "../events/ingest.server.ts";
import { DEFAULT_LOCALE } from "../context/locales.ts";

/** Largest request body any route accepts; routes may bound theirs tighter. */
export const MAX_BODY_BYTES = 1024 * 1024;
const PHOTO_UPLOAD_PATH = "/v3/did_it/photos/";
const PHOTO_UPLOAD_MAX_BYTES = 5 * 1024 * 1024 + 64 * 1024;
/** Event batches: what a keepalive fetch may carry (src/events/ingest.server.ts). */
const EVENTS_PATH = /^\/resource\/ApiCResource\/create\/?$/;

export type PageRenderer = (c: Context<AppEnv>, request?: Request) => Promise<Response> | Response;

/** v3 calls answer {status, code, message, data}; /resource calls wrap it in resource_response. */
export function errorResponse(c: Context<AppEnv>, error: ApiError): Response {
  const body = toResourceError(error, c.var.t ?? getT(DEFAULT_LOCALE));
  const envelope = { status: "failure", code: body.code, message: body.message, data: null, error: body };
  const payload = c.req.path.startsWith("/resource/") ? { resource_response: envelope } : { ...envelope, ...body };
  return c.json(payload, error.status, error.options.headers);
}

export function createApp(renderPage: PageRenderer) {
  const app = new Hono<AppEnv>();

  app.use(securityHeaders());
  app.use(appVersion());
  // The floor the benchmarks compare against: no context, no storage.
  app.get("/healthz", (c) => c.text("ok", 200, { "Cache-Control": "no-store" }));
  app.use(requestContext());
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
    c.req.path === PHOTO_UPLOAD_PATH ? photoLimit(c, next) : EVENTS_PATH.test(c.req.path) ? eventsLimit(c, next) : generalLimit(c, next),
  );

  app.route("/media", mediaRoutes);
  app.route("/resource", resourceRoutes);
  app.route("/v3", v3Routes);
  app.route("/", graphqlRoutes);
  app.route("/", seoRoutes);
  app.route("/", attributionRoutes);
  app.route("/", sessionRoutes);
  app.route("/_/_", stateRoutes);
  // Every other path is a page: signed-out renders are shared through the edge cache.
  // Signed-in close-ups are filled in from a shared member template (src/server/member-page.ts).
  app.all("*", (c) => servePage(c, renderPage, { islands: renderMemberIsland }));

  app.onError((error, c) => {
    if (error instanceof ApiError) {
      if (error.status >= 500) console.error(error.cause ?? error);
      return errorResponse(c, error);
    }
    console.error(error);
    return errorResponse(c, isStorageUnavailable(error) ? unavailable(error) : internalError(error));
  });
  return app;
}
