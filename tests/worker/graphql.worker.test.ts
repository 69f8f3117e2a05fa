// POST /_/graphql/ in workerd against the built Worker: the persisted documents run
// over D1 with the pin page's visibility rules, the related feed pages by 12 exactly as its
// resource does, refusals are 400s naming the field, and the pin page embeds its preloaded
// queries' answers, equal to what the endpoint answers for the same variables. Each viewer is
// rate-limited (per user signed in, per IPv6 /64 signed out), and a signed-out page's embedded
// answers do not depend on the device.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { SESSION_COOKIE } from "~/accounts/session.server.ts";
import { hashToken, newToken } from "~/accounts/tokens.ts";
import { EMBEDDED_QUERIES_ID, type EmbeddedQueryResponse, type GraphqlResult } from "~/graphql/protocol.ts";
import { QUERY_IDS } from "~/graphql/query-ids.ts";
import type { QueryName } from "~/graphql/documents/index.ts";
import { SIGNED_OUT_IS_DESKTOP } from "~/graphql/embed.server.ts";
import { RATE_RULES } from "~/server/rate-limit.server.ts";
import { Browser, fillCounter } from "./accounts-helpers.ts";
import { BASE, BROWSER_UA, attributeOf, fetchWorker } from "./fixtures.ts";
import { browserAs } from "./social-fixture.ts";

const T0 = 1_700_000_000_000;
const CSRF = "c".repeat(64);
const OWNER = 1;
const COLLABORATOR = 2;
const STRANGER = 3;
const PUBLIC_PINS = Array.from({ length: 30 }, (_, i) => 1001 + i);
const SECRET_PINS = [1100, 1101, 1102];
const cookies: Record<number, string> = {};
const MOBILE_UA = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";

beforeAll(async () => {
  const db = env.DB;
  const pin = (id: number, board: number) => [
    db
      .prepare(
        `INSERT INTO pins (id, pinner_id, board_id, kind, title, image_signature, category, save_count, created_at, updated_at)
         VALUES (?1, 1, ?2, 'image', ?3, 'sig', 'food', 3, ?4, ?4)`,
      )
      .bind(id, board, `Pin ${id}`, T0 + id),
    db.prepare("INSERT INTO pin_images VALUES (?1, '236x', ?2, 236, 300, '#a1b2c3')").bind(id, `/media/pins/${id}/236x.jpg`),
  ];
  const user = (id: number, username: string) =>
    db.prepare("INSERT INTO users (id, username, email, full_name, created_at) VALUES (?1, ?2, ?3, ?2, 0)").bind(id, username, `${username}@pinloom.test`);
  await db.batch([
    user(1, "ava"),
    user(2, "cleo"),
    user(3, "sam"),
    db.prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, created_at, updated_at) VALUES (10, 1, 'Dinners', 'dinners', 'public', 0, 0), (11, 1, 'Surprise', 'surprise', 'secret', 0, 0)"),
    db.prepare("INSERT INTO board_collaborators (board_id, user_id, status, created_at) VALUES (11, 2, 'accepted', 0)"),
    ...PUBLIC_PINS.flatMap((id) => pin(id, 10)),
    ...SECRET_PINS.flatMap((id) => pin(id, 11)),
    db.prepare("INSERT INTO comments (id, pin_id, user_id, text, tags, created_at, updated_at) VALUES (501, 1001, 3, 'Looks great', '[]', ?1, ?1)").bind(T0),
  ]);
  for (const id of [OWNER, COLLABORATOR, STRANGER]) {
    const token = newToken();
    const now = Date.now();
    await db.prepare("INSERT INTO sessions (id, user_id, created_at, expires_at, last_seen_at) VALUES (?1, ?2, ?3, ?4, ?3)").bind(await hashToken(token), id, now, now + 86_400_000).run();
    cookies[id] = `${SESSION_COOKIE}=${token}`;
  }
});

function post(body: unknown, viewer?: number): Promise<Response> {
  return fetchWorker("/_/graphql/", {
    method: "POST",
    headers: {
      origin: BASE,
      "content-type": "application/json",
      accept: "application/json",
      "x-csrftoken": CSRF,
      "user-agent": BROWSER_UA,
      cookie: [`csrftoken=${CSRF}`, ...(viewer ? [cookies[viewer]!] : [])].join("; "),
    },
    body: JSON.stringify(body),
  });
}

