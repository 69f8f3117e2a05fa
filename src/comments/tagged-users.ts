// Who a comment's tags name, read in the same SELECT as the comment (rows.server.ts and the
// close-up's first comments in src/pins/pins.server.ts).
import { visibleSql } from "~/visibility/visibility.server.ts";
import type { TaggedUser } from "./comment.ts";

/** SQL for the ids a row's tags name, tolerant of both stored spellings and of bad JSON. */
const TAG_IDS = `SELECT CAST(COALESCE(json_extract(t.value, '$.userId'), json_extract(t.value, '$.user_id')) AS INTEGER)
  FROM json_each(CASE WHEN json_valid(c.tags) THEN c.tags ELSE '[]' END) t`;

/** Selects a comment's tagged users as JSON; needs the comment as `c`. */
export const TAGGED_USERS_SQL = `(SELECT json_group_array(json_object('id', CAST(tu.id AS TEXT), 'username', tu.username, 'full_name', tu.full_name))
     FROM users tu WHERE tu.id IN (${TAG_IDS}) AND ${visibleSql("publicProfile", { user: "tu" }, null)})`;

export function parseTaggedUsers(json: string | null): TaggedUser[] {
  if (!json) return [];
  try {
    const value = JSON.parse(json) as unknown;
    return Array.isArray(value) ? (value as TaggedUser[]).slice(0, 20) : [];
  } catch {
    return [];
  }
}

