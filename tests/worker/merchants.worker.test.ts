// The verified merchant program through the Worker: applying runs the checks on real rows (a
// profile that meets them goes under review, one that does not fails with its reasons, a
// business in France is refused with the spec's words); only a business's ADMIN acts and a
// stranger learns nothing; only a reviewer decides, and approval puts the badge on the profile
// page and the pin answer; appeals follow the table; bad input is a 400 naming the field that
// changes nothing; banners, policies and the storefront's locale are remembered.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { Browser } from "./accounts-helpers.ts";
import { GOOGLEBOT_UA } from "./fixtures.ts";
import { browserAs, scalar } from "./social-fixture.ts";

const DAY = 86_400_000;
const U = { merchant: 27_001, second: 27_002, young: 27_003, french: 27_004, analyst: 27_005, stranger: 27_006, reviewer: 27_007, shopper: 27_008 } as const;
const B = { merchant: 27_101, second: 27_102, young: 27_103, french: 27_104 } as const;
const P = { mug: 27_201, bowl: 27_202, cover: 27_203, secondMug: 27_204, secondCover: 27_205, youngMug: 27_206 } as const;
const BOARD = { merchant: 27_301, second: 27_302, young: 27_303 } as const;

type Answer<T = Record<string, unknown>> = { status: number; data: T; error: { message: string; message_detail: string | null } | undefined };

async function v3<T = Record<string, unknown>>(browser: Browser, method: string, path: string, body?: unknown): Promise<Answer<T>> {
  const response = method === "GET" ? await browser.fetch(path) : await browser.json(path, body ?? {}, method);
  const json = await response.json<{ data: T; error?: Answer<T>["error"]; message?: string; message_detail?: string | null }>();
  return { status: response.status, data: json.data, error: json.error ?? (response.ok ? undefined : { message: json.message ?? "", message_detail: json.message_detail ?? null }) };
}

interface Program {
  available: boolean;
  may_apply: boolean;
  application: null | {
    program_status: string | null;
    review_status: number;
    review_status_name: string;
    review_reasons: string[];
    checks: Array<{ check: string; result: string; value: unknown }>;
    can_appeal: boolean;
    is_appeal: boolean;
    appeal_count: number;
    appeal_comment: string | null;
    shipping_policy_url: string | null;
  };
  items: Record<string, number>;
  banners: { welcome: boolean; celebration: boolean; welcome_dismissed_time: number | null; welcome_dismiss_count: number; celebration_dismissed: boolean };
}

const program = (id: number) => `/v3/businesses/${id}/verified_merchant/`;
const application = (id: number) => env.DB.prepare("SELECT * FROM merchant_applications WHERE business_id = ?1").bind(id).first();

