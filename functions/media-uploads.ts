// The pin builder's file uploads (mounted at /v3):
//   POST /v3/media/uploads/          the file's raw bytes as the body (Content-Length required)
//   POST /v3/media/uploads/from-url/ JSON {"url": "..."}: an image found on a web page, fetched
//                                    by the Worker and stored exactly as an upload of its bytes
//   GET  /v3/media/uploads/from-url/?url=...  that image's bytes, for the builder's preview grid
//   GET  /v3/media/uploads/{id}/     the viewer's own upload; anyone else's is a 404
// The body is the file itself, not a multipart form: it streams through a byte counter (and,
// for a video, on into R2) without a form parser holding it, and a browser's XMLHttpRequest
// sending a File reports upload progress for it all the same.
import { Hono } from "hono";
import { badRequest, zodProblems } from "~/domain/errors.ts";
import { importWebImage, importWebImageSchema, previewWebImage } from "~/builder/find-images.server.ts";
import { readFields } from "~/server/body.ts";
import { success } from "~/server/answer.ts";
import type { AppEnv } from "~/server/context.ts";
import { readUpload, storeUpload } from "~/media/uploads.server.ts";

export const mediaUploadRoutes = new Hono<AppEnv>();

mediaUploadRoutes.post("/media/uploads/", async (c) =>
  success(c, await storeUpload({ db: c.env.DB, media: c.env.MEDIA, images: c.env.IMAGES }, c.var.ctx, c.req.raw.body, c.req.header("content-length"))),
);

mediaUploadRoutes.post("/media/uploads/from-url/", async (c) => {
  const fields = await readFields(c);
  const parsed = importWebImageSchema.safeParse(fields);
  if (!parsed.success) throw badRequest(zodProblems(parsed.error, "", fields));
  return success(c, await importWebImage({ db: c.env.DB, media: c.env.MEDIA, images: c.env.IMAGES }, c.var.ctx, parsed.data.url));
});

mediaUploadRoutes.get("/media/uploads/from-url/", async (c) => {
  const parsed = importWebImageSchema.safeParse(c.req.queries("url")?.length === 1 ? { url: c.req.query("url") } : {});
  if (!parsed.success) throw badRequest(zodProblems(parsed.error, ""));
  const image = await previewWebImage(c.env.DB, c.var.ctx, parsed.data.url);
  // Someone else's bytes: shown as an image only, kept by this browser alone for a while.
  return new Response(image.body, { headers: { "Content-Type": image.contentType, "Cache-Control": "private, max-age=3600", "X-Content-Type-Options": "nosniff", "Content-Disposition": "inline" } });
});

mediaUploadRoutes.get("/media/uploads/:id/", async (c) => success(c, await readUpload(c.env.DB, c.var.ctx, c.req.param("id"))));
