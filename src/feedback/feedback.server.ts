// Stores feedback: one batch adds it and drops the person's oldest beyond FEEDBACK_KEPT, so a
// person's feedback is bounded however much they send (the route also throttles them).
import { FEEDBACK_KEPT, type FeedbackData } from "./feedback.ts";

export async function storeFeedback(db: D1Database, userId: number, data: FeedbackData, now = Date.now()): Promise<number> {
  const [inserted] = await db.batch([
    db
      .prepare("INSERT INTO feedback (user_id, verbatim_text, action_from, page, created_at) VALUES (?1, ?2, ?3, ?4, ?5) RETURNING id")
      .bind(userId, data.verbatim_text, data.action_from, data.page, now),
    db
      .prepare(
        `DELETE FROM feedback WHERE user_id = ?1
           AND id <= (SELECT kept.id FROM feedback kept WHERE kept.user_id = ?1 ORDER BY kept.id DESC LIMIT 1 OFFSET ?2)`,
      )
      .bind(userId, FEEDBACK_KEPT),
  ]);
  return (inserted?.results?.[0] as { id: number } | undefined)?.id ?? 0;
}
