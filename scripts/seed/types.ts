// Row and media-job types of the seeded world: one property per column of
// src/server/migrations/0001_core.sql, and what scripts/seed/media.ts renders.
import type { PinImageSize } from "../../src/media/media.ts";
import type { PinTableRow } from "../../src/pins/pin-row.ts";
import type { BoardTableRow } from "../../src/boards/board-row.ts";
import type { CommentTableRow } from "../../src/comments/comment-row.ts";
import type { UserTableRow } from "../../src/users/user-row.ts";

// ---------------------------------------------------------------------------------------
// Row types: one property per column of src/server/migrations/0001_core.sql.
// ---------------------------------------------------------------------------------------

export type SqlValue = string | number | null;

export type UserRow = UserTableRow;

type LinkDomainRow = { domain: string; official_user_id: number | null; is_blocked: number };

export type { BoardPrivacy } from "../../src/boards/board.ts";

export type BoardRow = BoardTableRow;

export type BoardSectionRow = {
  id: number;
  board_id: number;
  title: string;
  slug: string;
  position: number;
  pin_count: number;
  created_at: number;
};

type BoardCollaboratorRow = {
  board_id: number;
  user_id: number;
  status: "new" | "accepted";
  access: string;
  type: "invite" | "request";
  invited_by: number | null;
  created_at: number;
};

export type { PinKind } from "../../src/pins/pin.ts";

export type PinRow = PinTableRow;

export type PinImageRow = {
  pin_id: number;
  size: PinImageSize;
  url: string;
  width: number;
  height: number;
  dominant_color: string;
};

type PinVideoFormatRow = {
  pin_id: number;
  format: "V_720P" | "V_WEBM";
  url: string;
  mime_type: string;
  width: number;
  height: number;
  duration_ms: number;
  thumbnail: string;
  captions_urls: string;
};

export type BoardPinRow = {
  board_id: number;
  pin_id: number;
  section_id: number | null;
  saved_by: number;
  position: number;
  created_at: number;
};

type FollowRow = {
  follower_id: number;
  target_type: "user" | "board" | "interest";
  target_id: number;
  explicit: number;
  created_at: number;
};

type ReactionRow = { pin_id: number; user_id: number; reaction_type: number; created_at: number };

type PinReactionCountRow = { pin_id: number; reaction_type: number; count: number };

export type CommentRow = CommentTableRow;

/** One tagged pin of a pin tag (src/server/migrations/0023_pin_tags.sql). */
export type PinTagRow = {
  pin_id: number;
  tag_key: string;
  item_index: number;
  position: number;
  x: number;
  y: number;
  tagged_pin_id: number;
  link: string | null;
  created_at: number;
};

export type Tables = {
  users: UserRow[];
  link_domains: LinkDomainRow[];
  boards: BoardRow[];
  board_sections: BoardSectionRow[];
  board_collaborators: BoardCollaboratorRow[];
  pins: PinRow[];
  pin_images: PinImageRow[];
  pin_video_formats: PinVideoFormatRow[];
  board_pins: BoardPinRow[];
  follows: FollowRow[];
  reactions: ReactionRow[];
  pin_reaction_counts: PinReactionCountRow[];
  comments: CommentRow[];
  pin_tags: PinTagRow[];
};

export type TableName = keyof Tables;

/** Parents first: the order rows are inserted in (foreign keys are enforced by D1). */
export const TABLE_INSERT_ORDER: readonly TableName[] = [
  "users",
  "link_domains",
  "boards",
  "board_sections",
  "board_collaborators",
  "pins",
  "pin_images",
  "pin_video_formats",
  "board_pins",
  "follows",
  "reactions",
  "pin_reaction_counts",
  "comments",
  "pin_tags",
];

// ---------------------------------------------------------------------------------------
// Media job types (rendered by scripts/seed/media.ts)
// ---------------------------------------------------------------------------------------

export type ImageStyle = "blobs" | "stripes" | "bauhaus" | "horizon" | "quote" | "mosaic" | "plate" | "avatar" | "photo";

/** What to draw: a picture is fully determined by its spec (drawn at width x height). */
export type ImageSpec = {
  style: ImageStyle;
  width: number;
  height: number;
  /** palette[0] is the background and the dominant colour (a photo's: its dominant colour). */
  palette: string[];
  seed: number;
  text: string | null;
  /** With style "photo": the file in scripts/seed/photos/, cropped to width x height. */
  photo?: string;
};

/** One JPEG to store: the picture resized (cover) to exactly width x height. */
export type ImageOutput = { key: string; width: number; height: number };

export type ImageJob = {
  spec: ImageSpec;
  outputs: ImageOutput[];
  /** Jobs with the same shareKey have the same spec: render once, reuse the bytes. */
  shareKey: string | null;
};

export type ClipSpec = {
  index: number;
  width: number;
  height: number;
  fps: number;
  frames: number;
  durationMs: number;
  /** Drawn like an image of this spec, animated; frame 0 equals the still at t = 0. */
  spec: ImageSpec;
};

type VideoJob = { pinId: number; clip: number; mp4Key: string; webmKey: string };

type TextJob = { key: string; contentType: string; body: string };

export type MediaPlan = { images: ImageJob[]; clips: ClipSpec[]; videos: VideoJob[]; texts: TextJob[] };

export type DemoCredential = {
  userId: number;
  username: string;
  email: string;
  password: string;
  role: string;
  mfaSecret: string | null;
};

export type World = {
  seed: number;
  pinCount: number;
  baseEpoch: number;
  pooled: boolean;
  tables: Tables;
  media: MediaPlan;
  credentials: DemoCredential[];
};

export type WorldOptions = { pins: number; seed?: number };
