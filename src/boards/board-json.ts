// The Board and Section answers of the saving API, as the server writes them and the islands
// read them: one definition, so the two cannot drift apart.
import type { BoardPrivacy } from "./board.ts";
import type { BoardAccess } from "./policy.ts";

export interface BoardJson {
  id: string;
  name: string;
  slug: string;
  url: string;
  description: string;
  privacy: BoardPrivacy;
  layout: string;
  pin_count: number;
  sectionless_pin_count: number;
  section_count: number;
  collaborator_count: number;
  follower_count: number;
  cover_pin: { id: string; image_url: string } | null;
  owner: { id: string; username: string; full_name: string; image_medium_url: string | null };
  is_collaborative: boolean;
  collaborated_by_me: boolean;
  access: BoardAccess[];
  followed_by_me: boolean;
  archived_by_me_at: number | null;
  pending_ownership_transfer: { user_id: string; username: string } | null;
  viewer_collaborator_join_requested: boolean;
  created_at: number;
}

export interface SectionJson {
  id: string;
  board_id: string;
  title: string;
  slug: string;
  pin_count: number;
  position: number;
}
