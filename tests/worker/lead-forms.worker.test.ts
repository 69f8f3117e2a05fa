// Lead forms on promoted pins: quick promote attaches one to its ad in the same batch; a person
// opens it with name and email filled in only where their account is flagged eligible (signed
// out: nothing) and sends it once; bad fields are 400s naming the field; bots and ads that do
// not run get 404; the advertiser's roles that run ads read the submissions and their CSV, other
// members are refused and strangers told nothing; a person's download holds their submissions
// and deleting their account removes them.
import { env } from "cloudflare:workers";
import { strFromU8, unzipSync } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";
import { Browser } from "./accounts-helpers.ts";
import { browserAs, scalar } from "./social-fixture.ts";

const U = { owner: 43_001, manager: 43_002, analyst: 43_003, stranger: 43_004, eligible: 43_005, unverified: 43_006 } as const;
const PIN = 43_101;
const BOARD = 43_201;
const BOT_UA = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

type Answer<T = Record<string, unknown>> = { status: number; data: T; error: { message: string; message_detail: string | null } | undefined };

async function v3<T = Record<string, unknown>>(browser: Browser, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer<T>> {
  const response =
    method === "GET" ? await browser.fetch(path, { headers }) : await browser.fetch(path, { method, body: JSON.stringify(body ?? {}), headers: { "content-type": "application/json", ...headers } });
  const json = await response.json<{ data: T; error?: Answer<T>["error"] }>();
  return { status: response.status, data: json.data, error: json.error };
}

const FORM = { headline: "Get the lamp catalogue", privacyPolicyUrl: "https://lamphouse.example/privacy", fields: ["fullName", "email", "phoneNumber", "zipCode"], callToAction: "GET_IN_TOUCH" };
const promotion = (overrides: Record<string, unknown> = {}) => ({ pinId: String(PIN), dailyBudget: 10, duration: 10, destinationUrl: "https://lamphouse.example/spring", adType: "STANDARD", name: "Spring lamps", leadForm: FORM, ...overrides });
const lead = (overrides: Record<string, unknown> = {}) => ({ fullName: "Mina Okafor", email: "mina@example.com", phoneNumber: "+1 555 010 2030", zipCode: "94107", consent: true, ...overrides });

let account = "";
let adId = "";
let campaignId = "";
const formPath = () => `/v3/lead_forms/${adId}/`;
const submit = () => `/v3/lead_forms/${adId}/submissions/`;
const submissionCount = () => scalar("SELECT COUNT(*) FROM lead_submissions");

beforeAll(async () => {
  const db = env.DB;
  await db.batch([
    ...Object.entries(U).map(([name, id]) =>
      db
        .prepare("INSERT INTO users (id, username, email, full_name, first_name, email_verified, created_at, age_in_years, is_under_18) VALUES (?1, ?2, ?3, ?4, ?4, ?5, 0, 30, 0)")
        .bind(id, `leads_${name}`, `${name}@leads.test`, name === "eligible" ? "Ada Lovelace" : name === "unverified" ? "Uma Unverified" : name, name === "unverified" ? 0 : 1),
    ),
    db.prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, created_at, updated_at) VALUES (?1, ?2, 'Lamps', 'lamps', 'public', 0, 0)").bind(BOARD, U.owner),
    db.prepare("INSERT INTO pins (id, pinner_id, board_id, kind, title, image_signature, created_at, updated_at) VALUES (?1, ?2, ?3, 'image', 'Brass lamp', 'sig-leads', 1, 1)").bind(PIN, U.owner, BOARD),
    db.prepare("INSERT INTO link_domains (domain, is_blocked) VALUES ('leads-spam.example', 1) ON CONFLICT (domain) DO UPDATE SET is_blocked = 1"),
  ]);
  const owner = await browserAs(U.owner);
  const made = await v3<{ business: { id: string }; ad_account: { id: string } }>(owner, "POST", "/v3/businesses/", {
    businessGoals: ["GENERATE_LEADS"],
    businessName: "Lamp House",
    businessVertical: "HOME_AND_GARDEN",
    numberEmployees: "2_10",
    hasWebsite: true,
    website: "https://lamphouse.example",
    country: "US",
    locale: "en_US",
    advertisingIntent: "NOW",
    worksWithAgency: false,
    firstName: "Lee",
    lastName: "Lamp",
    email: "lee@leads.test",
    countryCode: "+1",
    phoneNumber: "555 010 2030",
    whatsAppConsent: false,
    ageConfirmed: true,
  });
  expect(made.status).toBe(200);
  account = made.data.ad_account.id;
  await db.batch(
    (
      [
        [U.manager, "CAMPAIGN_MANAGER"],
        [U.analyst, "ANALYST"],
      ] as const
    ).map(([id, role]) => db.prepare("INSERT INTO business_members (business_id, user_id, role, created_at) VALUES (?1, ?2, ?3, 0)").bind(made.data.business.id, id, role)),
  );
  expect((await v3(owner, "PUT", `/v3/ad_accounts/${account}/quick_promote/business_address/`, { line1: "1 Main St", city: "Springfield", postalCode: "12345", country: "US" })).status).toBe(200);
  expect((await v3(owner, "PUT", `/v3/ad_accounts/${account}/quick_promote/billing_profile/`, { name: "Lamp House", email: "billing@leads.test" })).status).toBe(200);
});

