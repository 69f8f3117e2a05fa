// Invites in D1: minting a code for a pin a signed-in person can see, and looking a code up
// for a landing page. A lookup answers the spec's invite metadata (000 §3) and nothing more;
// an unknown, expired or not-visible invite are all the same null, so a guesser learns nothing
// about which codes exist, what a secret board holds or who a private sender is.
import { z } from "zod";
import { hashToken } from "../accounts/tokens.ts";
import { canViewBoard, collaboratorSql, type BoardPrivacy } from "../boards/board.ts";
import { canViewProfile, userImageUrl, type LoginState } from "../users/user.ts";
import { pinIdSchema } from "../pins/pin.ts";
import { toBase64Url } from "../runtime/base64.ts";
import type { RateRule } from "../server/rate-limit.server.ts";
import { INVITE_CODE_MAX, INVITE_CODE_PATTERN, INVITE_CHANNEL_IDS, INVITE_LIFETIME_MS, type InviteChannel, type InviteMetadata } from "./invite.ts";

/** Lookups per client address: a person lands a few times; a guesser is stopped long before luck helps. */
export const INVITE_LOOKUP_RULE = { name: "invite-lookup:ip", limit: 60, windowMs: 15 * 60_000 } as const satisfies RateRule;
/** Codes one person may mint per hour (each copy-link press mints one). */
export const INVITE_CREATE_RULE = { name: "invite-create:user", limit: 30, windowMs: 60 * 60_000 } as const satisfies RateRule;

export const inviteCodeSchema = z.string().max(INVITE_CODE_MAX).regex(INVITE_CODE_PATTERN);
/** A 400 for another value lists the documented channels ("must be one of: 1, 2, …"). */
export const inviteChannelSchema = z.literal(INVITE_CHANNEL_IDS);

export const inviteMetadataOptions = z.strictObject({ invite_code: inviteCodeSchema });
export const inviteCreateOptions = z.strictObject({ pin_id: pinIdSchema, invite_channel: inviteChannelSchema });

/** A fresh code: 16 random bytes in base64url, 22 characters. */
export function newInviteCode(): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(16)));
}

/** The key an invite is stored under: a leaked row cannot be replayed as a link. */
export const inviteKey = (code: string) => hashToken(code);

/** What the pin page's visibility rule reads of a pin (null columns: no such pin). */
interface PinVisibilityRow {
  pin_pinner_id: number | null;
  pin_is_deleted: number | null;
  pin_board_id: number | null;
  pin_board_privacy: BoardPrivacy | null;
  pin_board_owner_id: number | null;
  /** 1 when the viewer is an accepted collaborator of the pin's board. */
  pin_board_viewer_collaborates: number | null;
  pinner_is_private_profile: number | null;
  pinner_login_state: LoginState | null;
}

interface InviteRow extends PinVisibilityRow {
  invite_channel: number;
  object_type: "pin" | "board";
  sender_id: number;
  sender_first_name: string;
  sender_full_name: string;
  sender_image_key: string | null;
  sender_should_show_messaging: number;
  sender_login_state: LoginState;
  board_owner_id: number | null;
  board_privacy: BoardPrivacy | null;
  board_archived_at: number | null;
  board_viewer_collaborates: number | null;
  board_owner_is_private_profile: number | null;
  board_owner_login_state: LoginState | null;
}

// One read: the invite, its sender, and what the visibility rules need of the shared object.
const LOOKUP_SQL = `
  SELECT i.invite_channel, i.object_type, i.sender_id,
         s.first_name AS sender_first_name, s.full_name AS sender_full_name, s.image_key AS sender_image_key,
         s.should_show_messaging AS sender_should_show_messaging, s.login_state AS sender_login_state,
         p.pinner_id AS pin_pinner_id, p.is_deleted AS pin_is_deleted, p.board_id AS pin_board_id, pb.privacy AS pin_board_privacy,
         pb.owner_id AS pin_board_owner_id, ${collaboratorSql("p.board_id", "?3")} AS pin_board_viewer_collaborates,
         pu.is_private_profile AS pinner_is_private_profile, pu.login_state AS pinner_login_state,
         b.owner_id AS board_owner_id, b.privacy AS board_privacy, b.archived_at AS board_archived_at,
         ${collaboratorSql("b.id", "?3")} AS board_viewer_collaborates,
         bo.is_private_profile AS board_owner_is_private_profile, bo.login_state AS board_owner_login_state
  FROM invites i
  JOIN users s ON s.id = i.sender_id
  LEFT JOIN pins p ON i.object_type = 'pin' AND p.id = i.object_id
  LEFT JOIN boards pb ON pb.id = p.board_id
  LEFT JOIN users pu ON pu.id = p.pinner_id
  LEFT JOIN boards b ON i.object_type = 'board' AND b.id = i.object_id
  LEFT JOIN users bo ON bo.id = b.owner_id
  WHERE i.id = ?1 AND i.expires_at > ?2`;

