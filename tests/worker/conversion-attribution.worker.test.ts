// Conversions attributed to campaigns in the advertiser's results: a tag event carrying the click
// id of a promoted pin's counted click (within 7 days) counts for that campaign, with its value
// and return on ad spend beside the spend; a click 8 days before does not; a test event never
// does; a matched person's view within the day counts when no click does.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { fetchWorker, readingAs, seedWorld } from "./fixtures.ts";
import { browserAs } from "./social-fixture.ts";
import { TEST_ATTRIBUTION_SECRET } from "./attribution-secret.ts";
import { signAttributionToken } from "~/attribution/token.server.ts";

const ADVERTISER = 51;
const SHOPPER = 52;
const VIEWER = 53;
const BUSINESS = 5100;
const ACCOUNT = 5110;
const CAMPAIGN = 5120;
const AD = 5140;
const AD_PIN = 5150;
const TAG = 5160;
const DAY = 86_400_000;
// sha256("viewer@attr.test"), from `printf %s viewer@attr.test | sha256sum`.
const VIEWER_HASH = "c55cfd419d4b5d6eedc489543f08a1355009c42066f8c25943f3751ffb5f4d44";

beforeAll(async () => {
  await seedWorld([{ id: 101 }]);
  const person = (id: number, name: string) => env.DB.prepare("INSERT INTO users (id, username, email, full_name, created_at) VALUES (?1, ?2, ?3, ?2, 0)").bind(id, name, `${name}@attr.test`);
  await env.DB.batch([
    person(ADVERTISER, "attradvertiser"),
    person(SHOPPER, "attrshopper"),
    person(VIEWER, "viewer"),
    env.DB.prepare("INSERT INTO email_match (email_sha256, user_id) VALUES (?1, ?2)").bind(VIEWER_HASH, VIEWER),
    env.DB.prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, created_at, updated_at) VALUES (5170, ?1, 'Baskets', 'baskets', 'public', 0, 0)").bind(ADVERTISER),
    env.DB.prepare(
      `INSERT INTO pins (id, pinner_id, board_id, kind, title, description, image_signature, dominant_color, link, created_at, updated_at)
       VALUES (?1, ?2, 5170, 'image', 'Woven basket', 'A woven basket', 'sig', '#123456', 'https://shop.example/basket', 0, 0)`,
    ).bind(AD_PIN, ADVERTISER),
    env.DB.prepare(
      `INSERT INTO businesses (id, owner_id, profile_id, name, vertical, country, locale, onboarding, created_at, updated_at)
       VALUES (?1, ?2, ?2, 'Basket Co', 'HOME', 'US', 'en_US', '{}', 0, 0)`,
    ).bind(BUSINESS, ADVERTISER),
    env.DB.prepare("INSERT INTO business_members (business_id, user_id, role, created_at) VALUES (?1, ?2, 'ADMIN', 0)").bind(BUSINESS, ADVERTISER),
    env.DB.prepare("INSERT INTO ad_accounts (id, business_id, name, country, currency, created_by, created_at, updated_at) VALUES (?1, ?2, 'Basket Co US', 'US', 'USD', ?3, 0, 0)").bind(ACCOUNT, BUSINESS, ADVERTISER),
    env.DB.prepare(
      `INSERT INTO campaigns (id, ad_account_id, business_id, name, goal, status, daily_budget_micro, start_at, end_at, created_by, created_at, updated_at)
       VALUES (?1, ?2, ?3, 'Baskets', 'WEB_CONVERSION', 'ACTIVE', 50000000, 0, NULL, ?4, 0, 0)`,
    ).bind(CAMPAIGN, ACCOUNT, BUSINESS, ADVERTISER),
    env.DB.prepare("INSERT INTO ad_groups (id, campaign_id, name, status, targeting, created_at, updated_at) VALUES (5130, ?1, 'Everyone', 'ACTIVE', '{\"auto\":true}', 0, 0)").bind(CAMPAIGN),
    env.DB.prepare(
      `INSERT INTO ads (id, ad_group_id, campaign_id, ad_account_id, pin_id, name, ad_type, destination_url, status, review_status, created_at, updated_at)
       VALUES (?1, 5130, ?2, ?3, ?4, 'Basket ad', 'PIN', 'https://shop.example/basket', 'ACTIVE', 'APPROVED', 0, 0)`,
    ).bind(AD, CAMPAIGN, ACCOUNT, AD_PIN),
    env.DB.prepare("INSERT INTO conversion_tags (id, business_id, ad_account_id, name, created_by, created_at, updated_at) VALUES (?1, ?2, ?3, 'Shop tag', ?4, 0, 0)").bind(TAG, BUSINESS, ACCOUNT, ADVERTISER),
  ]);
});

