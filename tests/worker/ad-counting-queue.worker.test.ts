// Views and clicks of promoted pins travel from GET /attribution_source/ through the EVENTS queue
// to its consumer (the built Worker's queue handler), which counts each event id once however
// often it arrives: a browser's retried ping, the same pings sent again, a queue redelivery.
// Spend accrues at the campaign's price and stops at its daily budget. Saves of a pin shown as
// promoted count once per person per ad. Every expected number is worked out by hand below.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { readingAs } from "./fixtures.ts";
import { browserAs } from "./social-fixture.ts";
import { TEST_ATTRIBUTION_SECRET } from "./attribution-secret.ts";
import { signAttributionToken } from "~/attribution/token.server.ts";
import { consumeEvents } from "~/events/consumer.server.ts";

const OWNER = 41;
const VIEWER_ONE = 42;
const VIEWER_TWO = 43;
const NEVER_SHOWN = 44;
const ACCOUNT = 640;
/** CONSIDERATION: 3,000 micro-units an impression, clicks free; a budget far away. */
const AWARENESS = { campaign: 741, adGroup: 751, ad: 761, pin: 171 };
/** WEB_CONVERSION: 500,000 micro-units a click; a budget of 1,200,000 a day (two clicks and 40% of a third). */
const TRAFFIC = { campaign: 742, adGroup: 752, ad: 762, pin: 172 };
/** CONSIDERATION, clicks free: its clicks mark how far the consumer has got, counting nothing that costs. */
const MARKER = { campaign: 743, adGroup: 753, ad: 763, pin: 173 };
const VIEWER_BOARD = 81;
const today = () => new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  const person = (id: number, name: string) => env.DB.prepare("INSERT INTO users (id, username, email, full_name, created_at) VALUES (?1, ?2, ?3, ?2, 0)").bind(id, name, `${name}@counting.test`);
  const pin = (id: number) =>
    env.DB.prepare(
      `INSERT INTO pins (id, pinner_id, board_id, kind, title, description, image_signature, dominant_color, link, created_at, updated_at)
       VALUES (?1, ?2, 80, 'image', 'Lamp', 'A lamp', 'sig', '#123456', 'https://lamps.example/lamp', 0, 0)`,
    ).bind(id, OWNER);
  const campaign = (ids: typeof AWARENESS, goal: string, budgetMicro: number) => [
    env.DB.prepare(
      `INSERT INTO campaigns (id, ad_account_id, business_id, name, goal, status, daily_budget_micro, start_at, end_at, created_by, created_at, updated_at)
       VALUES (?1, ?2, 560, ?3, ?4, 'ACTIVE', ?5, 0, NULL, ?6, 0, 0)`,
    ).bind(ids.campaign, ACCOUNT, `Campaign ${ids.campaign}`, goal, budgetMicro, OWNER),
    env.DB.prepare("INSERT INTO ad_groups (id, campaign_id, name, status, targeting, created_at, updated_at) VALUES (?1, ?2, 'Everyone', 'ACTIVE', '{\"auto\":true}', 0, 0)").bind(ids.adGroup, ids.campaign),
    env.DB.prepare(
      `INSERT INTO ads (id, ad_group_id, campaign_id, ad_account_id, pin_id, name, ad_type, destination_url, status, review_status, created_at, updated_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'PIN', 'https://lamps.example/lamp', 'ACTIVE', 'APPROVED', 0, 0)`,
    ).bind(ids.ad, ids.adGroup, ids.campaign, ACCOUNT, ids.pin, `Ad ${ids.ad}`),
  ];
  await env.DB.batch([
    person(OWNER, "lampco"),
    person(VIEWER_ONE, "una"),
    person(VIEWER_TWO, "tomas"),
    person(NEVER_SHOWN, "nadia"),
    env.DB.prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, created_at, updated_at) VALUES (80, ?1, 'Lamps', 'lamps', 'public', 0, 0)").bind(OWNER),
    env.DB.prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, created_at, updated_at) VALUES (?1, ?2, 'Reading corner', 'reading-corner', 'public', 0, 0), (82, ?3, 'Ideas', 'ideas', 'public', 0, 0)").bind(
      VIEWER_BOARD,
      VIEWER_ONE,
      NEVER_SHOWN,
    ),
    pin(AWARENESS.pin),
    pin(TRAFFIC.pin),
    pin(MARKER.pin),
    env.DB.prepare(
      `INSERT INTO businesses (id, owner_id, profile_id, name, vertical, country, locale, onboarding, created_at, updated_at)
       VALUES (560, ?1, ?1, 'Lamp Co', 'HOME', 'US', 'en_US', '{}', 0, 0)`,
    ).bind(OWNER),
    env.DB.prepare("INSERT INTO business_members (business_id, user_id, role, created_at) VALUES (560, ?1, 'ADMIN', 0)").bind(OWNER),
    env.DB.prepare("INSERT INTO ad_accounts (id, business_id, name, country, currency, created_by, created_at, updated_at) VALUES (?1, 560, 'Lamp Co US', 'US', 'USD', ?2, 0, 0)").bind(ACCOUNT, OWNER),
    ...campaign(AWARENESS, "CONSIDERATION", 50_000_000),
    ...campaign(TRAFFIC, "WEB_CONVERSION", 1_200_000),
    ...campaign(MARKER, "CONSIDERATION", 50_000_000),
  ]);
});

