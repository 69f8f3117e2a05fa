// Rows the story Worker tests share: a measured image upload as the story editor's pages and
// image blocks name them (the builder's POST makes real ones; its own test covers that path).
import { env } from "cloudflare:workers";

/** An upload of `userId` measured width × height (9:16 by default), with the grid's and the close-up's cuts (a video's poster's, for a video). */
export async function storyUploadOf(userId: number, width = 900, height = 1600, kind: "image" | "video" = "image"): Promise<string> {
  const id = crypto.randomUUID().replaceAll("-", "");
  await env.DB.prepare(
    `INSERT INTO media_uploads (id, user_id, kind, content_type, bytes, width, height, dominant_color, sizes, status, created_at)
     VALUES (?1, ?2, ?7, ?8, 1000, ?3, ?4, '#aa5533', ?5, 'uploaded', ?6)`,
  )
    .bind(id, userId, width, height, JSON.stringify({ "236x": [236, Math.round((236 * height) / width)], "736x": [736, Math.round((736 * height) / width)], orig: [width, height] }), Date.now(), kind, kind === "video" ? "video/mp4" : "image/jpeg")
    .run();
  return id;
}
