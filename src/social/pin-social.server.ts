// What the close-up's social block shows, read in one batch (one round trip): reaction counts and the viewer's
// reaction, did-it count and the viewer's, the pin's topics, and its sponsorship.
import { viewerById, type ViewerRef } from "../accounts/viewer-ref.ts";
import { userImageUrl } from "../users/user.ts";
import type { PinDidItState } from "./did-it.ts";
import type { PinTopic } from "./interests.server.ts";
import type { ReactionState } from "./reactions.ts";
import { parseStoredSponsorship, type SponsorshipView } from "./sponsorship.ts";
import type { Person } from "./store.ts";

export interface PinSocialData {
  reactions: ReactionState;
  didIt: PinDidItState;
  topics: PinTopic[];
  sponsorship: SponsorshipView<Person> | null;
}

export async function pinSocialData(db: D1Database, pinId: string, viewerId: number | null): Promise<PinSocialData> {
  return pinSocialFrom(await db.batch(pinSocialStatements(db, pinId, viewerById(viewerId))));
}

/**
 * The block's statements, for a caller's own batch (a member page reads them beside the
 * viewer's relation to the pin). One round trip: the sponsorship's two people are read beside
 * the pin, from its stored ids.
 */
export function pinSocialStatements(db: D1Database, pinId: string, viewer: ViewerRef): D1PreparedStatement[] {
  const v = viewer.sql;
  return [
    db.prepare("SELECT reaction_type, count FROM pin_reaction_counts WHERE pin_id = ?1 ORDER BY reaction_type").bind(pinId),
    db.prepare(`SELECT reaction_type FROM reactions WHERE pin_id = ?1 AND user_id = ${v}`).bind(pinId, ...viewer.binds),
    db
      .prepare(
        `SELECT p.did_it_images_count, p.sponsorship, (SELECT id FROM did_its WHERE pin_id = p.id AND user_id = ${v}) AS did_it_id
         FROM pins p WHERE p.id = ?1`,
      )
      .bind(pinId, ...viewer.binds),
    db
      .prepare(
        `SELECT i.id, i.key, i.name,
                EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = ${v} AND f.target_type = 'interest' AND f.target_id = i.id) AS followed
         FROM pin_interests pi JOIN interests i ON i.id = pi.interest_id
         WHERE pi.pin_id = ?1 ORDER BY i.name LIMIT 10`,
      )
      .bind(pinId, ...viewer.binds),
    db
      .prepare(
        `SELECT u.id, u.username, u.full_name, u.image_key FROM pins p JOIN users u
           ON u.id IN (CAST(json_extract(p.sponsorship, '$.creatorId') AS INTEGER), CAST(json_extract(p.sponsorship, '$.sponsorId') AS INTEGER))
         WHERE p.id = ?1 AND json_valid(p.sponsorship)`,
      )
      .bind(pinId),
  ];
}

/** The block from its statements' results, in pinSocialStatements' order. */
export function pinSocialFrom([counts, mine, pin, topics, people]: ReadonlyArray<D1Result | undefined>): PinSocialData {
  const row = pin?.results?.[0] as { did_it_images_count: number; sponsorship: string | null; did_it_id: number | null } | undefined;
  const stored = parseStoredSponsorship(row?.sponsorship ?? null);
  let sponsorship: SponsorshipView<Person> | null = null;
  if (stored) {
    const results = (people?.results ?? []) as Array<{ id: number; username: string; full_name: string; image_key: string | null }>;
    const person = (id: string | null): Person | null => {
      const user = results.find((candidate) => String(candidate.id) === id);
      return user ? { id: String(user.id), username: user.username, full_name: user.full_name, image_medium_url: userImageUrl(user.image_key, "medium") } : null;
    };
    const creator = person(stored.creatorId);
    if (creator) sponsorship = { creator, sponsor: person(stored.sponsorId), status: stored.status };
  }
  const mineRow = mine?.results?.[0] as { reaction_type: number } | undefined;
  return {
    reactions: { reaction_counts: (counts?.results ?? []) as ReactionState["reaction_counts"], reaction_by_me: mineRow?.reaction_type ?? 0 },
    didIt: {
      done_by_me: typeof row?.did_it_id === "number",
      images_count: row?.did_it_images_count ?? 0,
      did_it_id: typeof row?.did_it_id === "number" ? String(row.did_it_id) : null,
    },
    topics: ((topics?.results ?? []) as Array<{ id: number; key: string; name: string; followed: number }>).map((topic) => ({
      id: String(topic.id),
      key: topic.key,
      name: topic.name,
      is_followed: topic.followed === 1,
    })),
    sponsorship,
  };
}