beforeAll(async () => {
  const db = env.DB;
  const now = Date.now();
  const old = now - 60 * DAY;
  const person = (id: number, name: string, created: number, about: string, image: string | null, domain: string | null) =>
    db
      .prepare("INSERT INTO users (id, username, email, full_name, first_name, email_verified, created_at, about, image_key, domain_url, domain_verified, account_type) VALUES (?1, ?2, ?3, ?2, ?2, 1, ?4, ?5, ?6, ?7, ?8, 'business')")
      .bind(id, name, `${name}@merchants.test`, created, about, image, domain, domain ? 1 : 0);
  const business = (id: number, owner: number, country: string, website: string | null) =>
    db
      .prepare("INSERT INTO businesses (id, owner_id, profile_id, name, vertical, country, locale, website, onboarding, created_at, updated_at) VALUES (?1, ?2, ?2, ?3, 'RETAIL', ?4, 'en_US', ?5, '{}', ?6, ?6)")
      .bind(id, owner, `Shop ${id}`, country, website, old);
  const seat = (businessId: number, userId: number, role: string) => db.prepare("INSERT INTO business_members (business_id, user_id, role, created_at) VALUES (?1, ?2, ?3, 0)").bind(businessId, userId, role);
  const pin = (id: number, pinner: number, board: number, kind: string, domain: string | null, created: number, price: number | null = null) =>
    db
      .prepare("INSERT INTO pins (id, pinner_id, board_id, kind, title, domain, link, image_signature, price_value, price_currency, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 'sig', ?8, ?9, ?10, ?10)")
      .bind(id, pinner, board, kind, `Item ${id}`, domain, domain ? `https://${domain}/p/${id}` : null, price, price === null ? null : "GBP", created);
  const images = (id: number) =>
    db.prepare("INSERT INTO pin_images (pin_id, size, url, width, height, dominant_color) VALUES (?1, '236x', ?2, 236, 300, '#aabbcc'), (?1, '736x', ?3, 736, 936, '#aabbcc')").bind(id, `/media/pins/${id}/236x.jpg`, `/media/pins/${id}/736x.jpg`);
  const board = (id: number, owner: number) => db.prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, created_at, updated_at) VALUES (?1, ?2, 'Shop', 'shop', 'public', 0, 0)").bind(id, owner);
  await db.batch([
    person(U.merchant, "mug_maker", old, "Hand-thrown mugs and bowls from our studio", "users/27001", "https://mugs.example"),
    person(U.second, "bowl_maker", old, "Stoneware bowls made one at a time", "users/27002", "https://bowls.example"),
    person(U.young, "new_shop", now - DAY, "", null, null),
    person(U.french, "atelier_fr", old, "Céramiques faites main à Lyon", "users/27004", null),
    person(U.analyst, "shop_analyst", old, "", null, null),
    person(U.stranger, "shop_stranger", old, "", null, null),
    person(U.reviewer, "shop_reviewer", old, "", null, null),
    person(U.shopper, "shop_shopper", old, "", null, null),
    db.prepare("INSERT INTO link_domains (domain, official_user_id) VALUES ('mugs.example', ?1), ('bowls.example', ?2), ('blocked-shop.example', NULL)").bind(U.merchant, U.second),
    db.prepare("UPDATE link_domains SET is_blocked = 1 WHERE domain = 'blocked-shop.example'"),
    business(B.merchant, U.merchant, "GB", "https://mugs.example"),
    business(B.second, U.second, "DE", "https://www.bowls.example/"),
    business(B.young, U.young, "US", null),
    business(B.french, U.french, "FR", null),
    seat(B.merchant, U.merchant, "ADMIN"),
    seat(B.merchant, U.analyst, "ANALYST"),
    seat(B.second, U.second, "ADMIN"),
    seat(B.young, U.young, "ADMIN"),
    seat(B.french, U.french, "ADMIN"),
    board(BOARD.merchant, U.merchant),
    board(BOARD.second, U.second),
    board(BOARD.young, U.young),
    pin(P.mug, U.merchant, BOARD.merchant, "product", "mugs.example", now - 40 * DAY, 24),
    pin(P.bowl, U.merchant, BOARD.merchant, "product", "mugs.example", now - 35 * DAY, 38.5),
    pin(P.cover, U.merchant, BOARD.merchant, "image", null, now - 35 * DAY),
    pin(P.secondMug, U.second, BOARD.second, "product", "bowls.example", now - 45 * DAY, 12),
    pin(P.secondCover, U.second, BOARD.second, "image", null, now - 45 * DAY),
    pin(P.youngMug, U.young, BOARD.young, "product", null, now - DAY, 5),
    images(P.mug),
    images(P.bowl),
    images(P.cover),
    images(P.secondMug),
    images(P.secondCover),
    db.prepare("INSERT INTO board_pins (board_id, pin_id, saved_by, position, created_at) VALUES (?1, ?2, ?3, 1, 0), (?1, ?4, ?3, 2, 0), (?1, ?5, ?3, 3, 0)").bind(BOARD.merchant, P.mug, U.merchant, P.bowl, P.cover),
    // Two comments by others on the merchant's pins, one of them reported: a score of 0.5.
    db.prepare("INSERT INTO comments (id, pin_id, user_id, text, created_at, updated_at) VALUES (27401, ?1, ?2, 'Lovely glaze', 0, 0), (27402, ?1, ?2, 'Arrived broken', 0, 0)").bind(P.mug, U.shopper),
    db.prepare("INSERT INTO comment_flags (comment_id, user_id, reason, created_at) VALUES (27402, ?1, 'spam', 0)").bind(U.stranger),
    db.prepare("INSERT INTO admin_users (user_id, role, created_at) VALUES (?1, 'MERCHANT_REVIEWER', 0)").bind(U.reviewer),
  ]);
  // Each passing profile chooses a pin of its own as its cover.
  expect((await v3(await browserAs(U.merchant), "PUT", `${program(B.merchant)}cover/`, { cover_pin_id: String(P.cover) })).status).toBe(200);
  expect((await v3(await browserAs(U.second), "PUT", `${program(B.second)}cover/`, { cover_pin_id: String(P.secondCover) })).status).toBe(200);
});

