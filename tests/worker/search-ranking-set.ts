// Results for a query are stable and relevant: queries over the seeded DEMO world
// (scripts/seed/world.ts, 1,000 pins, default seed 20261122, the world `npm run seed` makes)
// with the results that must come first. Pure data: the ranking Worker tests import it
// (tests/worker/search-ranking.worker.test.ts loads the demo world and checks every entry).
//
// mustLead: the ids that must fill the first mustLead.length results, in any order among
// themselves (pin ids for pin scopes, board ids for "boards", user ids for "users"). They were
// chosen from the demo world's text: each query's words are all in those results' titles (names)
// and in no other visible row's title, so text relevance alone decides the lead whatever the
// saves and recency blend does to the rest. `absent`: ids that must not be in the results at
// all for a signed-out viewer (secret, hidden, deleted, unsafe, private).
import type { Scope } from "~/search/options.ts";

export interface RankingCase {
  query: string;
  scope: Scope;
  mustLead: string[];
  absent?: string[];
  /** Why the case is in the set (what it exercises). */
  note: string;
}

export const SEARCH_RANKING_SET: readonly RankingCase[] = [
  // One right answer: the showcase pins (docs/demo-accounts.md ids).
  { query: "brown butter banana bread", scope: "pins", mustLead: ["100005"], note: "recipe pin; every word in the title" },
  { query: "banana bread", scope: "pins", mustLead: ["100005"], note: "title match leads a description-only match" },
  { query: "tomato orzo", scope: "pins", mustLead: ["100001"], note: "two title words" },
  { query: "burrata", scope: "pins", mustLead: ["100001"], note: "one rare title word" },
  { query: "cinnamon knots", scope: "pins", mustLead: ["100002"], note: "video pin" },
  { query: "overshirt", scope: "pins", mustLead: ["100007"], note: "product pin; hyphenated title word (wool-blend overshirt)" },
  { query: "ribbed knit beanie", scope: "pins", mustLead: ["100008"], note: "out-of-stock product pin is still found" },
  { query: "lemon drizzle loaf", scope: "pins", mustLead: ["100012"], note: "promoted pin" },
  { query: "rhubarb custard tart", scope: "pins", mustLead: ["100021"], note: "stop word between the terms in the title" },
  { query: "fig walnut loaf", scope: "pins", mustLead: ["100022"], note: "attributed pin" },
  { query: "roast potatoes", scope: "pins", mustLead: ["100017"], note: "link-only pin" },
  { query: "pastel de nata", scope: "pins", mustLead: ["100019"], note: "accented title (Belém)" },
  { query: "apple cake", scope: "pins", mustLead: ["100004"], note: "story pin" },
  { query: "slow weekend lisbon", scope: "pins", mustLead: ["100006"], note: "article pin; words spread over the title" },
  { query: "autumn layers", scope: "pins", mustLead: ["100003"], note: "carousel pin" },
  {
    query: "harissa chicken",
    scope: "pins",
    mustLead: ["100020"],
    note: "both words in the title lead the pins with only chicken in the title",
  },
  // Several right answers: all of them before anything else.
  { query: "picos de europa", scope: "pins", mustLead: ["100063", "100193", "100258", "100558", "100865"], absent: ["100789"], note: "a photo's place in six titles (one caption of a repeated photo); the sixth pinner's profile is private" },
  { query: "radish", scope: "pins", mustLead: ["100212", "100977"], note: "two title matches ahead of seven ingredient/description matches" },
  { query: "cauliflower", scope: "pins", mustLead: ["100068", "100730", "100847"], note: "three title matches ahead of metadata matches" },
  { query: "pallet coffee table", scope: "pins", mustLead: ["100094", "100120", "100312", "100461", "100562", "100732", "100953", "100957"], note: "three title words, ahead of titles with two of them" },
  { query: "wall clock", scope: "pins", mustLead: ["100090", "100137", "100222", "100559", "100639", "100724"], note: "six visible title matches; the seventh pin is not visible signed out" },
  // Pins that must never be found by a signed-out viewer.
  {
    query: "Surprise party for Maya",
    scope: "pins",
    mustLead: [],
    absent: ["100013", "100014"],
    note: "the secret board's pins (leak marker of the demo world)",
  },
  { query: "weeknight chili", scope: "pins", mustLead: [], absent: ["100009"], note: "deleted pin" },
  { query: "tram sunrise", scope: "pins", mustLead: [], absent: ["100010"], note: "hidden pin" },
  { query: "cliff jumping cascais", scope: "pins", mustLead: [], absent: ["100011"], note: "unsafe pin" },
  // Boards.
  { query: "weeknight dinners", scope: "boards", mustLead: ["10002", "10102"], note: "two public boards with the name" },
  { query: "lisbon trip", scope: "boards", mustLead: ["10010"], note: "board name" },
  { query: "autumn collection", scope: "boards", mustLead: ["10006"], note: "merchant's board" },
  { query: "spring bakes", scope: "boards", mustLead: ["10007"], note: "business account's board" },
  { query: "family recipes", scope: "boards", mustLead: ["10003"], note: "collaborative board" },
  { query: "Surprise party for Maya", scope: "boards", mustLead: [], absent: ["10001"], note: "secret board" },
  // People.
  { query: "marlowandmain", scope: "users", mustLead: ["2"], note: "username" },
  { query: "bake bloom", scope: "users", mustLead: ["3"], note: "business name words" },
  { query: "ava thompson", scope: "users", mustLead: ["1"], note: "full name of the demo account" },
  { query: "noah", scope: "users", mustLead: ["6"], note: "first name" },
  { query: "nest nook", scope: "users", mustLead: ["8"], note: "creator business name (username differs)" },
];
