// R2 media at stable URLs: /media/<key>. Keys never change content (a new image gets a new
// key), so responses are immutable for a year; ETags still answer revalidation, and video
// is served in byte ranges so players can seek.
import { Hono } from "hono";
import type { AppEnv } from "../src/server/context.ts";
import { ApiError, ErrorCode, notFound } from "../src/server/errors.ts";
import { MEDIA_TYPES } from "../src/media/media.ts";
import { parseRange } from "../src/media/range.ts";
import { orUnavailable } from "../src/server/unavailable.ts";

// A lowercase top folder (pins, users, pool), then up to six segments; locale names in
// caption keys carry capitals (captions.en_US.vtt). ".." never appears in a key.
const KEY_PATTERN = /^[a-z0-9][a-z0-9_-]*(\/[A-Za-z0-9][A-Za-z0-9_.-]*){0,6}\.([a-z0-9]{2,5})$/;
const IMMUTABLE = "public, max-age=31536000, immutable";

export const mediaRoutes = new Hono<AppEnv>();

mediaRoutes.on(["GET", "HEAD"], "/*", async (c) => {
  const key = c.req.path.slice("/media/".length);
  const match = KEY_PATTERN.exec(key);
  const contentType = match ? MEDIA_TYPES[match[2]!] : undefined;
  if (!match || !contentType || key.includes("..")) throw notFound();

  // R2 not answering is a 503 with Retry-After (src/server/unavailable.ts), never a 500 or a 404.
  const head = await orUnavailable(() => c.env.MEDIA.head(key));
  if (!head) throw notFound();

  const headers = new Headers({
    "Content-Type": contentType,
    "Cache-Control": IMMUTABLE,
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
    if (!object) throw notFound();
    return new Response(object.body, { status: 206, headers });
  }

  headers.set("Content-Length", String(head.size));
  if (c.req.method === "HEAD") return new Response(null, { status: 200, headers });
  const object = await orUnavailable(() => c.env.MEDIA.get(key));
  if (!object) throw notFound();
  return new Response(object.body, { status: 200, headers });
});