async function query<Data = Record<string, unknown>>(name: QueryName, variables: Record<string, unknown>, viewer?: number): Promise<GraphqlResult<Data>> {
  const response = await post({ queryHash: QUERY_IDS[name], variables }, viewer);
  expect(response.status, JSON.stringify(variables)).toBe(200);
  expect(response.headers.get("cache-control")).toBe("private, no-store");
  return response.json<GraphqlResult<Data>>();
}

interface RelatedPage {
  relatedPins: { pins: Array<{ id: string; image: { url: string } }>; endCursor: string | null; hasNextPage: boolean } | null;
}

describe("CloseupRelatedModulesFeedQuery", () => {
  it("pages by 12 through every related pin once, newest first, never the pin itself or a secret one", async () => {
    const sizes: number[] = [];
    const seen: number[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 10; i++) {
      const result: GraphqlResult<RelatedPage> = await query<RelatedPage>("CloseupRelatedModulesFeedQuery", cursor ? { pinId: "1001", cursor, source: "closeup" } : { pinId: "1001", source: "closeup" });
      expect(result.errors).toBeUndefined();
      const page = result.data!.relatedPins!;
      sizes.push(page.pins.length);
      seen.push(...page.pins.map((pin) => Number(pin.id)));
      expect(page.hasNextPage).toBe(page.endCursor !== null);
      if (!page.hasNextPage) break;
      cursor = page.endCursor;
    }
    expect(sizes).toEqual([12, 12, 5]);
    expect(seen).toEqual(PUBLIC_PINS.filter((id) => id !== 1001).sort((a, b) => b - a));
  });

  it.each([
    ["a stranger", STRANGER],
    ["a signed-out visitor", undefined],
  ])("a secret pin's feed is null with a NOT_FOUND error for %s", async (_who, viewer) => {
    const result = await query<RelatedPage>("CloseupRelatedModulesFeedQuery", { pinId: "1100" }, viewer);
    expect(result.data).toEqual({ relatedPins: null });
    expect(result.errors).toEqual([{ message: "Pin not found", path: ["relatedPins"], extensions: { code: "NOT_FOUND" } }]);
  });

  it.each([
    ["its owner", OWNER],
    ["an accepted collaborator", COLLABORATOR],
  ])("a secret pin's feed answers for %s", async (_who, viewer) => {
    const result = await query<RelatedPage>("CloseupRelatedModulesFeedQuery", { pinId: "1100" }, viewer);
    expect(result.errors).toBeUndefined();
    expect(result.data!.relatedPins!.pins.length).toBe(12);
  });
});

interface PagePin {
  pin: { id: string; title: string; createdAt?: string; isHidden: boolean } | null;
}
interface DetailPin {
  pin: { id: string; saveCount?: number; createdAt?: string; comments?: Array<{ id: string; text: string }>; board: { url: string } | null } | null;
}

describe("CloseupPageQuery and CloseupDetailQuery", () => {
  it("answer a public pin with the page's fields; isAuth drops the signed-out-only ones", async () => {
    const signedOut = await query<PagePin>("CloseupPageQuery", { pinId: "1001", isAuth: false });
    expect(signedOut.data!.pin).toMatchObject({ id: "1001", title: "Pin 1001", isHidden: false, createdAt: new Date(T0 + 1001).toISOString() });
    const signedIn = await query<PagePin>("CloseupPageQuery", { pinId: "1001", isAuth: true }, STRANGER);
    expect(signedIn.data!.pin).not.toHaveProperty("createdAt");
    const detail = await query<DetailPin>("CloseupDetailQuery", { pinId: "1001", isAuth: true, isDesktop: true }, STRANGER);
    expect(detail.data!.pin).not.toHaveProperty("saveCount");
    expect(detail.data!.pin!.comments).toEqual([expect.objectContaining({ id: "501", text: "Looks great" })]);
    const mobile = await query<DetailPin>("CloseupDetailQuery", { pinId: "1001", isAuth: false, isDesktop: false });
    expect(mobile.data!.pin).not.toHaveProperty("comments");
    expect(mobile.data!.pin!.saveCount).toBe(3);
  });

  it.each([
    ["a secret pin for a stranger", "1100", STRANGER],
    ["a secret pin signed out", "1100", undefined],
    ["an unknown pin", "999999", OWNER],
  ])("%s: pin null and a NOT_FOUND error, nothing of the pin", async (_label, pinId, viewer) => {
    for (const [name, variables] of [
      ["CloseupPageQuery", { pinId, isAuth: viewer !== undefined }],
      ["CloseupDetailQuery", { pinId, isAuth: viewer !== undefined, isDesktop: true }],
    ] as const) {
      const result = await query<PagePin>(name, variables, viewer);
      expect(result).toEqual({ data: { pin: null }, errors: [{ message: "Pin not found", path: ["pin"], extensions: { code: "NOT_FOUND" } }] });
    }
  });

  it("the owner reads their secret pin, with its board", async () => {
    const result = await query<DetailPin>("CloseupDetailQuery", { pinId: "1100", isAuth: true, isDesktop: false }, OWNER);
    expect(result.data!.pin).toMatchObject({ id: "1100", board: { url: "/ava/surprise/" } });
  });
});

