// R2 media at stable URLs: /media/<key>. Every byte is authorized by the object its key
// belongs to (src/media/access.server.ts), with that object's visibility rule; what the viewer
// may not read answers exactly as a missing object does. Objects anyone may read are cached
// publicly for a short time and revalidated by ETag, so a pin made private stops being served
// from shared caches within PUBLIC_MAX_AGE; objects only their people may read are never
// stored. Video is served in byte ranges so players can seek.
import { Hono } from "hono";
import { deviceIdOf } from "~/accounts/switcher.server.ts";
import type { AppEnv } from "~/server/context.ts";
import { ApiError, ErrorCode } from "~/server/errors.ts";
import { mediaAccess, mediaOwnerOf } from "~/media/access.server.ts";
import { MEDIA_TYPES } from "~/media/media.ts";
import { parseRange } from "~/media/range.ts";
import { viewerIdOf } from "~/users/user.ts";
import { orUnavailable } from "~/server/unavailable.ts";

// A lowercase top folder (pins, users, pool), then up to six segments; locale names in
// caption keys carry capitals (captions.en_US.vtt). ".." never appears in a key.
const KEY_PATTERN = /^[a-z0-9][a-z0-9_-]*(\/[A-Za-z0-9][A-Za-z0-9_.-]*){0,6}\.([a-z0-9]{2,5})$/;
/** Seconds a shared cache may serve a public object before revalidating it (and so learning it turned private). */
const PUBLIC_MAX_AGE = 300;
const PUBLIC_CACHE = `public, max-age=${PUBLIC_MAX_AGE}, must-revalidate`;
const PRIVATE_CACHE = "private, no-store";

/**
 * Every 404 here, whether the object is missing or the viewer may not read it: one answer, kept
 * by no cache (a shared cache holding a stranger's 404 would hide an object from its own people).
 */
const missing = () => new ApiError(404, ErrorCode.NotFound, { message: "api.notFound", headers: { "Cache-Control": "no-store" } });

export const mediaRoutes = new Hono<AppEnv>();

mediaRoutes.on(["GET", "HEAD"], "/*", async (c) => {
  const key = c.req.path.slice("/media/".length);
  const match = KEY_PATTERN.exec(key);
  const contentType = match ? MEDIA_TYPES[match[2]!] : undefined;
  const owner = match && contentType && !key.includes("..") ? mediaOwnerOf(key) : null;
  if (!owner) throw missing();

  // Authorization and the object's metadata in parallel: one D1 statement beside the R2 read.
  // R2 not answering is a 503 with Retry-After (src/server/unavailable.ts), never a 500 or a 404.
  const deviceId = owner.kind === "avatar" ? await deviceIdOf(c.req.raw) : null;
  const [access, head] = await Promise.all([mediaAccess(c.env.DB, owner, viewerIdOf(c.var.ctx), deviceId), orUnavailable(() => c.env.MEDIA.head(key))]);
  if (!access.viewer || !head) throw missing();

  const headers = new Headers({
    "Content-Type": contentType!,
    "Cache-Control": access.anyone ? PUBLIC_CACHE : PRIVATE_CACHE,
    ETag: head.httpEtag,
    "Accept-Ranges": "bytes",
    "Last-Modified": head.uploaded.toUTCString(),
  });
  const ifNoneMatch = c.req.header("if-none-match");
  if (ifNoneMatch && ifNoneMatch.split(",").some((tag) => tag.trim() === head.httpEtag || tag.trim() === "*")) {
    return new Response(null, { status: 304, headers });
  }

  const rangeHeader = c.req.header("range");
  // If-Range: serve the range only while the client's copy is still this object.
  const ifRange = c.req.header("if-range");
  const range = rangeHeader && (!ifRange || ifRange === head.httpEtag) ? parseRange(rangeHeader, head.size) : null;
  if (range === "unsatisfiable") {
    throw new ApiError(416, ErrorCode.RangeNotSatisfiable, {
      message: "api.rangeNotSatisfiable",
      headers: { "Content-Range": `bytes */${head.size}` },
    });
  }

  if (range) {
    headers.set("Content-Range", `bytes ${range.offset}-${range.offset + range.length - 1}/${head.size}`);
    headers.set("Content-Length", String(range.length));
    if (c.req.method === "HEAD") return new Response(null, { status: 206, headers });
    const object = await orUnavailable(() => c.env.MEDIA.get(key, { range }));
    if (!object) throw missing();
    return new Response(object.body, { status: 206, headers });
  }

  headers.set("Content-Length", String(head.size));
  if (c.req.method === "HEAD") return new Response(null, { status: 200, headers });
  const object = await orUnavailable(() => c.env.MEDIA.get(key));
  if (!object) throw missing();
  return new Response(object.body, { status: 200, headers });
});
