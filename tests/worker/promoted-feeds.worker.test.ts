// Promoted pins beyond the signed-in first page: the promoted cells a shared render asks for
// (signed-out home and search, the close-up's related feed), the JSON feed pages marking
// theirs, and signed-out views counted once a day by the browser.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { BROWSER_UA, GOOGLEBOT_UA, countElements, fetchWorker, readingAs } from "./fixtures.ts";
import { browserAs } from "./social-fixture.ts";
import { ACCOUNT, AD, AD_PIN, CAMPAIGN, ORGANIC, VERA, seedAdWorld } from "./ad-fixture.ts";

beforeAll(async () => {
  await seedAdWorld();
  // The ad's pin and the first organic pin share a category: the related feed's relevance.
  await env.DB.prepare("UPDATE pins SET category = 'home_decor' WHERE id IN (?1, ?2)").bind(AD_PIN, ORGANIC[0]).run();
});

interface Item {
  id: string;
  isPromoted: boolean;
  promoter?: { name: string };
  promoted?: { adId: string; campaignId: string; adAccountId: string; destinationUrl: string; token: string | null; text: { promotedBy: string; whyTitle: string; whyIntro: string; reasons: string[] } };
}

const resourcePath = (name: string, options: unknown) => `/resource/${name}/get/?data=${encodeURIComponent(JSON.stringify({ options }))}`;

/** A resource's results, signed out, as a browser in `country` with `headers`. */
async function signedOut(name: string, options: unknown, headers: Record<string, string> = {}): Promise<Item[]> {
  const response = await fetchWorker(resourcePath(name, options), { headers: { "user-agent": BROWSER_UA, accept: "application/json", "cf-ipcountry": "US", ...headers } });
  expect(response.status).toBe(200);
  return (await response.json<{ resource_response: { data: { results: Item[] } } }>()).resource_response.data.results;
}

const homeCells = (headers: Record<string, string> = {}, extra: Record<string, unknown> = {}) =>
  signedOut("PromotedPinsResource", { feed: "home", slots: 2, pin_ids: ORGANIC.map(String), ...extra }, headers);

describe("the promoted cells a shared render asks for", () => {
  it("gives a signed-out person the home feed's ad, marked, with its texts and its pings' token", async () => {
    const [cell, ...more] = await homeCells();
    expect(more).toEqual([]);
    expect(cell).toMatchObject({
      id: String(AD_PIN),
      isPromoted: true,
      promoter: { name: "Brand Co" },
      promoted: {
        adId: String(AD),
        campaignId: String(CAMPAIGN),
        adAccountId: String(ACCOUNT),
        destinationUrl: "https://brand.example/armchair",
        text: {
          promotedBy: "Promoted by Brand Co",
          whyTitle: "Why am I seeing this?",
          whyIntro: "Brand Co paid to show you this pin. It was chosen because:",
          reasons: ["It matches what you browse on Pinloom (automatic targeting)"],
        },
      },
    });
    expect(cell!.promoted!.token).toMatch(/^\d+\.[0-9a-f]{64}$/);
  });

  it("gives none to a crawler, before a choice where consent is asked, after refusing marketing, or for an ad the page shows", async () => {
    expect(await homeCells({ "user-agent": GOOGLEBOT_UA })).toEqual([]);
    expect(await homeCells({ "cf-ipcountry": "FR" })).toEqual([]);
    expect(await homeCells({ "cf-ipcountry": "FR", cookie: "pinloom_consent=p1a1m0" })).toEqual([]);
    expect(await homeCells({}, { shown_ad_ids: [String(AD)] })).toEqual([]);
    // The same visitor in France once they allowed marketing.
    expect((await homeCells({ "cf-ipcountry": "FR", cookie: "pinloom_consent=p1a1m1" })).map((item) => item.id)).toEqual([String(AD_PIN)]);
  });

  it("places the related feed's ad by the close-up's category, never under the ad's own close-up", async () => {
    const related = (pinId: number) => signedOut("PromotedPinsResource", { feed: "related", pin_id: String(pinId), slots: 1 });
    expect((await related(ORGANIC[0]!)).map((item) => [item.id, item.isPromoted])).toEqual([[String(AD_PIN), true]]);
    expect(await related(AD_PIN)).toEqual([]);
    // Another pin of no shared category or interest.
    expect(await related(ORGANIC[1]!)).toEqual([]);
  });

  it("answers a search's ad only when the words match, and names the missing field of a search without words", async () => {
    expect((await signedOut("PromotedPinsResource", { feed: "search", query: "velvet", slots: 1 })).map((item) => item.id)).toEqual([String(AD_PIN)]);
    expect(await signedOut("PromotedPinsResource", { feed: "search", query: "teapot", slots: 1 })).toEqual([]);
    const bad = await fetchWorker(resourcePath("PromotedPinsResource", { feed: "search", slots: 1 }), { headers: { "user-agent": BROWSER_UA } });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("query");
  });
});