/**
 * The pin page's rule (pins.server.ts visibleTo): its pinner, its board's owner and accepted
 * collaborators always; others when the pinner is visible and the board public or none.
 */
function pinVisible(row: PinVisibilityRow, viewerId: number | null): boolean {
  if (row.pin_pinner_id === null || row.pin_is_deleted !== 0) return false;
  if (viewerId !== null && (viewerId === row.pin_pinner_id || viewerId === row.pin_board_owner_id || row.pin_board_viewer_collaborates === 1)) return true;
  const pinner = { id: row.pin_pinner_id, is_private_profile: row.pinner_is_private_profile ?? 1, login_state: row.pinner_login_state ?? "limited" };
  return canViewProfile(pinner, viewerId) && (row.pin_board_id === null || row.pin_board_privacy === "public");
}

function boardVisible(row: InviteRow, viewerId: number | null): boolean {
  if (row.board_owner_id === null || row.board_privacy === null) return false;
  const owner = { id: row.board_owner_id, is_private_profile: row.board_owner_is_private_profile ?? 1, login_state: row.board_owner_login_state ?? "limited" };
  const board = { owner_id: row.board_owner_id, privacy: row.board_privacy, archived_at: row.board_archived_at, viewer_collaborates: row.board_viewer_collaborates };
  return canViewBoard(board, viewerId) && canViewProfile(owner, viewerId);
}

/**
 * The invite a code names, as the spec's metadata, or null when there is none the viewer may
 * see. A limited-login sender (no full account behind the link) counts as none.
 */
export async function lookupInvite(db: D1Database, code: string, viewerId: number | null, now = Date.now()): Promise<InviteMetadata | null> {
  const row = await db.prepare(LOOKUP_SQL).bind(await inviteKey(code), now, viewerId).first<InviteRow>();
  if (!row || row.sender_login_state !== "full") return null;
  const visible = row.object_type === "pin" ? pinVisible(row, viewerId) : boardVisible(row, viewerId);
  if (!visible) return null;
  return {
    sender: {
      id: String(row.sender_id),
      should_show_messaging: row.sender_should_show_messaging === 1,
      image_medium_url: userImageUrl(row.sender_image_key, "medium"),
      first_name: row.sender_first_name,
      full_name: row.sender_full_name,
    },
    invite_channel: row.invite_channel,
  };
}

export interface NewInvite {
  code: string;
  invite_channel: InviteChannel;
  expires_at: string;
}

const PIN_VISIBILITY_SQL = `
  SELECT p.pinner_id AS pin_pinner_id, p.is_deleted AS pin_is_deleted, p.board_id AS pin_board_id, pb.privacy AS pin_board_privacy,
         pb.owner_id AS pin_board_owner_id, ${collaboratorSql("p.board_id", "?2")} AS pin_board_viewer_collaborates,
         pu.is_private_profile AS pinner_is_private_profile, pu.login_state AS pinner_login_state
  FROM pins p
  LEFT JOIN boards pb ON pb.id = p.board_id
  JOIN users pu ON pu.id = p.pinner_id
  WHERE p.id = ?1`;

/**
 * Stores a fresh invite for a pin the sender can see, or answers null (the pin is missing to
 * them, exactly as its page would be).
 */
export async function createInvite(db: D1Database, senderId: number, pinId: string, channel: InviteChannel, now = Date.now()): Promise<NewInvite | null> {
  const pin = await db.prepare(PIN_VISIBILITY_SQL).bind(pinId, senderId).first<PinVisibilityRow>();
  if (!pin || !pinVisible(pin, senderId)) return null;
  const code = newInviteCode();
  const expiresAt = now + INVITE_LIFETIME_MS;
  await db
    .prepare(
      `INSERT INTO invites (id, sender_id, invite_channel, object_type, object_id, created_at, expires_at)
       VALUES (?1, ?2, ?3, 'pin', ?4, ?5, ?6)`,
    )
    .bind(await inviteKey(code), senderId, channel, pinId, now, expiresAt)
    .run();
  return { code, invite_channel: channel, expires_at: new Date(expiresAt).toISOString() };
}