describe("attaching a form in quick promote", () => {
  it("refuses a privacy policy off the link rule, naming the field, and makes nothing", async () => {
    const manager = await browserAs(U.manager);
    const before = [await scalar("SELECT COUNT(*) FROM campaigns"), await scalar("SELECT COUNT(*) FROM lead_forms")];
    const blocked = await v3(manager, "POST", `/v3/ad_accounts/${account}/quick_promote/`, promotion({ leadForm: { ...FORM, privacyPolicyUrl: "https://leads-spam.example/privacy" } }));
    expect([blocked.status, blocked.error!.message_detail]).toEqual([400, "leadForm.privacyPolicyUrl: Links to this site aren't allowed"]);
    const noFields = await v3(manager, "POST", `/v3/ad_accounts/${account}/quick_promote/`, promotion({ leadForm: { ...FORM, fields: [] } }));
    expect([noFields.status, noFields.error!.message_detail]).toEqual([400, "leadForm.fields: Choose at least one field to ask for"]);
    expect([await scalar("SELECT COUNT(*) FROM campaigns"), await scalar("SELECT COUNT(*) FROM lead_forms")]).toEqual(before);
  });

  it("makes the campaign, its ad and the ad's form in one batch", async () => {
    const made = await v3<{ campaign_id: string; ad_id: string }>(await browserAs(U.manager), "POST", `/v3/ad_accounts/${account}/quick_promote/`, promotion());
    expect(made.status).toBe(200);
    adId = made.data.ad_id;
    campaignId = made.data.campaign_id;
    const row = await env.DB.prepare("SELECT ad_account_id, headline, privacy_policy_url, call_to_action, fields FROM lead_forms WHERE ad_id = ?1").bind(adId).first();
    expect(row).toEqual({ ad_account_id: Number(account), headline: "Get the lamp catalogue", privacy_policy_url: "https://lamphouse.example/privacy", call_to_action: "GET_IN_TOUCH", fields: '["fullName","email","phoneNumber","zipCode"]' });
  });

  it("is edited from the ads table by a role that may change campaigns; an analyst is refused and a stranger told nothing", async () => {
    const path = `/v3/ad_accounts/${account}/ads/${adId}/lead_form/`;
    expect((await v3(await browserAs(U.analyst), "PUT", path, FORM)).status).toBe(403);
    expect((await v3(await browserAs(U.stranger), "PUT", path, FORM)).status).toBe(404);
    const edited = await v3<{ headline: string; fields: string[]; formSubmissions: number }>(await browserAs(U.owner), "PUT", path, { ...FORM, headline: "Get the lamp catalogue now", fields: ["zipCode", "phoneNumber", "email", "fullName"] });
    expect([edited.status, edited.data.headline, edited.data.fields, edited.data.formSubmissions]).toEqual([200, "Get the lamp catalogue now", ["fullName", "email", "phoneNumber", "zipCode"], 0]);
    expect(await scalar<string>("SELECT action FROM business_history WHERE entity_type = 'AD' AND entity_id = ?1 ORDER BY id DESC LIMIT 1", adId)).toBe("LEAD_FORM_SAVED");
  });
});

