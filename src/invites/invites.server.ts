// Invites in D1: minting a code for a pin a signed-in person can see, and looking a code up
// for a landing page. A lookup answers the spec's invite metadata (000 §3) and nothing more;
// an unknown, expired or not-visible invite are all the same null, so a guesser learns nothing
// about which codes exist, what a secret board holds or who a private sender is.
import { z } from "zod";
import { hashToken } from "~/accounts/tokens.ts";
import { userImageUrl, type LoginState } from "~/users/user.ts";
import { visibleFlagSql, visibleSql } from "~/visibility/visibility.server.ts";
import { pinIdSchema } from "~/pins/pin.ts";
import { toBase64Url } from "~/runtime/base64.ts";
import type { RateRule } from "~/server/rate-limit.server.ts";
import { INVITE_CODE_MAX, INVITE_CODE_PATTERN, INVITE_CHANNEL_IDS, INVITE_LIFETIME_MS, type InviteChannel, type InviteMetadata } from "./invite.ts";

/** Lookups per client address: a person lands a few times; a guesser is stopped long before luck helps. */
export const INVITE_LOOKUP_RULE = { name: "invite-lookup:ip", limit: 60, windowMs: 15 * 60_000 } as const satisfies RateRule;
/** Codes one person may mint per hour (each copy-link press mints one). */
export const INVITE_CREATE_RULE = { name: "invite-create:user", limit: 30, windowMs: 60 * 60_000 } as const satisfies RateRule;

const inviteCodeSchema = z.string().max(INVITE_CODE_MAX).regex(INVITE_CODE_PATTERN);
/** A 400 for another value lists the documented channels ("must be one of: 1, 2, …"). */
const inviteChannelSchema = z.literal(INVITE_CHANNEL_IDS);

export const inviteMetadataOptions = z.strictObject({ invite_code: inviteCodeSchema });
export const inviteCreateOptions = z.strictObject({ pin_id: pinIdSchema, invite_channel: inviteChannelSchema });

/** A fresh code: 16 random bytes in base64url, 22 characters. */
function newInviteCode(): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(16)));
}

/** The key an invite is stored under: a leaked row cannot be replayed as a link. */
export const inviteKey = (code: string) => hashToken(code);

interface InviteRow {
  invite_channel: number;
  object_type: "pin" | "board";
  sender_id: number;
  sender_first_name: string;
  sender_full_name: string;
  sender_image_key: string | null;
  sender_should_show_messaging: number;
  sender_login_state: LoginState;
  /** 1 when the viewer may see the sender's profile, and so its avatar. */
  sender_visible: number;
  /** 1 when the viewer may open the shared object (the close-up's or the board page's rule). */
  object_visible: number;
}

// One read: the invite, its sender, and whether the viewer may open the shared object.
const LOOKUP_SQL = `
  SELECT i.invite_channel, i.object_type, i.sender_id,
         s.first_name AS sender_first_name, s.full_name AS sender_full_name, s.image_key AS sender_image_key,
         s.should_show_messaging AS sender_should_show_messaging, s.login_state AS sender_login_state,
         ${visibleFlagSql("profile", { user: "s" }, "?3")} AS sender_visible,
         CASE i.object_type WHEN 'pin' THEN ${visibleFlagSql("pin", { pin: "p", board: "pb", pinner: "pu" }, "?3")}
                            ELSE ${visibleFlagSql("boardPage", { board: "b", owner: "bo" }, "?3")} END AS object_visible
  FROM invites i
  JOIN users s ON s.id = i.sender_id
  LEFT JOIN pins p ON i.object_type = 'pin' AND p.id = i.object_id
  LEFT JOIN boards pb ON pb.id = p.board_id
  LEFT JOIN users pu ON pu.id = p.pinner_id
  LEFT JOIN boards b ON i.object_type = 'board' AND b.id = i.object_id
  LEFT JOIN users bo ON bo.id = b.owner_id
  WHERE i.id = ?1 AND i.expires_at > ?2`;

/**
 * The invite a code names, as the spec's metadata, or null when there is none the viewer may
 * see. A limited-login sender (no full account behind the link) counts as none.
 */
export async function lookupInvite(db: D1Database, code: string, viewerId: number | null, now = Date.now()): Promise<InviteMetadata | null> {
  const row = await db.prepare(LOOKUP_SQL).bind(await inviteKey(code), now, viewerId).first<InviteRow>();
  if (!row || row.sender_login_state !== "full" || row.object_visible !== 1) return null;
  return {
    sender: {
      id: String(row.sender_id),
      should_show_messaging: row.sender_should_show_messaging === 1,
      // A private sender's avatar is theirs to show only where their profile shows (its bytes
      // answer 404 elsewhere): the invite names them and shows no picture.
      image_medium_url: row.sender_visible === 1 ? userImageUrl(row.sender_image_key, "medium") : null,
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

const PIN_VISIBLE_SQL = `
  SELECT 1 FROM pins p LEFT JOIN boards pb ON pb.id = p.board_id JOIN users pu ON pu.id = p.pinner_id
  WHERE p.id = ?1 AND ${visibleSql("pin", { pin: "p", board: "pb", pinner: "pu" }, "?2")}`;

/**
 * Stores a fresh invite for a pin the sender can see, or answers null (the pin is missing to
 * them, exactly as its page would be).
 */
export async function createInvite(db: D1Database, senderId: number, pinId: string, channel: InviteChannel, now = Date.now()): Promise<NewInvite | null> {
  if (!(await db.prepare(PIN_VISIBLE_SQL).bind(pinId, senderId).first())) return null;
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
