// Editorial "Today" articles for the demo world (src/server/migrations/0003_articles.sql).
// Built from a finished world without changing it: buildWorld's output (and its hash) stays
// exactly what it was; these rows are extra. Deterministic: no clock, no randomness; every
// choice is a function of the world's rows in id order.
import { holds } from "../../src/visibility/rules.ts";
import { FIXTURES, type World } from "./world.ts";

type TodayArticleRow = {
  id: number;
  title: string;
  subtitle: string | null;
  body: string;
  content_type: number;
  is_shopping: number;
  cover_pin_id: number | null;
  author_id: number | null;
  published_at: number;
  updated_at: number;
  is_published: number;
};

type TodayArticlePinRow = { article_id: number; pin_id: number; position: number };

export type ArticleTables = { today_articles: TodayArticleRow[]; today_article_pins: TodayArticlePinRow[] };

/** Parents first, after every table of the world (articles reference pins and users). */
export const ARTICLE_TABLE_INSERT_ORDER = ["today_articles", "today_article_pins"] as const;

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const PINS_PER_ARTICLE = 8;

type Draft = { title: string; subtitle: string | null; contentType: number; shopping: boolean; published?: boolean; paragraphs: string[] };

// Titles cover the slug rules: punctuation, symbols, accents, Arabic, emoji.
const DRAFTS: Draft[] = [
  {
    title: "Cozy Autumn Reading Nooks",
    subtitle: "Corners worth curling up in",
    contentType: 1,
    shopping: false,
    paragraphs: [
      "A reading nook needs three things: a soft seat, good light and a place to set down a cup.",
      "These corners were saved thousands of times this month. Most of them cost less than a weekend away.",
    ],
  },
  {
    title: "Gifts under $50 (that don't look it!)",
    subtitle: "Small presents, big reactions",
    contentType: 1,
    shopping: true,
    paragraphs: ["Thoughtful gifts do not need a big budget.", "Every pick below links to a shop you can visit from the pin."],
  },
  {
    title: "Crème brûlée à la maison",
    subtitle: "Le dessert préféré des Français, sans chalumeau",
    contentType: 0,
    shopping: false,
    paragraphs: ["Une crème riche, une croûte de sucre qui craque : voici comment la réussir chez vous.", "Le four fait presque tout le travail."],
  },
  {
    title: "أفكار لتزيين غرفة المعيشة",
    subtitle: "ألوان دافئة ومساحات مريحة",
    contentType: 2,
    shopping: false,
    paragraphs: ["غرفة المعيشة قلب البيت.", "هذه الأفكار تجمع بين البساطة والدفء."],
  },
  {
    title: "Weeknight dinners in 30 minutes 🍝",
    subtitle: null,
    contentType: 2,
    shopping: false,
    paragraphs: ["Fast does not have to mean boring.", "One pan, one pot or one sheet: pick your fighter."],
  },
  {
    title: "The best sourdough tips of the year",
    subtitle: "From starter to crumb",
    contentType: 1,
    shopping: false,
    paragraphs: ["Patience is the secret ingredient.", "Feed your starter, trust the float test, and bake hotter than you think."],
  },
  {
    title: "Shop the look: Scandinavian bedroom",
    subtitle: "Light wood, linen and calm",
    contentType: 0,
    shopping: true,
    paragraphs: ["Calm starts with fewer things.", "Every piece here is saved from a shop on Pinloom."],
  },
  {
    title: "Garden journal: what to plant in spring",
    subtitle: null,
    contentType: 4,
    shopping: false,
    paragraphs: ["Start with what grows easily where you live.", "Herbs on a sunny sill count as a garden too."],
  },
  {
    title: "Tiny apartment, big ideas",
    subtitle: "Storage that hides in plain sight",
    contentType: 3,
    shopping: false,
    paragraphs: ["Every wall is a shelf waiting to happen.", "Fold-away tables, hooks and baskets do the heavy lifting."],
  },
  {
    title: "Trending now: bold nail art ✨",
    subtitle: null,
    contentType: 0,
    shopping: false,
    paragraphs: ["Chrome, tiny hearts and mismatched tips are everywhere this season."],
  },
  {
    title: "Best travel capsule wardrobes",
    subtitle: "Ten pieces, fourteen days",
    contentType: 1,
    shopping: false,
    paragraphs: ["Pack for the trip, not for every possible trip.", "Neutral bases and one bright accent go a long way."],
  },
  {
    title: "Draft: holiday hosting checklist",
    subtitle: null,
    contentType: 0,
    shopping: false,
    published: false,
    paragraphs: ["Not ready yet."],
  },
];

/** Pins a stranger may see in a feed (the feedPin rule of src/visibility/rules.ts), with a grid image. */
function publicPinIds(world: World): number[] {
  const { users, boards, pins, pin_images: images } = world.tables;
  const userById = new Map(users.map((user) => [user.id, user]));
  const boardById = new Map(boards.map((board) => [board.id, board]));
  const withGridImage = new Set(images.filter((image) => image.size === "236x").map((image) => image.pin_id));
  return pins
    .filter(
      (pin) =>
        withGridImage.has(pin.id) &&
        holds("feedPin", { rows: { pin, board: pin.board_id === null ? null : (boardById.get(pin.board_id) ?? null), pinner: userById.get(pin.pinner_id) ?? null } }, null),
    )
    .map((pin) => pin.id)
    .sort((a, b) => a - b);
}

export function buildArticles(world: World): ArticleTables {
  const pinIds = publicPinIds(world);
  if (pinIds.length < PINS_PER_ARTICLE) throw new Error(`only ${pinIds.length} public pins: too few for articles`);
  const authors = [FIXTURES.users.demo, FIXTURES.users.business, FIXTURES.users.merchant, FIXTURES.users.friend];
  const existingUsers = new Set(world.tables.users.map((user) => user.id));
  const articles: TodayArticleRow[] = [];
  const articlePins: TodayArticlePinRow[] = [];
  DRAFTS.forEach((draft, index) => {
    const id = index + 1;
    // Spread the picks over the whole id range; consecutive articles do not share pins.
    const stride = Math.max(1, Math.floor(pinIds.length / (DRAFTS.length * PINS_PER_ARTICLE)));
    const picks = Array.from({ length: PINS_PER_ARTICLE }, (_, n) => pinIds[((index * PINS_PER_ARTICLE + n) * stride) % pinIds.length]!);
    const unique = [...new Set(picks)];
    const author = authors[index % authors.length]!;
    const published = world.baseEpoch + (index + 1) * DAY + 9 * HOUR;
    articles.push({
      id,
      title: draft.title,
      subtitle: draft.subtitle,
      body: draft.paragraphs.join("\n\n"),
      content_type: draft.contentType,
      is_shopping: draft.shopping ? 1 : 0,
      cover_pin_id: unique[0] ?? null,
      // Every fourth article has no author (the Pinloom editors).
      author_id: index % 4 === 3 || !existingUsers.has(author) ? null : author,
      published_at: published,
      updated_at: published + (index % 3) * HOUR,
      is_published: draft.published === false ? 0 : 1,
    });
    unique.forEach((pinId, position) => articlePins.push({ article_id: id, pin_id: pinId, position: position + 1 }));
  });
  return { today_articles: articles, today_article_pins: articlePins };
}
