// The search landing's recommended searches (an empty /search/{scope}/): topic names, the
// viewer's followed topics first, then the topics with the most pins. One bounded read.
import { RECOMMENDED_MAX } from "./state.ts";

export async function recommendedSearches(db: D1Database, viewerId: number | null): Promise<string[]> {
  const { results } = await db
    .prepare(
      `SELECT i.name AS name
         FROM interests i
        ORDER BY EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = ?1 AND f.target_type = 'interest' AND f.target_id = i.id) DESC,
                 (SELECT count(*) FROM pin_interests pi WHERE pi.interest_id = i.id) DESC,
                 i.name
        LIMIT ?2`,
    )
    .bind(viewerId ?? 0, RECOMMENDED_MAX)
    .all<{ name: string }>();
  return results.map((row) => row.name);
}
