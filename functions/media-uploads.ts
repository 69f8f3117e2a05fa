// The pin builder's file uploads (mounted at /v3):
//   POST /v3/media/uploads/          the file's raw bytes as the body (Content-Length required)
//   POST /v3/media/uploads/from-url/ JSON {"url": "..."}: an image found on a web page, fetched
//                                    by the Worker and stored exactly as an upload of its bytes
//   GET  /v3/media/uploads/from-url/?url=...  that image's bytes, for the builder's preview grid
//   GET  /v3/media/uploads/{id}/     the viewer's own upload; anyone else's is a 404
//   POST /v3/media/uploads/{id}/crop/    JSON {ratio}: the image re-cut, centred, to that ratio
//   PUT  /v3/media/uploads/{id}/poster/  an image's raw bytes: the video upload's poster frame
// The body is the file itself, not a multipart form: it streams through a byte counter (and,
// for a video, on into R2) without a form parser holding it, and a browser's XMLHttpRequest
// sending a File reports upload progress for it all the same.
import { Hono, type Context } from "hono";
import { z } from "zod";
import { requireWriteAllowed } from "~/accounts/guards.server.ts";
import { badRequest, forbidden, zodProblems } from "~/domain/errors.ts";
import { importWebImage, importWebImageSchema, previewWebImage } from "~/builder/find-images.server.ts";
import { CROP_RATIOS } from "~/media/aspect-ratio.ts";
import { success } from "~/server/answer.ts";
import { readFields, readJson } from "~/server/body.ts";
import type { AppEnv } from "~/server/context.ts";
import { cropUpload, readUpload, storePoster, storeUpload } from "~/media/uploads.server.ts";

export const mediaUploadRoutes = new Hono<AppEnv>();

const storesOf = (c: Context<AppEnv>) => ({ db: c.env.DB, media: c.env.MEDIA, images: c.env.IMAGES });

mediaUploadRoutes.post("/media/uploads/", async (c) => success(c, await storeUpload(storesOf(c), c.var.ctx, c.req.raw.body, c.req.header("content-length"))));

mediaUploadRoutes.post("/media/uploads/from-url/", async (c) => {
  const fields = await readFields(c);
  const parsed = importWebImageSchema.safeParse(fields);
  if (!parsed.success) throw badRequest(zodProblems(parsed.error, "", fields));
  return success(c, await importWebImage({ db: c.env.DB, media: c.env.MEDIA, images: c.env.IMAGES }, c.var.ctx, parsed.data.url));
});

mediaUploadRoutes.get("/media/uploads/from-url/", async (c) => {
  // The builder's own <img> asks from this site; another site must not spend the person's
  // fetches (a GET carries no CSRF token, but browsers say where a request comes from).
  const site = c.req.header("sec-fetch-site");
  if (site !== undefined && site !== "same-origin") throw forbidden("api.forbidden");
  const parsed = importWebImageSchema.safeParse(c.req.queries("url")?.length === 1 ? { url: c.req.query("url") } : {});
  if (!parsed.success) throw badRequest(zodProblems(parsed.error, ""));
  const image = await previewWebImage(c.env.DB, c.var.ctx, parsed.data.url);
  // Someone else's bytes: shown as an image only, kept by this browser alone for a while.
  return new Response(image.body, { headers: { "Content-Type": image.contentType, "Cache-Control": "private, max-age=3600", "X-Content-Type-Options": "nosniff", "Content-Disposition": "inline" } });
});

mediaUploadRoutes.get("/media/uploads/:id/", async (c) => success(c, await readUpload(c.env.DB, c.var.ctx, c.req.param("id"))));

const cropSchema = z.strictObject({ ratio: z.enum(CROP_RATIOS) });

mediaUploadRoutes.post("/media/uploads/:id/crop/", async (c) => {
  // Signed out is a 401 whatever the body says.
  requireWriteAllowed(c.var.ctx);
  const body = await readJson(c);
  const parsed = cropSchema.safeParse(body);
  if (!parsed.success) throw badRequest(zodProblems(parsed.error, "", body));
  return success(c, await cropUpload(storesOf(c), c.var.ctx, c.req.param("id"), parsed.data.ratio));
});

mediaUploadRoutes.put("/media/uploads/:id/poster/", async (c) =>
  success(c, await storePoster(storesOf(c), c.var.ctx, c.req.param("id"), c.req.raw.body, c.req.header("content-length"))),
);
