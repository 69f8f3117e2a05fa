// Topics (interests): following one, and a pin's topics for the close-up (spec 001 §3 "Topic",
// §4; spec 000 §7 "Interest follow and unfollow": create with interest_id and an interest
// list, delete; success logs event 601 (follow) or 602 (unfollow)). The event row is written
// in the same batch as the follow, so a follow is never recorded without its event.
import { requireWriteAllowed, type Viewer } from "~/accounts/guards.server.ts";
import { notFound } from "~/domain/errors.ts";

const INTEREST_EVENTS = { follow: 601, unfollow: 602 } as const;

export interface InterestFollowAnswer {
  interest_id: string;
  is_followed: boolean;
}

export async function setInterestFollow(
  db: D1Database,
  viewer: Viewer,
  /** The request's id, kept with the event. */
  requestId: string,
  interestId: number,
  follow: boolean,
  interestList: string | null,
): Promise<InterestFollowAnswer> {
  const viewerId = requireWriteAllowed(viewer).user.id;
  const interest = await db.prepare("SELECT id FROM interests WHERE id = ?1").bind(interestId).first();
  if (!interest) throw notFound("social:api.interestNotFound");
  const now = Date.now();
  await db.batch([
    follow
      ? db.prepare("INSERT OR IGNORE INTO follows (follower_id, target_type, target_id, explicit, created_at) VALUES (?1, 'interest', ?2, 1, ?3)").bind(viewerId, interestId, now)
      : db.prepare("DELETE FROM follows WHERE follower_id = ?1 AND target_type = 'interest' AND target_id = ?2").bind(viewerId, interestId),
    db
      .prepare(
        `INSERT INTO events (client_id, event_type, object_id_str, aux_data, time_ns, user_id, request_id, received_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)`,
      )
      .bind(
        crypto.randomUUID(),
        follow ? INTEREST_EVENTS.follow : INTEREST_EVENTS.unfollow,
        String(interestId),
        interestList === null ? null : JSON.stringify({ interest_list: interestList }),
        `${now}000000`,
        viewerId,
        requestId,
        now,
      ),
  ]);
  return { interest_id: String(interestId), is_followed: follow };
}

export interface PinTopic {
  id: string;
  /** The stable machine name; pages translate it (social:topic.<key>) and fall back to name. */
  key: string;
  name: string;
  is_followed: boolean;
}
