// One row of the `comments` table (src/server/migrations/0001_core.sql), as D1 returns it.
// Shared by the server reads and the seed, so the two cannot disagree about a column.
export interface CommentTableRow {
  id: number;
  pin_id: number;
  user_id: number;
  parent_id: number | null;
  text: string;
  tags: string;
  like_count: number;
  helpful_count: number;
  reply_count: number;
  highlighted_by_pin_owner: number;
  is_hidden: number;
  created_at: number;
  updated_at: number;
}
