// GET /_/_/state (spec 000 §7): the full per-viewer state for a page that came from a shared
// (edge-cached) render, which embeds only what every visitor shares (clientContext). The
// runtime's start-up asks for it with the page's own path and query as source_url, so the
// answer describes that page (landing type, invite code, utm values, ?locale=) for this viewer.
// Never cached: it carries the viewer and the request id.
import { Hono } from "hono";
import { success } from "~/server/answer.ts";
import { buildRequestContext, clientContext } from "~/context/request-context.ts";
import type { AppEnv } from "~/server/context.ts";
import { badRequest } from "~/domain/errors.ts";
import { BUILD_VERSION } from "~/runtime/build-version.ts";
import { experiencesFor } from "~/experiences/experiences.server.ts";
import { experienceViewer } from "./experiences.ts";

export const stateRoutes = new Hono<AppEnv>();

const MAX_SOURCE_URL = 2048;

/** A same-origin path with its query, or null when the value is not one (an absolute or // URL). */
function sourcePath(value: string): string | null {
  if (value.length > MAX_SOURCE_URL || !value.startsWith("/") || value.startsWith("//") || value.includes("\\")) return null;
  try {
    const url = new URL(value, "https://origin.invalid");
    return url.origin === "https://origin.invalid" ? url.pathname + url.search : null;
  } catch {
    return null;
  }
}

stateRoutes.get("/state", async (c) => {
  const ctx = c.var.ctx;
  const raw = c.req.query("source_url");
  let pageCtx = ctx;
  if (raw !== undefined) {
    const path = sourcePath(raw);
    if (path === null) throw badRequest([{ field: "source_url", reason: "validation.sitePath", values: { maximum: MAX_SOURCE_URL } }]);
    // The page's context as if the viewer had asked for it: same cookies, session and country.
    pageCtx = buildRequestContext(new Request(new URL(path, ctx.origin), { headers: c.req.raw.headers }), {
      requestId: ctx.requestId,
      country: ctx.country,
      region: ctx.regionFromIp,
      countryHosts: c.env.CCTLD_HOSTS,
      session: ctx.session,
    });
  }
  // Spec 000 §7: "the full state including experiences", every placement's (none for a bot).
  const experiences = await experiencesFor(c.env.DB, experienceViewer(c), null);
  return success(c, { ...clientContext({ ...pageCtx, renderMode: "personal" }, BUILD_VERSION), experiences });
});