describe("refusals", () => {
  it.each([
    ["an unknown hash", { queryHash: "f".repeat(64), variables: {} }, "queryHash: "],
    ["raw query text", { query: "{ pin(id: \"1001\") { title } }" }, "query: "],
    ["introspection as raw text", { query: "{ __schema { types { name } } }" }, "query: "],
    ["a pin id that is not digits", { queryHash: QUERY_IDS.CloseupPageQuery, variables: { pinId: "abc", isAuth: false } }, "variables.pinId: "],
    ["a missing variable", { queryHash: QUERY_IDS.CloseupDetailQuery, variables: { pinId: "1001", isAuth: false } }, "variables.isDesktop: "],
  ])("%s → 400 naming the field", async (_label, body, detail) => {
    const response = await post(body);
    expect(response.status).toBe(400);
    const json = await response.json<{ message_detail: string; code: number }>();
    expect(json.message_detail).toContain(detail);
    expect(json.code).toBe(1);
  });

  it("a cross-site POST is refused by CSRF", async () => {
    const response = await fetchWorker("/_/graphql/", {
      method: "POST",
      headers: { origin: "https://evil.example", "content-type": "application/json", cookie: `csrftoken=${CSRF}`, "x-csrftoken": CSRF },
      body: JSON.stringify({ queryHash: QUERY_IDS.CloseupPageQuery, variables: { pinId: "1001", isAuth: false } }),
    });
    expect(response.status).toBe(403);
  });
});

describe("the pin page embeds its preloaded queries", () => {
  async function embedded(path: string, viewer?: number): Promise<{ html: string; entries: EmbeddedQueryResponse[] }> {
    const response = await fetchWorker(path, { headers: { "user-agent": BROWSER_UA, ...(viewer ? { cookie: cookies[viewer]! } : {}) } });
    expect(response.status).toBe(200);
    const html = await response.text();
    const json = new RegExp(`<script type="application/json" id="${EMBEDDED_QUERIES_ID}">([^<]*)</script>`).exec(html)?.[1];
    expect(json, "embedded block").toBeDefined();
    return { html, entries: JSON.parse(json!) as EmbeddedQueryResponse[] };
  }

  it("each embedded answer equals the endpoint's answer for the same query and variables", async () => {
    const { entries, html } = await embedded("/pin/1001/", STRANGER);
    expect(entries.map((entry) => entry.queryName)).toEqual(["CloseupPageQuery", "CloseupDetailQuery", "CloseupRelatedModulesFeedQuery"]);
    expect(entries[1]!.variables).toEqual({ pinId: "1001", isAuth: true, isDesktop: true });
    for (const entry of entries) expect(entry.result).toEqual(await query(entry.queryName, entry.variables, STRANGER));
    // The related feed pages on through the same query, from the embedded first page's cursor.
    expect(await attributeOf(html, "[data-feed-query]", "data-feed-query")).toBe("CloseupRelatedModulesFeedQuery");
    // HTMLRewriter gives the attribute as written, entities and all.
    expect(JSON.parse((await attributeOf(html, "[data-feed-query]", "data-feed-variables"))!.replaceAll("&quot;", '"'))).toEqual({ pinId: "1001" });
    const related = entries[2]!.result.data as unknown as RelatedPage;
    expect(await attributeOf(html, "[data-feed-query]", "data-bookmark")).toBe(related.relatedPins!.endCursor);
  });

  it("a page after ?related_cursor= embeds that page under that cursor", async () => {
    const first = (await query<RelatedPage>("CloseupRelatedModulesFeedQuery", { pinId: "1001" })).data!.relatedPins!;
    const { entries } = await embedded(`/pin/1001/?related_cursor=${first.endCursor}`);
    const entry = entries.find((candidate) => candidate.queryName === "CloseupRelatedModulesFeedQuery")!;
    expect(entry.variables).toEqual({ pinId: "1001", cursor: first.endCursor });
    expect(entry.result).toEqual(await query("CloseupRelatedModulesFeedQuery", entry.variables));
  });

  it("crawlers get no embedded block", async () => {
    const response = await fetchWorker("/pin/1001/", { headers: { "user-agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" } });
    expect(await response.text()).not.toContain(`id="${EMBEDDED_QUERIES_ID}"`);
  });
});

