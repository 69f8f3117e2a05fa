// Topics of the demo world (src/server/migrations/0009_social.sql): one interest per pin
// category the world uses, and each pin linked to its category's interest. Built from a
// finished world without changing it, like invites.ts; deterministic (sorted keys, ids 1..n).
import { TOPIC_CATEGORY, TOPIC_LABEL, type Topic } from "./corpus.ts";
import type { World } from "./world.ts";

type InterestRow = { id: number; key: string; name: string };
type PinInterestRow = { pin_id: number; interest_id: number };
export type SocialTables = { interests: InterestRow[]; pin_interests: PinInterestRow[] };

export const SOCIAL_TABLE_INSERT_ORDER = ["interests", "pin_interests"] as const;

/** The English label of a category key (the topic whose category it is), else the key itself. */
function labelOf(key: string): string {
  const topic = (Object.keys(TOPIC_CATEGORY) as Topic[]).find((name) => TOPIC_CATEGORY[name] === key);
  return topic ? TOPIC_LABEL[topic] : key;
}

export function buildSocial(world: World): SocialTables {
  const keys = [...new Set(world.tables.pins.map((pin) => pin.category).filter((key): key is string => key !== null))].sort();
  const interests = keys.map((key, index): InterestRow => ({ id: index + 1, key, name: labelOf(key) }));
  const idOf = new Map(interests.map((interest) => [interest.key, interest.id]));
  const pin_interests = world.tables.pins.flatMap((pin): PinInterestRow[] => {
    const id = pin.category === null ? undefined : idOf.get(pin.category);
    return id === undefined ? [] : [{ pin_id: pin.id, interest_id: id }];
  });
  return { interests, pin_interests };
}