/** A conversion as the advertiser's page sends it through the tag. */
async function convert(event: Record<string, unknown>): Promise<void> {
  const response = await fetchWorker(`/ct/${TAG}/events/`, { method: "POST", body: JSON.stringify({ events: [event] }), headers: { "content-type": "text/plain", origin: "https://shop.example", "cf-connecting-ip": "203.0.113.9" } });
  expect(response.status).toBe(200);
}

async function campaignConversions(): Promise<Record<string, unknown>> {
  const response = await (await browserAs(ADVERTISER)).fetch(`/v3/ad_accounts/${ACCOUNT}/results/`);
  expect(response.status).toBe(200);
  const body = (await response.json()) as { data: { conversions: { totals: Record<string, unknown>; campaigns: Array<{ campaign_id: string; totals: Record<string, unknown> }> } } };
  return body.data.conversions.campaigns.find((campaign) => campaign.campaign_id === String(CAMPAIGN))!.totals;
}

describe("conversions attributed to campaigns", () => {
  it("count a conversion after the campaign's promoted pin click for that campaign, with its value and return on ad spend", async () => {
    // The click, counted as a promoted pin's click is: through the attribution ping of our page.
    const token = await signAttributionToken(TEST_ATTRIBUTION_SECRET, { pinId: String(AD_PIN), advertiserId: String(ACCOUNT) });
    const query = new URLSearchParams({ source_event_id: "77000001", destination: "https://shop.example", source_event_type: "click", advertiser_id: String(ACCOUNT), campaign_id: String(CAMPAIGN), pin_id: String(AD_PIN), token });
    const ping = await (await browserAs(SHOPPER)).fetch(`/attribution_source/?${query}`, { headers: { "sec-fetch-site": "same-origin", "cf-connecting-ip": "198.51.100.31" } });
    expect(ping.status).toBe(204);
    // The queue's consumer counts the click within seconds.
    const clickCounted = () => env.DB.prepare("SELECT count(*) AS n FROM ad_delivery_counts WHERE kind = 'click' AND dedupe_key = '77000001'").first<{ n: number }>();
    expect(await readingAs(clickCounted, { n: 1 })).toEqual({ n: 1 });
    await convert({ event_name: "checkout", event_id: "order-501", value: 24, currency: "USD", order_quantity: 1, click_id: "77000001" });
    // A web-conversion click costs $0.50; $24 of sales on it is a return of 48.
    expect(await campaignConversions()).toEqual({ conversions: 1, value_micro: 24_000_000, spend_micro: 500_000, roas: 48 });
    const html = await (await (await browserAs(ADVERTISER)).fetch(`/advertiser/${ACCOUNT}/results/`)).text();
    expect(html).toMatch(/data-conversions-total="roas"[^>]*>48</);
    // The charts beside spend say the same: one conversion, a return of 48 on the day it came.
    expect(html).toMatch(/Conversions from [^<]*: 1 in all, at most 1 in one day\./);
    expect(html).toMatch(/Return on ad spend from [^<]*: 48 over the whole range, at most 48 in one day\./);
    expect(html).toMatch(/data-conversions-total="value"[^>]*>\$24\.00</);
  });

  it("do not count a conversion 8 days after the click, nor a test event", async () => {
    const clickedAt = Date.now() - 8 * DAY;
    await env.DB.prepare("INSERT INTO ad_delivery_counts (ad_id, kind, day, dedupe_key, request_key, created_at) VALUES (?1, 'click', ?2, '77000002', 'old-click', ?3)")
      .bind(AD, new Date(clickedAt).toISOString().slice(0, 10), clickedAt)
      .run();
    await convert({ event_name: "checkout", event_id: "order-502", value: 30, currency: "USD", click_id: "77000002" });
    await convert({ event_name: "checkout", event_id: "order-503", value: 30, currency: "USD", click_id: "77000001", is_test: true });
    expect(await campaignConversions()).toEqual({ conversions: 1, value_micro: 24_000_000, spend_micro: 500_000, roas: 48 });
  });

  it("count a matched person's conversion after viewing the promoted pin within the day", async () => {
    const viewedAt = Date.now() - 2 * 3_600_000;
    await env.DB.prepare("INSERT INTO ad_delivery_counts (ad_id, kind, day, dedupe_key, request_key, created_at) VALUES (?1, 'view', ?2, ?3, 'recent-view', ?4)")
      .bind(AD, new Date(viewedAt).toISOString().slice(0, 10), `u${VIEWER}`, viewedAt)
      .run();
    await convert({ event_name: "signup", event_id: "signup-504", em: "viewer@attr.test" });
    expect(await campaignConversions()).toEqual({ conversions: 2, value_micro: 24_000_000, spend_micro: 500_000, roas: 48 });
  });
});