describe("JSON feed pages", () => {
  it("mark every cell of a signed-in home page, the ad after the sixth, and repeat no ad the feed shows", async () => {
    const vera = await browserAs(VERA);
    const home = async (options: unknown) => (await (await vera.fetch(resourcePath("HomefeedResource", options))).json<{ resource_response: { data: { results: Item[] } } }>()).resource_response.data.results;
    const page = await home({});
    expect(page.length).toBe(13);
    expect(page.map((item) => item.isPromoted)).toEqual([false, false, false, false, false, false, true, false, false, false, false, false, false]);
    expect(page[6]).toMatchObject({ id: String(AD_PIN), promoter: { name: "Brand Co" }, promoted: { adId: String(AD) } });
    expect((await home({ shown_ad_ids: [String(AD)] })).some((item) => item.isPromoted)).toBe(false);
  });

  it("mark a signed-out pin search's page the same way", async () => {
    const page = await signedOut("BaseSearchResource", { query: "velvet", scope: "pins" });
    const promoted = page.filter((item) => item.isPromoted);
    expect(promoted.map((item) => item.id)).toEqual([String(AD_PIN)]);
    expect(page.indexOf(promoted[0]!)).toBe(6);
  });

  it("leave a signed-out home page's HTML without any promoted cell or its script data for a crawler", async () => {
    const person = await (await fetchWorker("/", { headers: { "user-agent": BROWSER_UA } })).text();
    expect(person).not.toContain("Promoted by");
    expect(person).toContain('data-feed-promoted="{&quot;feed&quot;:&quot;home&quot;}"');
    const crawler = await (await fetchWorker("/", { headers: { "user-agent": GOOGLEBOT_UA } })).text();
    expect(crawler).not.toContain("data-feed-promoted");
    expect(await countElements(crawler, 'script:not([type="application/ld+json"]):not([type="application/json"])')).toBe(0);
  });
});

const spendRow = () => env.DB.prepare("SELECT impressions, clicks FROM ad_spend_daily WHERE ad_id = ?1 AND day = ?2").bind(AD, new Date().toISOString().slice(0, 10)).first();

let eventId = 9000;
/** A signed-out view ping of the ad, from `address`, with the browser's cookies. */
async function view(token: string, address: string, cookie?: string): Promise<void> {
  const query = new URLSearchParams({ source_event_id: String(++eventId), destination: "https://brand.example", source_event_type: "view", advertiser_id: String(ACCOUNT), campaign_id: String(CAMPAIGN), pin_id: String(AD_PIN), token });
  const response = await fetchWorker(`/attribution_source/?${query}`, { headers: { "user-agent": BROWSER_UA, "sec-fetch-site": "same-origin", "cf-connecting-ip": address, "cf-ipcountry": "US", ...(cookie ? { cookie } : {}) } });
  expect(response.status).toBe(204);
  expect(response.headers.has("attribution-reporting-register-source")).toBe(true);
}

describe("signed-out views", () => {
  it("count once a day per browser: by its device cookie, else by its address", async () => {
    const token = (await homeCells())[0]!.promoted!.token!;
    await view(token, "203.0.113.1", "__Host-pinloom_device=device-one");
    await view(token, "203.0.113.2", "__Host-pinloom_device=device-one");
    expect(await readingAs(spendRow, { impressions: 1, clicks: 0 })).toEqual({ impressions: 1, clicks: 0 });
    await view(token, "203.0.113.3", "__Host-pinloom_device=device-two");
    expect(await readingAs(spendRow, { impressions: 2, clicks: 0 })).toEqual({ impressions: 2, clicks: 0 });
    await view(token, "203.0.113.9");
    await view(token, "203.0.113.9");
    expect(await readingAs(spendRow, { impressions: 3, clicks: 0 })).toEqual({ impressions: 3, clicks: 0 });
  });
});