describe("applying", () => {
  it("refuses a business in France with the spec's message, naming the country, and stores nothing", async () => {
    const answer = await v3(await browserAs(U.french), "POST", program(B.french));
    expect(answer.status).toBe(400);
    expect(answer.error?.message).toBe("Verified merchant program not yet available in this country");
    expect(answer.error?.message_detail).toContain("country");
    expect(await application(B.french)).toBeNull();
    expect(await scalar("SELECT COUNT(*) FROM business_history WHERE business_id = ?1", B.french)).toBe(0);
    const read = await v3<Program>(await browserAs(U.french), "GET", program(B.french));
    expect(read.data.available).toBe(false);
  });

  it("runs every check on real rows: a profile that meets them all is APPLIED and under review, with the review defaults", async () => {
    const answer = await v3<Program>(await browserAs(U.merchant), "POST", program(B.merchant));
    expect(answer.status).toBe(200);
    const got = answer.data.application!;
    expect(got.checks.map((check) => [check.check, check.result])).toEqual([
      ["account_age", "PASS"],
      ["domain_age", "PASS"],
      ["profile_image", "PASS"],
      ["profile_cover_image", "PASS"],
      ["bio", "PASS"],
      ["shop_tab", "PASS"],
      ["pinner_feedback", "PASS"],
    ]);
    expect(got.checks.find((check) => check.check === "pinner_feedback")?.value).toBe(0.5);
    expect(got.checks.find((check) => check.check === "domain_age")?.value).toBe(40);
    expect(got).toMatchObject({ program_status: "APPLIED", review_status: 2, review_status_name: "UNDER_REVIEW", review_reasons: [], can_appeal: true, is_appeal: false, appeal_count: 0 });
    expect(answer.data.items).toEqual({ approved: 0, pending: 2, declined: 0, appeal_pending: 0 });
    expect(await scalar("SELECT COUNT(*) FROM business_history WHERE business_id = ?1 AND action = 'MERCHANT_APPLIED' AND actor_id = ?2", B.merchant, U.merchant)).toBe(1);
    // A second application while one is under review changes nothing.
    const again = await v3(await browserAs(U.merchant), "POST", program(B.merchant));
    expect(again.status).toBe(409);
  });

  it("fails a young profile without an image, bio, domain or cover, with each failing check as a reason", async () => {
    const answer = await v3<Program>(await browserAs(U.young), "POST", program(B.young));
    expect(answer.status).toBe(200);
    expect(answer.data.application).toMatchObject({
      program_status: null,
      review_status: 4,
      review_status_name: "FAILED",
      review_reasons: [
        "merchants:checks.account_age.fail",
        "merchants:checks.domain_age.fail",
        "merchants:checks.profile_image.fail",
        "merchants:checks.profile_cover_image.fail",
        "merchants:checks.bio.fail",
      ],
    });
    expect(answer.data.may_apply).toBe(true);
  });

  it("lets only an ADMIN apply: an analyst is refused (403), a stranger is told nothing (404)", async () => {
    expect((await v3(await browserAs(U.analyst), "POST", program(B.second))).status).toBe(404);
    expect((await v3(await browserAs(U.analyst), "POST", `${program(B.merchant)}withdraw/`)).status).toBe(403);
    expect((await v3(await browserAs(U.analyst), "GET", program(B.merchant))).status).toBe(200);
    expect((await v3(await browserAs(U.stranger), "GET", program(B.merchant))).status).toBe(404);
    expect((await v3(await browserAs(U.stranger), "POST", `${program(B.merchant)}appeal/`, { appeal_comment: "" })).status).toBe(404);
    const resource = await (await browserAs(U.stranger)).resource("VerifiedMerchantResource", "get", { business_id: String(B.merchant) });
    expect(resource.status).toBe(404);
    expect((await application(B.merchant))!["program_status"]).toBe("APPLIED");
  });
});