let address = 0;
/** One ping as a promoted cell of a feed sends it: same-origin, the page's token, the campaign named. */
async function ping(viewer: number, type: "view" | "click", eventId: string, ids: typeof AWARENESS): Promise<number> {
  const token = await signAttributionToken(TEST_ATTRIBUTION_SECRET, { pinId: String(ids.pin), advertiserId: String(ACCOUNT) });
  const query = new URLSearchParams({ source_event_id: eventId, destination: "https://lamps.example", source_event_type: type, advertiser_id: String(ACCOUNT), campaign_id: String(ids.campaign), pin_id: String(ids.pin), token });
  const browser = await browserAs(viewer);
  const response = await browser.fetch(`/attribution_source/?${query}`, { headers: { "sec-fetch-site": "same-origin", "cf-connecting-ip": `203.0.113.${(++address % 250) + 1}` } });
  return response.status;
}

/** The same events each time: three people's views, four clicks, and a view sent twice at once (a browser's retry). */
async function sendEvents(): Promise<void> {
  const statuses = [
    await ping(VIEWER_ONE, "view", "7001", AWARENESS),
    await ping(VIEWER_ONE, "view", "7001", AWARENESS),
    await ping(VIEWER_TWO, "view", "7002", AWARENESS),
    // The same person's second view of the ad today: a new event id, but a view counts once a day.
    await ping(VIEWER_ONE, "view", "7003", AWARENESS),
    await ping(VIEWER_ONE, "click", "7101", TRAFFIC),
    await ping(VIEWER_ONE, "click", "7102", TRAFFIC),
    await ping(VIEWER_TWO, "click", "7103", TRAFFIC),
    await ping(VIEWER_TWO, "click", "7104", TRAFFIC),
  ];
  expect(statuses).toEqual([204, 204, 204, 204, 204, 204, 204, 204]);
}

interface Day {
  ad_id: number;
  impressions: number;
  clicks: number;
  saves: number;
  spend_micro: number;
}

async function days(): Promise<Day[]> {
  const { results } = await env.DB.prepare("SELECT ad_id, impressions, clicks, saves, spend_micro FROM ad_spend_daily WHERE ad_account_id = ?1 AND day = ?2 ORDER BY ad_id").bind(ACCOUNT, today()).all<Day>();
  return results;
}

/** The day's rows once they read as expected (the consumer counts within seconds). */
const daysReaching = (expected: Day[]) => readingAs(days, expected);

async function counted(): Promise<{ deliveries: number; receipts: number }> {
  const row = await env.DB.prepare(
    "SELECT (SELECT count(*) FROM ad_delivery_counts WHERE ad_id IN (?1, ?2)) AS deliveries, (SELECT count(*) FROM ad_event_receipts WHERE advertiser_id = ?3 AND source_event_id BETWEEN '7001' AND '7104') AS receipts",
  )
    .bind(AWARENESS.ad, TRAFFIC.ad, String(ACCOUNT))
    .first<{ deliveries: number; receipts: number }>();
  return row!;
}

// By hand. Awareness: Una's view and Tomas's view, 3,000 each = 6,000 (Una's second view and the
// retried ping add nothing). Traffic: four clicks at 500,000 against a budget of 1,200,000:
// 500,000 + 500,000 + 200,000 (what is left) + 0 = 1,200,000.
const AWARENESS_DAY: Day = { ad_id: AWARENESS.ad, impressions: 2, clicks: 0, saves: 0, spend_micro: 6_000 };
const TRAFFIC_DAY: Day = { ad_id: TRAFFIC.ad, impressions: 0, clicks: 4, saves: 0, spend_micro: 1_200_000 };
const markerDay = (clicks: number): Day => ({ ad_id: MARKER.ad, impressions: 0, clicks, saves: 0, spend_micro: 0 });

