// One row of the `boards` table (src/server/migrations/0001_core.sql), as D1 returns it.
// Shared by the server reads and the seed, so the two cannot disagree about a column.
import type { BoardPrivacy } from "./board.ts";

export interface BoardTableRow {
  id: number;
  owner_id: number;
  name: string;
  slug: string;
  description: string;
  privacy: BoardPrivacy;
  layout: string;
  cover_pin_id: number | null;
  category: string | null;
  is_collaborative: number;
  pin_count: number;
  sectionless_pin_count: number;
  section_count: number;
  collaborator_count: number;
  follower_count: number;
  archived_at: number | null;
  created_at: number;
  updated_at: number;
}