describe("limits per viewer, and one signed-out embed for every device", () => {
  const U = { owner: 801, reader: 805 } as const;
  const P = { page: 9804 } as const;
  beforeAll(async () => {
    const db = env.DB;
    await db.batch([
      ...Object.entries(U).map(([name, id]) =>
        db.prepare("INSERT INTO users (id, username, email, full_name, first_name, email_verified, created_at) VALUES (?1, ?2, ?3, ?2, ?2, 1, 0)").bind(id, `limits_${name}`, `${name}@limits.test`),
      ),
      db.prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, created_at, updated_at) VALUES (8100, ?1, 'Limits', 'limits', 'public', 0, 0)").bind(U.owner),
      db.prepare("INSERT INTO pins (id, pinner_id, board_id, kind, title, image_signature, created_at, updated_at) VALUES (?1, ?2, 8100, 'image', ?3, 'sig', 0, 0)").bind(P.page, U.owner, `Pin ${P.page}`),
      db.prepare("INSERT INTO pin_images VALUES (?1, '236x', '/media/pins/p/236x.jpg', 236, 300, '#a1b2c3')").bind(P.page),
    ]);
  });

  const ask = (browser: Browser) =>
    browser.fetch("/_/graphql/", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ queryHash: QUERY_IDS.CloseupPageQuery, variables: { pinId: String(P.page), isAuth: false } }),
    });

  it("signed out, is rate-limited per IPv6 /64: a full /64 gets 429 with Retry-After, the next /64 does not", async () => {
    expect((await ask(new Browser("2001:db8:77:1::5"))).status).toBe(200);
    await fillCounter("graphql:viewer:ip:2001:db8:77:1::/64", RATE_RULES.graphqlPerViewer.limit, RATE_RULES.graphqlPerViewer.windowMs);
    const refused = await ask(new Browser("2001:db8:77:1:abcd::1"));
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await ask(new Browser("2001:db8:77:2::5"))).status).toBe(200);
  });

  it("signed in, is rate-limited per user whatever the address", async () => {
    await fillCounter(`graphql:viewer:${U.reader}`, RATE_RULES.graphqlPerViewer.limit, RATE_RULES.graphqlPerViewer.windowMs);
    const browser = await browserAs(U.reader);
    expect((await ask(browser)).status).toBe(429);
    browser.ip = "203.0.113.77";
    expect((await ask(browser)).status).toBe(429);
    expect((await ask(await browserAs(U.owner))).status).toBe(200);
  });

  it("a signed-out pin page embeds the same isDesktop for a phone and a desktop (its cache key has no device class)", async () => {
    const embedded = async (userAgent: string) => {
      const response = await fetchWorker(`/pin/${P.page}/`, { headers: { "user-agent": userAgent, origin: BASE } });
      expect(response.status).toBe(200);
      const json = new RegExp(`<script type="application/json" id="${EMBEDDED_QUERIES_ID}">([^<]*)</script>`).exec(await response.text())?.[1];
      expect(json, "embedded block").toBeDefined();
      return (JSON.parse(json!) as EmbeddedQueryResponse[]).find((entry) => entry.queryName === "CloseupDetailQuery")!.variables;
    };
    expect(await embedded(MOBILE_UA)).toEqual({ pinId: String(P.page), isAuth: false, isDesktop: SIGNED_OUT_IS_DESKTOP });
    expect(await embedded("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36")).toEqual({
      pinId: String(P.page),
      isAuth: false,
      isDesktop: SIGNED_OUT_IS_DESKTOP,
    });
  });
});