describe("the review", () => {
  it("is hidden from anyone but a reviewer: the queue, an application and a decision answer 404 and change nothing", async () => {
    const before = await application(B.merchant);
    for (const user of [U.merchant, U.stranger, U.analyst]) {
      const browser = await browserAs(user);
      expect((await v3(browser, "GET", "/v3/merchant_reviews/")).status).toBe(404);
      expect((await v3(browser, "GET", `/v3/merchant_reviews/${B.merchant}/`)).status).toBe(404);
      expect((await v3(browser, "POST", `/v3/merchant_reviews/${B.merchant}/decision/`, { decision: "approve" })).status).toBe(404);
      expect((await v3(browser, "POST", `/v3/merchant_reviews/${B.merchant}/decision/`, { decision: "bogus" })).status).toBe(404);
      expect((await browser.fetch("/admin/merchants/")).status).toBe(404);
    }
    expect(await application(B.merchant)).toEqual(before);
    expect(await scalar("SELECT is_verified_merchant FROM users WHERE id = ?1", U.merchant)).toBe(0);
  });

  it("refuses bad input with a 400 naming the field, changing nothing", async () => {
    const reviewer = await browserAs(U.reviewer);
    const merchant = await browserAs(U.merchant);
    const before = await application(B.merchant);
    const cases: Array<[Browser, string, string, unknown, string]> = [
      [reviewer, "POST", `/v3/merchant_reviews/${B.merchant}/decision/`, { decision: "bogus" }, "decision"],
      [reviewer, "POST", `/v3/merchant_reviews/${B.merchant}/decision/`, { decision: "disapprove" }, "review_reasons"],
      [reviewer, "PUT", `/v3/merchant_reviews/${B.merchant}/items/${P.mug}/`, { status: "appeal_pending" }, "status"],
      [merchant, "PATCH", `${program(B.merchant)}policies/`, { shipping_policy_url: "javascript:alert(1)" }, "shipping_policy_url"],
      [merchant, "PATCH", `${program(B.merchant)}policies/`, { return_policy_url: "https://blocked-shop.example/returns" }, "return_policy_url"],
      [merchant, "PUT", `${program(B.merchant)}cover/`, { cover_pin_id: String(P.secondCover) }, "cover_pin_id"],
      [merchant, "POST", `${program(B.merchant)}banners/`, { banner: "confetti" }, "banner"],
      [merchant, "PUT", "/v3/storefront/locale/", { country: "GB", language: "en_US", feedProfileId: String(U.young) }, "feedProfileId"],
      [merchant, "PUT", "/v3/storefront/locale/", { country: "ZZ", language: "en_US", feedProfileId: String(U.merchant) }, "country"],
    ];
    for (const [browser, method, path, body, field] of cases) {
      const answer = await v3(browser, method, path, body);
      expect([path, answer.status]).toEqual([path, 400]);
      expect(answer.error?.message_detail).toContain(field);
    }
    expect(await application(B.merchant)).toEqual(before);
    expect(await scalar("SELECT COUNT(*) FROM merchant_items WHERE business_id = ?1", B.merchant)).toBe(0);
    expect(await scalar("SELECT pin_id FROM merchant_covers WHERE profile_id = ?1", U.merchant)).toBe(P.cover);
  });

  it("lists applications waiting for a decision, with the merchant's product pins as pending items", async () => {
    const reviewer = await browserAs(U.reviewer);
    const queue = await v3<{ items: Array<{ business_id: string; review_status_name: string }> }>(reviewer, "GET", "/v3/merchant_reviews/");
    expect(queue.data.items[0]).toMatchObject({ business_id: String(B.merchant), review_status_name: "UNDER_REVIEW" });
    const one = await v3<{ items: Array<{ pin_id: string; status: string }> }>(reviewer, "GET", `/v3/merchant_reviews/${B.merchant}/`);
    // Newest first: the bowl was pinned after the mug.
    expect(one.data.items).toEqual([
      { pin_id: String(P.bowl), title: `Item ${P.bowl}`, status: "pending", reason: null, appeal_comment: null },
      { pin_id: String(P.mug), title: `Item ${P.mug}`, status: "pending", reason: null, appeal_comment: null },
    ]);
  });

  it("takes a disapproval and an appeal, then approval puts the badge on the profile page and the pin answer", async () => {
    const reviewer = await browserAs(U.reviewer);
    const merchant = await browserAs(U.merchant);
    const signedOut = new Browser();
    expect(await (await signedOut.fetch("/mug_maker/")).text()).not.toContain("data-verified-merchant");
    const pinBefore = await (await signedOut.resource("PinResource", "get", { id: String(P.mug) })).json<{ resource_response: { data: { pinner: { isVerifiedMerchant: boolean } } } }>();
    expect(pinBefore.resource_response.data.pinner.isVerifiedMerchant).toBe(false);

    // An appeal needs a disapproval first.
    expect((await v3(merchant, "POST", `${program(B.merchant)}appeal/`, { appeal_comment: "Please look again" })).status).toBe(409);
    const no = await v3<{ review_status_name: string; review_reasons: string[] }>(reviewer, "POST", `/v3/merchant_reviews/${B.merchant}/decision/`, { decision: "disapprove", review_reasons: ["Return policy missing"] });
    expect(no.data).toMatchObject({ review_status_name: "DISAPPROVED", review_reasons: ["Return policy missing"] });
    expect((await v3(merchant, "PATCH", `${program(B.merchant)}policies/`, { shipping_policy_url: "https://mugs.example/shipping", return_policy_url: "https://mugs.example/returns" })).status).toBe(200);
    const appealed = await v3<Program>(merchant, "POST", `${program(B.merchant)}appeal/`, { appeal_comment: "Our return policy is now linked" });
    expect(appealed.data.application).toMatchObject({ review_status_name: "UNDER_REVIEW", program_status: "APPLIED", is_appeal: true, appeal_count: 1, can_appeal: true, appeal_comment: "Our return policy is now linked", shipping_policy_url: "https://mugs.example/shipping" });

    const yes = await v3<{ review_status_name: string; program_status: string; is_appeal: boolean; items: Array<{ status: string }> }>(reviewer, "POST", `/v3/merchant_reviews/${B.merchant}/decision/`, { decision: "approve" });
    expect(yes.status).toBe(200);
    expect(yes.data).toMatchObject({ review_status_name: "COMPLETED", program_status: "ACCEPTED", is_appeal: false });
    expect(yes.data.items.map((item) => item.status)).toEqual(["approved", "approved"]);
    expect(await scalar("SELECT is_verified_merchant FROM users WHERE id = ?1", U.merchant)).toBe(1);

    expect(await (await signedOut.fetch("/mug_maker/")).text()).toContain("data-verified-merchant");
    const pinAfter = await (await signedOut.resource("PinResource", "get", { id: String(P.mug) })).json<{ resource_response: { data: { pinner: { isVerifiedMerchant: boolean } } } }>();
    expect(pinAfter.resource_response.data.pinner.isVerifiedMerchant).toBe(true);
    expect(await (await signedOut.fetch(`/pin/${P.mug}/`)).text()).toContain("data-verified-merchant");
    expect(await scalar("SELECT COUNT(*) FROM business_history WHERE business_id = ?1 AND action = 'MERCHANT_REVIEW_APPROVE' AND actor_id = ?2", B.merchant, U.reviewer)).toBe(1);
  });

  it("shows the storefront with the approved products and remembers a viewer's locale", async () => {
    const crawler = await (await new Browser().fetch("/shop/mug_maker/", { headers: { "user-agent": GOOGLEBOT_UA } })).text();
    expect(crawler).toContain(`/pin/${P.mug}/`);
    expect(crawler).toContain(`/pin/${P.bowl}/`);
    // Crawlers get the whole shop with no script (structured data is not script).
    expect(crawler).not.toMatch(/<script(?![^>]*application\/(ld\+)?json)/);
    expect((await new Browser().fetch("/shop/new_shop/")).status).toBe(404);
    const shopper = await browserAs(U.shopper);
    const saved = await v3<{ country: string; language: string; feedProfileId: string; lastUpdated: number }>(shopper, "PUT", "/v3/storefront/locale/", { country: "DE", language: "de", feedProfileId: String(U.merchant) });
    expect(saved.status).toBe(200);
    expect(saved.data).toMatchObject({ country: "DE", language: "de", feedProfileId: String(U.merchant) });
    const page = await (await shopper.fetch("/shop/mug_maker/")).text();
    expect(page).toContain('data-viewing-locale="DE:de"');
    // 38.5 GBP as German writes it.
    expect(page).toContain("38,50");
  });

  it("shows the welcome and celebration banners after acceptance and remembers each dismissal", async () => {
    const merchant = await browserAs(U.merchant);
    const before = await v3<Program>(merchant, "GET", program(B.merchant));
    expect(before.data.banners).toEqual({ welcome: true, celebration: true, welcome_dismissed_time: null, welcome_dismiss_count: 0, celebration_dismissed: false });
    const after = await v3<Program>(merchant, "POST", `${program(B.merchant)}banners/`, { banner: "welcome" });
    expect(after.data.banners).toMatchObject({ welcome: false, celebration: true, welcome_dismiss_count: 1 });
    expect(after.data.banners.welcome_dismissed_time).toBeGreaterThan(0);
    // Per person: the analyst still sees both.
    expect((await v3<Program>(await browserAs(U.analyst), "GET", program(B.merchant))).data.banners).toMatchObject({ welcome: true, celebration: true });
  });

  it("keeps the badge only while ACCEPTED: suspension takes it away, reinstatement gives it back, a wrong decision is refused", async () => {
    const reviewer = await browserAs(U.reviewer);
    const decide = (decision: string) => v3<{ program_status: string }>(reviewer, "POST", `/v3/merchant_reviews/${B.merchant}/decision/`, { decision, review_reasons: ["Policy check"] });
    expect((await decide("approve")).status).toBe(409);
    expect((await decide("suspend")).data.program_status).toBe("SUSPENDED");
    expect(await scalar("SELECT is_verified_merchant FROM users WHERE id = ?1", U.merchant)).toBe(0);
    expect((await new Browser().fetch("/shop/mug_maker/")).status).toBe(404);
    expect((await decide("reinstate")).data.program_status).toBe("ACCEPTED");
    expect(await scalar("SELECT is_verified_merchant FROM users WHERE id = ?1", U.merchant)).toBe(1);
  });

  it("declines an item, takes the merchant's appeal of it, and decides it again", async () => {
    const reviewer = await browserAs(U.reviewer);
    const merchant = await browserAs(U.merchant);
    expect((await v3(merchant, "POST", `${program(B.merchant)}items/${P.mug}/appeal/`, { appeal_comment: "Why?" })).status).toBe(409);
    await v3(reviewer, "PUT", `/v3/merchant_reviews/${B.merchant}/items/${P.mug}/`, { status: "declined", reason: "Image shows a different mug" });
    const appealed = await v3<Program & { declined_items: Array<{ pin_id: string; status: string }> }>(merchant, "POST", `${program(B.merchant)}items/${P.mug}/appeal/`, { appeal_comment: "Photo replaced" });
    expect(appealed.data.items).toEqual({ approved: 1, pending: 0, declined: 0, appeal_pending: 1 });
    const decided = await v3<{ items: Array<{ pin_id: string; status: string }> }>(reviewer, "PUT", `/v3/merchant_reviews/${B.merchant}/items/${P.mug}/`, { status: "approved" });
    expect(decided.data.items.find((item) => item.pin_id === String(P.mug))?.status).toBe("approved");
  });
});

