// GET /v3/ad_accounts/{id}/results/export/: the account's results as a CSV file, one row per
// campaign per day, for every member of its business with results.read; anyone else is told the
// account does not exist. The expected file is written out by hand from the rows stored below.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { browserAs } from "./social-fixture.ts";
import { Browser } from "./accounts-helpers.ts";

const OWNER = 51;
const ANALYST = 52;
const STRANGER = 53;
const ACCOUNT = 650;

beforeAll(async () => {
  const person = (id: number, name: string) => env.DB.prepare("INSERT INTO users (id, username, email, full_name, created_at) VALUES (?1, ?2, ?3, ?2, 0)").bind(id, name, `${name}@export.test`);
  const campaign = (id: number, name: string, goal: string) =>
    env.DB.prepare(
      `INSERT INTO campaigns (id, ad_account_id, business_id, name, goal, status, daily_budget_micro, start_at, end_at, created_by, created_at, updated_at)
       VALUES (?1, ?2, 570, ?3, ?4, 'ACTIVE', 50000000, 0, NULL, ?5, 0, 0)`,
    ).bind(id, ACCOUNT, name, goal, OWNER);
  const spend = (adId: number, campaignId: number, day: string, impressions: number, clicks: number, saves: number, spendMicro: number) =>
    env.DB.prepare("INSERT INTO ad_spend_daily (ad_id, campaign_id, ad_account_id, day, impressions, clicks, saves, spend_micro) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)").bind(
      adId,
      campaignId,
      ACCOUNT,
      day,
      impressions,
      clicks,
      saves,
      spendMicro,
    );
  await env.DB.batch([
    person(OWNER, "quilts"),
    person(ANALYST, "ines"),
    person(STRANGER, "otto"),
    env.DB.prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, created_at, updated_at) VALUES (90, ?1, 'Quilts', 'quilts', 'public', 0, 0)").bind(OWNER),
    env.DB.prepare(
      `INSERT INTO pins (id, pinner_id, board_id, kind, title, description, image_signature, dominant_color, link, created_at, updated_at)
       VALUES (181, ?1, 90, 'image', 'Quilt', 'A quilt', 'sig', '#123456', 'https://quilts.example', 0, 0),
              (182, ?1, 90, 'image', 'Quilt', 'A quilt', 'sig', '#123456', 'https://quilts.example', 0, 0),
              (183, ?1, 90, 'image', 'Quilt', 'A quilt', 'sig', '#123456', 'https://quilts.example', 0, 0)`,
    ).bind(OWNER),
    env.DB.prepare(
      `INSERT INTO businesses (id, owner_id, profile_id, name, vertical, country, locale, onboarding, created_at, updated_at)
       VALUES (570, ?1, ?1, 'Quilt Co', 'HOME', 'FR', 'fr', '{}', 0, 0)`,
    ).bind(OWNER),
    env.DB.prepare("INSERT INTO business_members (business_id, user_id, role, created_at) VALUES (570, ?1, 'ADMIN', 0), (570, ?2, 'ANALYST', 0)").bind(OWNER, ANALYST),
    env.DB.prepare("INSERT INTO ad_accounts (id, business_id, name, country, currency, created_by, created_at, updated_at) VALUES (?1, 570, 'Quilt Co FR', 'FR', 'EUR', ?2, 0, 0)").bind(ACCOUNT, OWNER),
    campaign(801, "Quilts, winter", "CONSIDERATION"),
    // A name a spreadsheet would run as a formula.
    campaign(802, "=SUM(A1:A9)", "WEB_CONVERSION"),
    env.DB.prepare("INSERT INTO ad_groups (id, campaign_id, name, status, targeting, created_at, updated_at) VALUES (811, 801, 'All', 'ACTIVE', '{}', 0, 0), (812, 802, 'All', 'ACTIVE', '{}', 0, 0)"),
    env.DB.prepare(
      `INSERT INTO ads (id, ad_group_id, campaign_id, ad_account_id, pin_id, name, ad_type, destination_url, status, review_status, created_at, updated_at)
       VALUES (821, 811, 801, ?1, 181, 'Blue quilt', 'PIN', 'https://quilts.example', 'ACTIVE', 'APPROVED', 0, 0),
              (822, 811, 801, ?1, 182, 'Red quilt', 'PIN', 'https://quilts.example', 'ACTIVE', 'APPROVED', 0, 0),
              (823, 812, 802, ?1, 183, 'Quilt sale', 'PIN', 'https://quilts.example', 'ACTIVE', 'APPROVED', 0, 0)`,
    ).bind(ACCOUNT),
    spend(821, 801, "2026-02-01", 400, 8, 3, 1_200_000),
    spend(822, 801, "2026-02-01", 100, 2, 0, 300_000),
    spend(821, 801, "2026-02-03", 7, 0, 1, 21_000),
    spend(823, 802, "2026-02-02", 0, 5, 2, 2_500_000),
    // Outside the range asked for.
    spend(823, 802, "2026-02-05", 9, 9, 9, 9_000_000),
  ]);
});