describe("counting promoted pins' events through the queue", () => {
  it("counts the same event ids sent three times exactly as after the first", async () => {
    await sendEvents();
    expect(await daysReaching([AWARENESS_DAY, TRAFFIC_DAY])).toEqual([AWARENESS_DAY, TRAFFIC_DAY]);
    // Two view rows and four click rows; seven event ids claimed (the second view today too).
    expect(await counted()).toEqual({ deliveries: 6, receipts: 7 });

    for (const round of [2, 3]) {
      await sendEvents();
      // A fresh click on the free marker ad, sent after the repeats: once it is counted, the
      // consumer has had the repeats too (and a moment more lets any straggler land).
      expect(await ping(VIEWER_ONE, "click", `790${round}`, MARKER)).toBe(204);
      const expected = [AWARENESS_DAY, TRAFFIC_DAY, markerDay(round - 1)];
      expect(await daysReaching(expected)).toEqual(expected);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(await days()).toEqual(expected);
    }
    expect(await counted()).toEqual({ deliveries: 6, receipts: 7 });
  }, 90_000);

  it("counts nothing again when the queue delivers the same messages again", async () => {
    const before = await days();
    const body = (type: "view" | "click", id: string, ids: typeof AWARENESS, userId: number) => ({ kind: "ad", type, sourceEventId: id, advertiserId: String(ACCOUNT), campaignId: String(ids.campaign), pinId: String(ids.pin), viewerKey: `u${userId}`, receivedAt: Date.now() });
    const acked: string[] = [];
    const messages = [body("view", "7001", AWARENESS, VIEWER_ONE), body("view", "7002", AWARENESS, VIEWER_TWO), body("click", "7104", TRAFFIC, VIEWER_TWO), body("click", "7104", TRAFFIC, VIEWER_TWO)].map((message, index) => ({
      id: `redelivered-${index}`,
      timestamp: new Date(0),
      body: message,
      attempts: 2,
      ack: () => void acked.push(`redelivered-${index}`),
      retry: () => {
        throw new Error("a redelivered ad event must not be retried");
      },
    }));
    await consumeEvents({ queue: "pinloom-events", messages, ackAll() {}, retryAll() {} } as unknown as MessageBatch<unknown>, env.DB);
    expect(acked).toEqual(["redelivered-0", "redelivered-1", "redelivered-2", "redelivered-3"]);
    expect(await days()).toEqual(before);
  });
});

describe("saves of a promoted pin", () => {
  const save = async (userId: number, pinId: number, boardId: number) => (await (await browserAs(userId)).resource("RepinResource", "create", { pin_id: String(pinId), board_id: String(boardId) })).status;

  it("counts a save once per person per ad, only from someone shown the pin as promoted", async () => {
    // Una was shown the awareness pin in a feed (her view ping above); Nadia never was.
    expect(await save(VIEWER_ONE, AWARENESS.pin, VIEWER_BOARD)).toBe(200);
    expect(await save(NEVER_SHOWN, AWARENESS.pin, 82)).toBe(200);
    const [awareness] = await days();
    expect(awareness).toEqual({ ...AWARENESS_DAY, saves: 1 });
    // Saving it again, elsewhere, is the same person and the same ad.
    await env.DB.prepare("DELETE FROM board_pins WHERE board_id = ?1 AND pin_id = ?2").bind(VIEWER_BOARD, AWARENESS.pin).run();
    expect(await save(VIEWER_ONE, AWARENESS.pin, VIEWER_BOARD)).toBe(200);
    expect((await days())[0]).toEqual({ ...AWARENESS_DAY, saves: 1 });
  });

  it("shows saves in the results beside impressions and clicks", async () => {
    const owner = await browserAs(OWNER);
    const answer = await owner.fetch(`/v3/ad_accounts/${ACCOUNT}/results/`);
    const body = await answer.json<{ data: { totals: Record<string, number> } }>();
    // 2 impressions; 4 clicks and the marker's 2 free ones = 6 (CTR 6 / 2 = 3); 1 save; 6,000 + 1,200,000 micro-units.
    expect(body.data.totals).toEqual({ impressions: 2, clicks: 6, saves: 1, ctr: 3, spend_micro: 1_206_000 });
  });
});
