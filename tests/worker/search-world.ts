// A small world for the search Worker tests: people, boards, interests and pins whose words
// are chosen so each query of the ranking table has one right answer, plus rows that must
// never be found (hidden, deleted, unsafe, secret, private profile).
import { env } from "cloudflare:workers";
import { Browser } from "./accounts-helpers.ts";
import { call, type ResourceAnswer } from "./boards-helpers.ts";
import { createSession } from "./session-fixture.ts";
import type { SearchResponse, TypeaheadResponse } from "~/search/types.ts";

export const PEOPLE = { chef: 301, maker: 302, hidden: 303, searcher: 304 } as const;
export const BOARDS = { dinners: 3001, secretLasagna: 3002, privatePerson: 3003 } as const;

const DAY = 86_400_000;
/** Every pin's time: a fixed past, a day apart, so recency is deterministic and small. */
const T0 = 1_700_000_000_000;

interface PinRow {
  id: number;
  pinner?: number;
  board?: number | null;
  kind?: string;
  title: string;
  description?: string;
  saves?: number;
  meta?: unknown;
  price?: number | null;
  domain?: string | null;
  category?: string | null;
  hidden?: boolean;
  deleted?: boolean;
  unsafe?: boolean;
  interests?: number[];
  ageDays?: number;
}

const PINS: PinRow[] = [
  { id: 4001, title: "Creamy tomato pasta", description: "Dinner in twenty minutes", saves: 50, interests: [1] },
  { id: 4002, kind: "recipe", title: "Weeknight dinner ideas", description: "Pasta and more for busy evenings", saves: 5, interests: [1] },
  { id: 4003, kind: "recipe", title: "Lemon tart", description: "Sharp and sweet", saves: 3, meta: { recipe: { name: "Lemon tart", ingredients: [{ items: [{ name: "lemons" }, { name: "butter" }] }] } }, interests: [2] },
  { id: 4004, kind: "recipe", title: "Custard for every season", description: "Smooth", meta: { recipe: { name: "Custard", ingredients: [{ items: [{ name: "vanilla bean" }, { name: "cream" }] }] } }, interests: [2] },
  { id: 4005, kind: "video", title: "Pasta shapes explained", description: "A short film", saves: 1, interests: [1] },
  { id: 4006, kind: "product", title: "Brass desk lamp", description: "Warm light", meta: { products: [{ id: 1, name: "Desk lamp", brand: "Acme" }] }, price: 30, domain: "shop.example", category: "home_decor", interests: [3] },
  { id: 4007, kind: "product", title: "Ceramic lamp", description: "Glazed", meta: { products: [{ id: 2, name: "Table lamp", brand: "Kiln" }] }, price: 80, domain: "other.example", category: "home_decor", interests: [3] },
  { id: 4008, kind: "story", title: "Pasta story", description: "Five steps", interests: [1] },
  { id: 4009, board: BOARDS.secretLasagna, title: "Secret pasta sauce zanzibar", description: "Only for me", interests: [4] },
  { id: 4010, pinner: PEOPLE.hidden, board: BOARDS.privatePerson, title: "Hidden pasta truffle", interests: [1] },
  { id: 4011, title: "Pasta hidden by moderation", hidden: true },
  { id: 4012, title: "Pasta deleted long ago", deleted: true },
  { id: 4013, title: "Pasta unsafe picture", unsafe: true },
  { id: 4014, kind: "article", title: "Why bread rises", description: "Yeast", meta: { article: { name: "The science of sourdough", datePublished: "2024-01-01T00:00:00Z" } } },
  { id: 4015, pinner: PEOPLE.maker, board: null, title: "Pasta drying rack", description: "Wooden", saves: 0, interests: [1] },
  // Thirty pins for paging.
  ...Array.from({ length: 30 }, (_, i): PinRow => ({ id: 4100 + i, title: `Marigold garden ${i}`, description: "Orange flowers", saves: i, ageDays: i })),
];

