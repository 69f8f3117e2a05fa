// One advertiser's running campaign over a small world, shared by the promoted-feed Worker
// tests: Brand Co (business 500, ad account 600) promotes its "Green armchair" (pin 150) in
// campaign 700 (ad 720, auto-targeted, keyword "velvet"), beside twelve organic "Velvet
// cushion" pins; Bo blocked the brand, Frieda refused marketing.
import { env } from "cloudflare:workers";
import { seedWorld } from "./fixtures.ts";

export const VERA = 2;
export const BO = 3;
export const BRAND = 4;
export const ANALYST = 5;
export const STRANGER = 6;
export const FRIEDA = 7;
export const AD_PIN = 150;
export const ACCOUNT = 600;
export const CAMPAIGN = 700;
export const AD = 720;
export const ORGANIC = Array.from({ length: 12 }, (_, index) => 101 + index);

export async function seedAdWorld(): Promise<void> {
  await seedWorld(ORGANIC.map((id) => ({ id, title: `Velvet cushion ${id}` })));
  const now = Date.now();
  const person = (id: number, name: string) => env.DB.prepare("INSERT INTO users (id, username, email, full_name, created_at) VALUES (?1, ?2, ?3, ?4, 0)").bind(id, name, `${name}@ads.test`, name === "brandco" ? "Brand Co" : name);
  await env.DB.batch([
    person(VERA, "vera"),
    person(BO, "bo"),
    person(BRAND, "brandco"),
    person(ANALYST, "anna"),
    person(STRANGER, "sam"),
    person(FRIEDA, "frieda"),
    env.DB.prepare("UPDATE users SET cookie_consent_at = 1, allow_personalization_cookies = 1, allow_analytic_cookies = 1, allow_marketing_cookies = 0 WHERE id = ?1").bind(FRIEDA),
    env.DB.prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, created_at, updated_at) VALUES (40, ?1, 'Showroom', 'showroom', 'public', 0, 0)").bind(BRAND),
    // Made today, so the popular stream (pins from before today) never shows it organically.
    env.DB.prepare(
      `INSERT INTO pins (id, pinner_id, board_id, kind, title, description, image_signature, dominant_color, link, created_at, updated_at)
       VALUES (?1, ?2, 40, 'image', 'Green armchair', 'A green armchair', 'sig', '#123456', 'https://brand.example/armchair', ?3, ?3)`,
    ).bind(AD_PIN, BRAND, now),
    env.DB.prepare("INSERT INTO pin_images VALUES (?1, '236x', '/media/pins/150/236x.jpg', 236, 300, '#123456')").bind(AD_PIN),
    env.DB.prepare(
      `INSERT INTO businesses (id, owner_id, profile_id, name, vertical, country, locale, onboarding, created_at, updated_at)
       VALUES (500, ?1, ?1, 'Brand Co', 'HOME', 'US', 'en_US', '{}', 0, 0)`,
    ).bind(BRAND),
    env.DB.prepare("INSERT INTO business_members (business_id, user_id, role, created_at) VALUES (500, ?1, 'ADMIN', 0), (500, ?2, 'ANALYST', 0)").bind(BRAND, ANALYST),
    env.DB.prepare("INSERT INTO ad_accounts (id, business_id, name, country, currency, created_by, created_at, updated_at) VALUES (?1, 500, 'Brand Co US', 'US', 'USD', ?2, 0, 0)").bind(ACCOUNT, BRAND),
    env.DB.prepare(
      `INSERT INTO campaigns (id, ad_account_id, business_id, name, goal, status, daily_budget_micro, start_at, end_at, created_by, created_at, updated_at)
       VALUES (?1, ?2, 500, 'Armchairs', 'CONSIDERATION', 'ACTIVE', 50000000, 0, NULL, ?3, 0, 0)`,
    ).bind(CAMPAIGN, ACCOUNT, BRAND),
    env.DB.prepare("INSERT INTO ad_groups (id, campaign_id, name, status, targeting, created_at, updated_at) VALUES (710, ?1, 'Everyone', 'ACTIVE', '{\"auto\":true}', 0, 0)").bind(CAMPAIGN),
    env.DB.prepare("INSERT INTO keywords (ad_group_id, text, match_type, status, created_at) VALUES (710, 'velvet', 'BROAD', 'ACTIVE', 0)"),
    env.DB.prepare(
      `INSERT INTO ads (id, ad_group_id, campaign_id, ad_account_id, pin_id, name, ad_type, destination_url, status, review_status, created_at, updated_at)
       VALUES (?1, 710, ?2, ?3, ?4, 'Armchair ad', 'PIN', 'https://brand.example/armchair', 'ACTIVE', 'APPROVED', 0, 0)`,
    ).bind(AD, CAMPAIGN, ACCOUNT, AD_PIN),
    env.DB.prepare("INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (?1, ?2, 0)").bind(BO, BRAND),
  ]);
}