describe("opening the form", () => {
  it("fills in name and email for a signed-in person flagged eligible for both", async () => {
    const opened = await v3<{ headline: string; advertiser_name: string; prefill: unknown; form_submissions: number; submitted: boolean }>(await browserAs(U.eligible), "GET", formPath());
    expect([opened.status, opened.data.headline, opened.data.advertiser_name, opened.data.prefill, opened.data.form_submissions, opened.data.submitted]).toEqual([
      200,
      "Get the lamp catalogue now",
      "Lamp House",
      { fullName: "Ada Lovelace", email: "eligible@leads.test" },
      0,
      false,
    ]);
  });

  it("fills in only the name for a person whose email is not verified", async () => {
    expect((await v3(await browserAs(U.unverified), "GET", formPath())).data["prefill"]).toEqual({ fullName: "Uma Unverified" });
  });

  it("fills in nothing for a signed-out visitor, and gives a bot nothing at all", async () => {
    expect((await v3(new Browser(), "GET", formPath())).data["prefill"]).toEqual({});
    expect((await v3(new Browser(), "GET", formPath(), undefined, { "user-agent": BOT_UA })).status).toBe(404);
  });

  it("shows the button on the pin's close-up to people, never to a crawler", async () => {
    const page = await (await browserAs(U.eligible)).fetch(`/pin/${PIN}/`);
    expect(await page.text()).toMatch(/class="button lead-open"[^>]*>Get in touch</);
    const own = await (await browserAs(U.owner)).fetch(`/pin/${PIN}/`);
    expect(await own.text()).toMatch(/class="button lead-open"[^>]*>Get in touch</);
    const crawled = await new Browser().fetch(`/pin/${PIN}/`, { headers: { "user-agent": BOT_UA } });
    expect(await crawled.text()).not.toContain('class="button lead-open"');
  });
});

describe("sending it", () => {
  it("takes a signed-in person's submission and counts it", async () => {
    const sent = await v3<{ form_submissions: number }>(await browserAs(U.eligible), "POST", submit(), lead({ fullName: "Ada Lovelace", email: "Eligible@Leads.test" }));
    expect([sent.status, sent.data.form_submissions]).toEqual([200, 1]);
    const row = await env.DB.prepare("SELECT user_id, full_name, email, phone_number, zip_code, locale FROM lead_submissions WHERE ad_id = ?1").bind(adId).first();
    expect(row).toEqual({ user_id: U.eligible, full_name: "Ada Lovelace", email: "eligible@leads.test", phone_number: "+1 555 010 2030", zip_code: "94107", locale: "en_US" });
  });

  it("takes a signed-out visitor's submission, tied to no account", async () => {
    const sent = await v3<{ form_submissions: number }>(new Browser(), "POST", submit(), lead());
    expect([sent.status, sent.data.form_submissions]).toEqual([200, 2]);
    expect(await scalar("SELECT COUNT(*) FROM lead_submissions WHERE ad_id = ?1 AND user_id IS NULL AND email = 'mina@example.com'", adId)).toBe(1);
  });

  it("refuses a second submission from the same person or the same address, changing nothing", async () => {
    const again = await v3(await browserAs(U.eligible), "POST", submit(), lead({ fullName: "Ada L." }));
    expect([again.status, again.error!.message]).toEqual([409, "You've already sent this form"]);
    const sameEmail = await v3(new Browser(), "POST", submit(), lead({ email: "MINA@example.com", fullName: "Someone else" }));
    expect(sameEmail.status).toBe(409);
    expect(await submissionCount()).toBe(2);
    expect((await v3(await browserAs(U.eligible), "GET", formPath())).data["submitted"]).toBe(true);
  });

  it("answers 400 naming each bad field, and stores nothing", async () => {
    const visitor = new Browser();
    const bad = await v3(visitor, "POST", submit(), lead({ email: "not-an-email", phoneNumber: "12-34", zipCode: "1234567890123" }));
    expect([bad.status, bad.error!.message_detail]).toEqual([
      400,
      "email: Please enter a valid email address; phoneNumber: Enter a phone number with 7 to 15 digits; zipCode: Enter a postal code of 3 to 10 letters or digits",
    ]);
    const noConsent = await v3(visitor, "POST", submit(), lead({ email: "other@example.com", consent: false }));
    expect([noConsent.status, noConsent.error!.message_detail]).toEqual([400, "consent: Please agree to be contacted before you send"]);
    expect(await submissionCount()).toBe(2);
  });

  it("never takes one from a bot", async () => {
    expect((await v3(new Browser(), "POST", submit(), lead({ email: "bot@example.com" }), { "user-agent": BOT_UA })).status).toBe(404);
    expect(await submissionCount()).toBe(2);
  });

  it("keeps a formula typed as a name as text in the CSV", async () => {
    expect((await v3(new Browser(), "POST", submit(), lead({ fullName: "=HYPERLINK(\"x\")", email: "formula@example.com", phoneNumber: "555 010 9999", zipCode: "SW1A 1AA" }))).status).toBe(200);
  });
});

