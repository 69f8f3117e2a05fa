// Promoted pins in the home and search feeds of signed-in people (never crawlers, never a viewer
// in a block with the advertiser, never one who refused marketing, never after a pause), their
// views and clicks counted once into ad_spend_daily, and the advertiser's results.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { GOOGLEBOT_UA, get, readingAs } from "./fixtures.ts";
import { ACCOUNT, AD, AD_PIN, ANALYST, BO, BRAND, CAMPAIGN, FRIEDA, STRANGER, VERA, seedAdWorld } from "./ad-fixture.ts";
import { browserAs } from "./social-fixture.ts";
import type { Browser } from "./accounts-helpers.ts";
import { TEST_ATTRIBUTION_SECRET } from "./attribution-secret.ts";
import { signAttributionToken } from "~/attribution/token.server.ts";

beforeAll(seedAdWorld);

interface Cell {
  pin: string;
  campaign: string | null;
  token: string | null;
}

/** The grid's cells in order, read with the HTML parser. */
async function cells(html: string, grid: string): Promise<Cell[]> {
  const found: Cell[] = [];
  await new HTMLRewriter()
    .on(`#${grid} > li > a.pin-link`, {
      element(element) {
        found.push({ pin: /\/pin\/(\d+)\//.exec(element.getAttribute("href") ?? "")?.[1] ?? "", campaign: element.getAttribute("data-attribution-campaign"), token: element.getAttribute("data-attribution-token") });
      },
    })
    .transform(new Response(html))
    .text();
  return found;
}

async function page(browser: Browser | null, path: string, headers: Record<string, string> = {}): Promise<string> {
  const response = browser ? await browser.fetch(path, { headers }) : await get(path, headers);
  expect(response.status).toBe(200);
  return response.text();
}

const promotedIn = (list: Cell[]) => list.filter((cell) => cell.campaign !== null).map((cell) => cell.pin);

describe("promoted pins in feeds", () => {
  it("places the ad after the sixth organic pin of a signed-in person's home, labelled, with its reasons", async () => {
    const html = await page(await browserAs(VERA), "/");
    const list = await cells(html, "home-feed-grid");
    expect(list.length).toBe(13);
    expect(list[6]).toMatchObject({ pin: "150", campaign: "700" });
    expect(promotedIn(list)).toEqual(["150"]);
    expect(html).toContain("Promoted by Brand Co");
    expect(html).toContain("Why am I seeing this?");
    expect(html).toContain("It matches what you browse on Pinloom (automatic targeting)");
  });

  it("places it in a signed-in person's search when its keyword matches, saying so", async () => {
    const html = await page(await browserAs(VERA), "/search/pins/?q=velvet");
    const list = await cells(html, "search-grid");
    expect(promotedIn(list)).toEqual(["150"]);
    expect(list.findIndex((cell) => cell.campaign !== null)).toBe(6);
    expect(html).toContain("You searched for “velvet”");
  });

  it("shows none in a search its pin and keywords do not match", async () => {
    expect(promotedIn(await cells(await page(await browserAs(VERA), "/search/pins/?q=cushion"), "search-grid"))).toEqual([]);
  });

  it("gives a crawler organic HTML only, even with a session", async () => {
    const html = await page(await browserAs(VERA), "/", { "user-agent": GOOGLEBOT_UA });
    expect(html).not.toContain("data-attribution-campaign");
    expect(html).not.toContain("Promoted by");
  });

  it("shows none signed out, to a viewer who blocked the advertiser, or to one who refused marketing", async () => {
    for (const [who, browser] of [["signed out", null], ["blocker", await browserAs(BO)], ["refused marketing", await browserAs(FRIEDA)]] as const) {
      const html = await page(browser, "/");
      expect([who, html.includes("Promoted by")]).toEqual([who, false]);
    }
  });

  it("stops showing the ad once its campaign is paused", async () => {
    await env.DB.prepare("UPDATE campaigns SET status = 'PAUSED' WHERE id = ?1").bind(CAMPAIGN).run();
    const paused = await cells(await page(await browserAs(VERA), "/"), "home-feed-grid");
    await env.DB.prepare("UPDATE campaigns SET status = 'ACTIVE' WHERE id = ?1").bind(CAMPAIGN).run();
    expect(promotedIn(paused)).toEqual([]);
    expect(paused.length).toBe(12);
  });
});

const spendRow = () => env.DB.prepare("SELECT impressions, clicks, spend_micro FROM ad_spend_daily WHERE ad_id = ?1 AND day = ?2").bind(AD, new Date().toISOString().slice(0, 10)).first();

/** The day's row once the EVENTS queue's consumer has counted what was sent (within seconds). */
const spendRowReaching = (expected: Record<string, number>) => readingAs(spendRow, expected);

let address = 0;
async function ping(browser: Browser, type: "view" | "click", id: string, token: string, userAgent?: string): Promise<Response> {
  const query = new URLSearchParams({ source_event_id: id, destination: "https://brand.example", source_event_type: type, advertiser_id: String(ACCOUNT), campaign_id: String(CAMPAIGN), pin_id: String(AD_PIN), token });
  return browser.fetch(`/attribution_source/?${query}`, { headers: { "sec-fetch-site": "same-origin", "cf-connecting-ip": `198.51.100.${++address}`, ...(userAgent ? { "user-agent": userAgent } : {}) } });
}

describe("counting views and clicks once", () => {
  it("counts a person's view once a day, a click once per event, and charges the impression's price", async () => {
    const vera = await browserAs(VERA);
    const token = (await cells(await page(vera, "/"), "home-feed-grid")).find((cell) => cell.campaign !== null)!.token!;
    const first = await ping(vera, "view", "5001", token);
    expect(first.status).toBe(204);
    expect(JSON.parse(first.headers.get("attribution-reporting-register-source")!)).toEqual({ source_event_id: "5001", destination: "https://brand.example", expiry: "86400", priority: "1" });
    await ping(vera, "view", "5001", token);
    await ping(vera, "view", "5002", token);
    expect(await spendRowReaching({ impressions: 1, clicks: 0, spend_micro: 3000 })).toEqual({ impressions: 1, clicks: 0, spend_micro: 3000 });
    const click = await ping(vera, "click", "5003", token);
    expect(JSON.parse(click.headers.get("attribution-reporting-register-source")!)).toMatchObject({ expiry: "604800", priority: "2" });
    await ping(vera, "click", "5003", token);
    expect(await spendRowReaching({ impressions: 1, clicks: 1, spend_micro: 3000 })).toEqual({ impressions: 1, clicks: 1, spend_micro: 3000 });
  });

  it("never counts a crawler's ping", async () => {
    const sam = await browserAs(STRANGER);
    const vera = await browserAs(VERA);
    const token = (await cells(await page(vera, "/"), "home-feed-grid")).find((cell) => cell.campaign !== null)!.token!;
    await ping(sam, "view", "5101", token, GOOGLEBOT_UA);
    expect(await spendRowReaching({ impressions: 1, clicks: 1, spend_micro: 3000 })).toEqual({ impressions: 1, clicks: 1, spend_micro: 3000 });
  });
});

async function v3(browser: Browser, path: string): Promise<{ status: number; body: { data: Record<string, unknown>; error?: { message_detail?: unknown } } & Record<string, unknown> }> {
  const response = await browser.fetch(path);
  return { status: response.status, body: await response.json() };
}

describe("the advertiser's results", () => {
  beforeAll(async () => {
    await env.DB.prepare(
      "INSERT INTO ad_spend_daily (ad_id, campaign_id, ad_account_id, day, impressions, clicks, spend_micro) VALUES (?1, ?2, ?3, '2026-01-01', 400, 10, 1200000), (?1, ?2, ?3, '2026-01-02', 600, 20, 1800000)",
    )
      .bind(AD, CAMPAIGN, ACCOUNT)
      .run();
  });

  it("sums each day, the campaign, the ad and the range for every member (totals by hand)", async () => {
    const { status, body } = await v3(await browserAs(ANALYST), `/v3/ad_accounts/${ACCOUNT}/results/?start_date=2026-01-01&end_date=2026-01-03&granularity=DAY`);
    expect(status).toBe(200);
    const totals = { impressions: 1000, clicks: 30, saves: 0, ctr: 0.03, spend_micro: 3000000 };
    expect(body.data).toMatchObject({
      ad_account_id: String(ACCOUNT),
      currency: "USD",
      start_date: "2026-01-01",
      end_date: "2026-01-03",
      totals,
      days: [
        { day: "2026-01-01", impressions: 400, clicks: 10, ctr: 0.025, spend_micro: 1200000 },
        { day: "2026-01-02", impressions: 600, clicks: 20, ctr: 0.0333, spend_micro: 1800000 },
        { day: "2026-01-03", impressions: 0, clicks: 0, ctr: 0, spend_micro: 0 },
      ],
      campaigns: [{ campaign_id: String(CAMPAIGN), name: "Armchairs", totals, ads: [{ ad_id: String(AD), name: "Armchair ad", pin_id: String(AD_PIN), totals }] }],
    });
  });

  it("defaults to the last seven days, today's click included", async () => {
    const { body } = await v3(await browserAs(BRAND), `/v3/ad_accounts/${ACCOUNT}/results/`);
    expect((body.data["days"] as unknown[]).length).toBe(7);
    expect(body.data["totals"]).toEqual({ impressions: 1, clicks: 1, saves: 0, ctr: 1, spend_micro: 3000 });
  });

  it("is not found for a stranger or an unknown account, and names the field of a bad range", async () => {
    expect((await v3(await browserAs(STRANGER), `/v3/ad_accounts/${ACCOUNT}/results/`)).status).toBe(404);
    expect((await v3(await browserAs(BRAND), "/v3/ad_accounts/123456/results/")).status).toBe(404);
    const backwards = await v3(await browserAs(BRAND), `/v3/ad_accounts/${ACCOUNT}/results/?start_date=2026-01-05&end_date=2026-01-01`);
    expect(backwards.status).toBe(400);
    expect(JSON.stringify(backwards.body)).toContain("start_date");
    const hourly = await v3(await browserAs(BRAND), `/v3/ad_accounts/${ACCOUNT}/results/?granularity=HOUR`);
    expect(hourly.status).toBe(400);
    expect(JSON.stringify(hourly.body)).toContain("granularity");
  });

  it("shows the page to a member with the totals, a chart per metric and per conversion measure, and the day table; 404 to a stranger", async () => {
    const html = await page(await browserAs(ANALYST), `/advertiser/${ACCOUNT}/results/?start_date=2026-01-01&end_date=2026-01-03`);
    expect(html).toMatch(/data-total="impressions"[^>]*>1,000</);
    expect(html).toMatch(/data-total="clicks"[^>]*>30</);
    expect(html).toMatch(/data-total="spend"[^>]*>\$3\.00</);
    // Impressions, clicks, saves, click-through rate and spend; then conversions and return on ad spend.
    expect((html.match(/<figure class="ads-chart/g) ?? []).length).toBe(7);
    expect(html).toContain('data-chart="chart-conversions"');
    expect(html).toContain('data-chart="chart-roas"');
    expect(html).toContain('id="results-by-day"');
    expect((await (await browserAs(STRANGER)).fetch(`/advertiser/${ACCOUNT}/results/`)).status).toBe(404);
  });
});

describe("spend within the daily budget", () => {
  it("charges only what is left of the day's budget", async () => {
    await env.DB.prepare("UPDATE ad_spend_daily SET spend_micro = 49999000 WHERE ad_id = ?1 AND day = ?2").bind(AD, new Date().toISOString().slice(0, 10)).run();
    const vera = await browserAs(VERA);
    // The token a page showed earlier, still good for its ping.
    const token = await signAttributionToken(TEST_ATTRIBUTION_SECRET, { pinId: String(AD_PIN), advertiserId: String(ACCOUNT) });
    await ping(await browserAs(STRANGER), "view", "5201", token);
    expect(await spendRowReaching({ impressions: 2, clicks: 1, spend_micro: 50000000 })).toEqual({ impressions: 2, clicks: 1, spend_micro: 50000000 });
    // At its budget the campaign is past its pace: no page shows it.
    expect(promotedIn(await cells(await page(vera, "/"), "home-feed-grid"))).toEqual([]);
  });
});