const PATH = `/v3/ad_accounts/${ACCOUNT}/results/export/?start_date=2026-02-01&end_date=2026-02-04`;

describe("exporting results as CSV", () => {
  it("answers a member a CSV file of each campaign's days, with a byte order mark and formulas kept text", async () => {
    const response = await (await browserAs(ANALYST)).fetch(PATH);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="results-${ACCOUNT}-2026-02-01-2026-02-04.csv"`);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    // 2026-02-01 for the quilts: 400 + 100 impressions, 8 + 2 clicks (CTR 10 / 500), 3 saves, 1.20 + 0.30 spent.
    expect(new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes)).toBe(
      "\uFEFFdate,campaign_id,campaign,impressions,clicks,saves,ctr,spend,currency\r\n" +
        '2026-02-01,801,"Quilts, winter",500,10,3,0.0200,1.50,EUR\r\n' +
        '2026-02-03,801,"Quilts, winter",7,0,1,0.0000,0.021,EUR\r\n' +
        "2026-02-02,802,'=SUM(A1:A9),0,5,2,0.0000,2.50,EUR\r\n",
    );
  });

  it("adds up to the results' totals for the same range and campaign filter", async () => {
    const owner = await browserAs(OWNER);
    const file = await (await owner.fetch(`${PATH}&campaign_ids=801`)).text();
    expect(file.split("\r\n").filter(Boolean).slice(1)).toEqual(['2026-02-01,801,"Quilts, winter",500,10,3,0.0200,1.50,EUR', '2026-02-03,801,"Quilts, winter",7,0,1,0.0000,0.021,EUR']);
    const answer = await (await owner.fetch(`/v3/ad_accounts/${ACCOUNT}/results/?start_date=2026-02-01&end_date=2026-02-04&campaign_ids=801`)).json<{ data: { totals: Record<string, number> } }>();
    // 507 impressions, 10 clicks, 4 saves, 1,521,000 micro-units: the two rows above.
    expect(answer.data.totals).toEqual({ impressions: 507, clicks: 10, saves: 4, ctr: 0.0197, spend_micro: 1_521_000 });
  });

  it("is not found for a stranger, asks a signed-out visitor to sign in, and names the field of a bad range", async () => {
    expect((await (await browserAs(STRANGER)).fetch(PATH)).status).toBe(404);
    expect((await new Browser().fetch(PATH)).status).toBe(401);
    const backwards = await (await browserAs(OWNER)).fetch(`/v3/ad_accounts/${ACCOUNT}/results/export/?start_date=2026-02-05&end_date=2026-02-01`);
    expect(backwards.status).toBe(400);
    expect(await backwards.text()).toContain("start_date");
  });

  it("links the file from the results page with the range shown", async () => {
    const html = await (await (await browserAs(OWNER)).fetch(`/advertiser/${ACCOUNT}/results/?start_date=2026-02-01&end_date=2026-02-04`)).text();
    expect(html).toContain(`href="/v3/ad_accounts/${ACCOUNT}/results/export/?start_date=2026-02-01&amp;end_date=2026-02-04"`);
    // Seven charts (five of delivery and spend, then conversions and return on ad spend), each an
    // image with a title and a description, and the day table with saves.
    expect((html.match(/<svg[^>]*role="img"/g) ?? []).length).toBe(7);
    expect(html).toContain('data-total="saves"');
  });
});
