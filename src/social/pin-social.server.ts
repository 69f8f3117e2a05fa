// What the close-up's social block shows, read in one statement (one round trip): reaction counts and the viewer's
// reaction, did-it count and the viewer's, the pin's topics, and its sponsorship.
import { viewerById, type ViewerRef } from "~/accounts/viewer-ref.ts";
import { userImageUrl } from "~/users/user.ts";
import type { PinDidItState } from "./did-it.ts";
import type { PinTopic } from "./interests.server.ts";
import type { ReactionState } from "./reactions.ts";
import { parseStoredSponsorship, type SponsorshipView } from "./sponsorship.ts";
import type { Person } from "./store.ts";
import type { BesidePin } from "~/pins/pins.server.ts";

export interface PinSocialData {
  reactions: ReactionState;
  didIt: PinDidItState;
  topics: PinTopic[];
  sponsorship: SponsorshipView<Person> | null;
}

/** The block's statement and reader, for the pin page to read in the pin's own batch (getPinBeside). */
export function pinSocialRead(db: D1Database, pinId: string, viewerId: number | null): BesidePin<PinSocialData> {
  const viewer = viewerById(viewerId);
  return {
    statement: db.prepare(pinSocialSql(viewer)).bind(pinId, ...viewer.binds),
    read: (result) => pinSocialFromRow((result?.results as SocialRow[] | undefined)?.[0]),
  };
}

/**
 * The block's values as SQL over the pin row `p` and the viewer, one column each. A caller
 * may read them inside its own statement (a member page reads them in the session's, beside
 * the viewer's relation to the pin). The counts, topics and the sponsorship's two people come
 * as JSON arrays, so the block is one row.
 */
export function pinSocialFields(viewer: ViewerRef): Array<[keyof SocialRow, string]> {
  const v = viewer.sql;
  return [
    ["did_it_images_count", "p.did_it_images_count"],
    ["sponsorship", "p.sponsorship"],
    ["did_it_id", `(SELECT id FROM did_its WHERE pin_id = p.id AND user_id = ${v})`],
    ["reaction_by_me", `(SELECT reaction_type FROM reactions WHERE pin_id = p.id AND user_id = ${v})`],
    [
      "counts",
      `(SELECT json_group_array(json_object('reaction_type', reaction_type, 'count', count))
          FROM (SELECT reaction_type, count FROM pin_reaction_counts WHERE pin_id = p.id ORDER BY reaction_type))`,
    ],
    [
      "topics",
      `(SELECT json_group_array(json_object('id', id, 'key', key, 'name', name, 'followed', followed))
          FROM (SELECT i.id, i.key, i.name,
                       EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = ${v} AND f.target_type = 'interest' AND f.target_id = i.id) AS followed
                  FROM pin_interests pi JOIN interests i ON i.id = pi.interest_id
                 WHERE pi.pin_id = p.id ORDER BY i.name LIMIT 10))`,
    ],
    [
      "people",
      `CASE WHEN json_valid(p.sponsorship) THEN
         (SELECT json_group_array(json_object('id', u.id, 'username', u.username, 'full_name', u.full_name, 'image_key', u.image_key))
            FROM users u
           WHERE u.id IN (CAST(json_extract(p.sponsorship, '$.creatorId') AS INTEGER), CAST(json_extract(p.sponsorship, '$.sponsorId') AS INTEGER)))
       END`,
    ],
  ];
}

/** The block's SELECT over the pin ?1. */
function pinSocialSql(viewer: ViewerRef): string {
  return `SELECT ${pinSocialFields(viewer).map(([name, sql]) => `${sql} AS ${name}`).join(", ")} FROM pins p WHERE p.id = ?1`;
}

export interface SocialRow {
  did_it_images_count: number;
  sponsorship: string | null;
  did_it_id: number | null;
  reaction_by_me: number | null;
  /** JSON arrays (json_group_array): "[]" when empty; already parsed when the row itself came as JSON. */
  counts: string | unknown[];
  topics: string | unknown[];
  people: string | unknown[] | null;
}

const jsonArray = <T>(value: string | unknown[] | null | undefined): T[] => (typeof value === "string" ? (JSON.parse(value) as T[]) : ((value ?? []) as T[]));

/** The block from pinSocialSql's row; an absent pin reads as an empty block. */
export function pinSocialFromRow(row: SocialRow | null | undefined): PinSocialData {
  const stored = parseStoredSponsorship(row?.sponsorship ?? null);
  let sponsorship: SponsorshipView<Person> | null = null;
  if (stored) {
    const results = jsonArray<{ id: number; username: string; full_name: string; image_key: string | null }>(row?.people);
    const person = (id: string | null): Person | null => {
      const user = results.find((candidate) => String(candidate.id) === id);
      return user ? { id: String(user.id), username: user.username, full_name: user.full_name, image_medium_url: userImageUrl(user.image_key, "medium") } : null;
    };
    const creator = person(stored.creatorId);
    if (creator) sponsorship = { creator, sponsor: person(stored.sponsorId), status: stored.status };
  }
  return {
    reactions: { reaction_counts: jsonArray<ReactionState["reaction_counts"][number]>(row?.counts), reaction_by_me: row?.reaction_by_me ?? 0 },
    didIt: {
      done_by_me: typeof row?.did_it_id === "number",
      images_count: row?.did_it_images_count ?? 0,
      did_it_id: typeof row?.did_it_id === "number" ? String(row.did_it_id) : null,
    },
    topics: jsonArray<{ id: number; key: string; name: string; followed: number }>(row?.topics).map((topic) => ({
      id: String(topic.id),
      key: topic.key,
      name: topic.name,
      is_followed: topic.followed === 1,
    })),
    sponsorship,
  };
}