describe("appeals", () => {
  it("allow three appeals at most: the third sets can_appeal false and a fourth is refused", async () => {
    const merchant = await browserAs(U.second);
    const reviewer = await browserAs(U.reviewer);
    expect((await v3<Program>(merchant, "POST", program(B.second))).data.application?.review_status_name).toBe("UNDER_REVIEW");
    const disapprove = () => v3(reviewer, "POST", `/v3/merchant_reviews/${B.second}/decision/`, { decision: "disapprove", review_reasons: ["Products unclear"] });
    const appeal = (n: number) => v3<Program>(merchant, "POST", `${program(B.second)}appeal/`, { appeal_comment: `Appeal ${n}` });
    for (const n of [1, 2, 3]) {
      expect((await disapprove()).status).toBe(200);
      const answer = await appeal(n);
      expect(answer.data.application).toMatchObject({ appeal_count: n, is_appeal: true, can_appeal: n < 3 });
    }
    expect((await disapprove()).status).toBe(200);
    expect((await appeal(4)).status).toBe(409);
    expect(await application(B.second)).toMatchObject({ appeal_count: 3, can_appeal: 0, is_appeal: 0, review_status: 5 });
    // A stranger's too-long appeal is a 404 before it is a 400; the owner's is a 400 naming the field.
    const long = await v3(merchant, "POST", `${program(B.second)}appeal/`, { appeal_comment: "x".repeat(2001) });
    expect(long.status).toBe(400);
    expect(long.error?.message_detail).toContain("appeal_comment");
  });
});