describe("what the advertiser reads", () => {
  it("lists the submissions in the table state for the roles that run ads", async () => {
    const list = await v3<{ items: Array<{ full_name: string; email: string; signed_in: boolean }>; total_count: number; page: number; limit: number; sort_by: string }>(
      await browserAs(U.manager),
      "GET",
      `/v3/ad_accounts/${account}/lead_submissions/?sort_by=email`,
    );
    expect([list.status, list.data.total_count, list.data.page, list.data.limit, list.data.sort_by]).toEqual([200, 3, 1, 10, "email"]);
    expect(list.data.items.map((item) => [item.email, item.signed_in])).toEqual([
      ["eligible@leads.test", true],
      ["formula@example.com", false],
      ["mina@example.com", false],
    ]);
    const searched = await v3<{ items: Array<{ full_name: string }> }>(await browserAs(U.owner), "GET", `/v3/ad_accounts/${account}/lead_submissions/?search_by=full_name&search_term=mina`);
    expect(searched.data.items.map((item) => item.full_name)).toEqual(["Mina Okafor"]);
  });

  it("refuses an analyst and tells a stranger nothing (404), for the list and the CSV alike", async () => {
    for (const [user, status] of [
      [U.analyst, 403],
      [U.stranger, 404],
    ] as const) {
      const browser = await browserAs(user);
      expect((await browser.fetch(`/v3/ad_accounts/${account}/lead_submissions/`)).status).toBe(status);
      expect((await browser.fetch(`/v3/ad_accounts/${account}/lead_submissions/csv/`)).status).toBe(status);
    }
  });

  it("exports them as CSV with a byte order mark, newest first, a formula kept text", async () => {
    const response = await (await browserAs(U.owner)).fetch(`/v3/ad_accounts/${account}/lead_submissions/csv/`);
    expect([response.status, response.headers.get("content-type"), response.headers.get("content-disposition")]).toEqual([200, "text/csv; charset=utf-8", `attachment; filename="leads-${account}.csv"`]);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    // TextDecoder drops the byte order mark it reads.
    const lines = new TextDecoder().decode(bytes).split("\r\n");
    expect(lines[0]).toBe("submitted_at,ad_id,ad_name,full_name,email,phone_number,zip_code,locale,signed_in");
    expect(lines.at(-1)).toBe("");
    // Rows sent within one millisecond tie on time, so their order is compared apart from it. A
    // phone's leading + is a formula's first character to a spreadsheet: the guard keeps it text too.
    expect(lines.slice(1, -1).map((line) => line.replace(/^[^,]+,/, "")).sort()).toEqual([
      `${adId},Spring lamps,"'=HYPERLINK(""x"")",formula@example.com,555 010 9999,SW1A 1AA,en_US,false`,
      `${adId},Spring lamps,Ada Lovelace,eligible@leads.test,'+1 555 010 2030,94107,en_US,true`,
      `${adId},Spring lamps,Mina Okafor,mina@example.com,'+1 555 010 2030,94107,en_US,false`,
    ]);
    const times = lines.slice(1, -1).map((line) => Date.parse(line.slice(0, line.indexOf(","))));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });
});

describe("an ad that does not run", () => {
  it("offers no form and takes no submission once its campaign is paused", async () => {
    expect((await v3(await browserAs(U.owner), "POST", `/v3/ad_accounts/${account}/campaigns/${campaignId}/pause/`)).status).toBe(200);
    expect((await v3(new Browser(), "GET", formPath())).status).toBe(404);
    const refused = await v3(new Browser(), "POST", submit(), lead({ email: "late@example.com" }));
    expect([refused.status, refused.error!.message]).toEqual([404, "This form isn't taking sign-ups right now"]);
    expect(await submissionCount()).toBe(3);
    // The pin's owner gets a render of their own (others share a template for up to a minute).
    const page = await (await browserAs(U.owner)).fetch(`/pin/${PIN}/`);
    expect(await page.text()).not.toContain('class="button lead-open"');
  });
});

describe("the person's own data", () => {
  it("is in their download, and goes with their account", async () => {
    const person = await browserAs(U.eligible);
    const files = unzipSync(new Uint8Array(await (await person.fetch("/v3/users/me/export/")).arrayBuffer()));
    const mine = JSON.parse(strFromU8(files["lead_submissions.json"]!)) as Array<Record<string, unknown>>;
    expect(mine.map((row) => [row["advertiser"], row["full_name"], row["email"], row["zip_code"]])).toEqual([["Lamp House", "Ada Lovelace", "eligible@leads.test", "94107"]]);
    const deleted = await person.json("/v3/users/me/", { confirm: true }, "DELETE");
    expect(deleted.status).toBe(200);
    expect(await scalar("SELECT COUNT(*) FROM lead_submissions WHERE user_id = ?1", U.eligible)).toBe(0);
    expect(await submissionCount()).toBe(2);
  });
});
