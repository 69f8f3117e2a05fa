// Rows the story Worker tests share: a measured image upload as the story editor's pages and
// image blocks name them (the builder's POST makes real ones; its own test covers that path).
import { env } from "cloudflare:workers";

/** An image upload of `userId` measured width × height (9:16 by default), with the grid's and the close-up's cuts. */
export async function storyUploadOf(userId: number, width = 900, height = 1600): Promise<string> {
  const id = crypto.randomUUID().replaceAll("-", "");
  await env.DB.prepare(
    `INSERT INTO media_uploads (id, user_id, kind, content_type, bytes, width, height, dominant_color, sizes, status, created_at)
     VALUES (?1, ?2, 'image', 'image/jpeg', 1000, ?3, ?4, '#aa5533', ?5, 'uploaded', ?6)`,
  )
    .bind(id, userId, width, height, JSON.stringify({ "236x": [236, Math.round((236 * height) / width)], "736x": [736, Math.round((736 * height) / width)], orig: [width, height] }), Date.now())
    .run();
  return id;
}