export async function seedSearchWorld(): Promise<void> {
  const db = env.DB;
  const user = (id: number, username: string, fullName: string, isPrivate = 0, followers = 0) =>
    db
      .prepare("INSERT INTO users (id, username, email, full_name, first_name, is_private_profile, follower_count, email_verified, created_at) VALUES (?1, ?2, ?3, ?4, ?4, ?5, ?6, 1, 0)")
      .bind(id, username, `${username}@search.test`, fullName, isPrivate, followers);
  const board = (id: number, owner: number, name: string, description: string, privacy: string, followers = 0) =>
    db
      .prepare("INSERT INTO boards (id, owner_id, name, slug, description, privacy, follower_count, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8)")
      .bind(id, owner, name, `board-${id}`, description, privacy, followers, T0);
  const statements = [
    user(PEOPLE.chef, "chef_ana", "Ana Cook", 0, 120),
    user(PEOPLE.maker, "maker_bo", "Bo Maker", 0, 3),
    user(PEOPLE.hidden, "hidden_hal", "Hal Pasta", 1, 0),
    user(PEOPLE.searcher, "searcher_sam", "Sam Seeker", 0, 0),
    board(BOARDS.dinners, PEOPLE.chef, "Weeknight dinners", "Quick pasta recipes", "public", 10),
    board(BOARDS.secretLasagna, PEOPLE.chef, "Lasagna surprise", "Zanzibar secret", "secret"),
    board(BOARDS.privatePerson, PEOPLE.hidden, "Pasta for me", "", "public"),
    db.prepare("INSERT INTO interests (id, key, name) VALUES (1, 'italian_food', 'Italian food'), (2, 'desserts', 'Desserts'), (3, 'home_decor', 'Home decor'), (4, 'zanzibar_secret', 'Zanzibar spices')"),
  ];
  for (const pin of PINS) {
    const createdAt = T0 - (pin.ageDays ?? 0) * DAY + pin.id;
    statements.push(
      db
        .prepare(
          `INSERT INTO pins (id, pinner_id, board_id, kind, title, description, image_signature, rich_metadata, price_value, domain, category,
                             save_count, is_hidden, is_deleted, is_unsafe, created_at, updated_at)
           VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'sig', ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?15)`,
        )
        .bind(
          pin.id,
          pin.pinner ?? PEOPLE.chef,
          pin.board === undefined ? BOARDS.dinners : pin.board,
          pin.kind ?? "image",
          pin.title,
          pin.description ?? "",
          pin.meta === undefined ? null : JSON.stringify(pin.meta),
          pin.price ?? null,
          pin.domain ?? null,
          pin.category ?? null,
          pin.saves ?? 0,
          pin.hidden ? 1 : 0,
          pin.deleted ? 1 : 0,
          pin.unsafe ? 1 : 0,
          createdAt,
        ),
      db.prepare("INSERT INTO pin_images (pin_id, size, url, width, height, dominant_color) VALUES (?1, '236x', ?2, 236, 300, '#abcdef')").bind(pin.id, `/media/pins/${pin.id}/236x.jpg`),
    );
    if (pin.board !== null) statements.push(db.prepare("INSERT INTO board_pins (board_id, pin_id, saved_by, position, created_at) VALUES (?1, ?2, ?3, ?4, 0)").bind(pin.board ?? BOARDS.dinners, pin.id, pin.pinner ?? PEOPLE.chef, -pin.id));
    for (const interest of pin.interests ?? []) statements.push(db.prepare("INSERT INTO pin_interests (pin_id, interest_id) VALUES (?1, ?2)").bind(pin.id, interest));
  }
  await db.batch(statements);
}

export async function signedIn(userId: number): Promise<Browser> {
  const browser = new Browser();
  const session = await createSession(userId);
  browser.cookies.set("__Host-pinloom_sess", session.token);
  return browser;
}

let nextPerson = 700;
/** A new person with a session: for tests whose rows (recent searches) must start empty. */
export async function freshPerson(): Promise<Browser> {
  const id = ++nextPerson;
  await env.DB.prepare("INSERT INTO users (id, username, email, full_name, email_verified, created_at) VALUES (?1, ?2, ?3, ?2, 1, 0)").bind(id, `person_${id}`, `person_${id}@search.test`).run();
  return signedIn(id);
}

/**
 * BaseSearchResource get as the app's own scripts send it (X-Requested-With, src/runtime/fetch.ts),
 * or with `headers` instead (a cross-site GET sends none of them).
 */
export async function searchCall(browser: Browser, options: Record<string, unknown>, headers: Record<string, string> = { "x-requested-with": "XMLHttpRequest" }): Promise<ResourceAnswer<SearchResponse>> {
  const response = await browser.fetch(`/resource/BaseSearchResource/get/?data=${encodeURIComponent(JSON.stringify({ options }))}`, { headers });
  const body = await response.json<Record<string, unknown>>();
  const envelope = body.resource_response as { data: SearchResponse; error?: ResourceAnswer["error"] } | undefined;
  const error = (envelope?.error ?? (body.error as ResourceAnswer["error"]) ?? (response.status === 200 ? null : (body as unknown as ResourceAnswer["error"]))) ?? null;
  return { status: response.status, data: (envelope?.data ?? null) as SearchResponse, error };
}

export async function searchOk(browser: Browser, options: Record<string, unknown>): Promise<SearchResponse> {
  const answer = await searchCall(browser, options);
  if (answer.status !== 200) throw new Error(`search ${JSON.stringify(options)}: ${answer.status} ${JSON.stringify(answer.error)}`);
  return answer.data;
}

export async function typeaheadOk(browser: Browser, options: Record<string, unknown>): Promise<TypeaheadResponse> {
  const answer = await call<TypeaheadResponse>(browser, "AdvancedTypeaheadResource", "get", options);
  if (answer.status !== 200) throw new Error(`typeahead ${JSON.stringify(options)}: ${answer.status} ${JSON.stringify(answer.error)}`);
  return answer.data;
}

export const ids = (response: SearchResponse): string[] => response.results.map((item) => item.id);
