// Billing: the business and billing information forms (a 400 names the field and changes
// nothing; a saved billing form makes the ad account's TEST profile VALID, removing it makes it
// INVALID), promotion codes applied once, the closing run that issues an ended month's invoice
// exactly once from what the campaigns delivered (amounts worked out by hand below), the PDF of
// an invoice with its number as text, and who may see it: a stranger gets the same 404 as for a
// missing invoice.
import { env } from "cloudflare:workers";
import { unzlibSync } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";
import { closeBillingMonths } from "~/business/billing.server.ts";
import { testProcessor } from "~/business/payment-processor.ts";
import { Browser } from "./accounts-helpers.ts";
import { browserAs, scalar } from "./social-fixture.ts";

const U = { owner: 27_001, finance: 27_002, manager: 27_003, analyst: 27_004, stranger: 27_005 } as const;

type Answer<T = Record<string, unknown>> = { status: number; data: T; error: { message: string; message_detail: string | null } | undefined };

async function v3<T = Record<string, unknown>>(browser: Browser, method: string, path: string, body?: unknown): Promise<Answer<T>> {
  const response = method === "GET" ? await browser.fetch(path) : await browser.json(path, body ?? {}, method);
  const json = await response.json<{ data: T; error?: Answer<T>["error"] }>();
  return { status: response.status, data: json.data, error: json.error };
}

const onboarding = {
  businessGoals: ["INCREASE_SALES"],
  businessName: "Atelier Lune",
  businessVertical: "FOOD_AND_DRINK",
  numberEmployees: "2_10",
  hasWebsite: false,
  country: "FR",
  locale: "fr",
  advertisingIntent: "NOW",
  worksWithAgency: false,
  firstName: "Inès",
  lastName: "Moreau",
  email: "ines@atelierlune.example",
  ageConfirmed: true,
};

const businessInformation = { legal_name: "Atelier Lune SARL", line1: "12 rue des Lilas", city: "Lyon", postal_code: "69003", country: "FR" };
const billingInformation = { contact_name: "Inès Moreau", email: "factures@atelierlune.example" };

let businessId = "";
let accountId = "";
const base = () => `/v3/businesses/${businessId}`;
const account = (id = accountId) => `${base()}/ad_accounts/${id}`;

const counts = async () => ({
  addresses: await scalar("SELECT COUNT(*) FROM business_addresses"),
  profiles: await scalar("SELECT COUNT(*) FROM billing_profiles"),
  valid: await scalar("SELECT COUNT(*) FROM billing_profiles WHERE status = 'VALID'"),
  redemptions: await scalar("SELECT COUNT(*) FROM promotion_redemptions"),
  billingHistory: await scalar("SELECT COUNT(*) FROM billing_history"),
  history: await scalar("SELECT COUNT(*) FROM business_history"),
  invoices: await scalar("SELECT COUNT(*) FROM invoices WHERE status != 'PROGRESS'"),
});

beforeAll(async () => {
  const db = env.DB;
  await db.batch(
    Object.entries(U).map(([name, id]) =>
      db.prepare("INSERT INTO users (id, username, email, full_name, first_name, email_verified, created_at, age_in_years, is_under_18) VALUES (?1, ?2, ?3, ?2, ?2, 1, 0, 30, 0)").bind(id, `bill_${name}`, `${name}@billing.test`),
    ),
  );
  const made = await v3<{ business: { id: string }; ad_account: { id: string } }>(await browserAs(U.owner), "POST", "/v3/businesses/", onboarding);
  expect(made.status).toBe(200);
  businessId = made.data.business.id;
  accountId = made.data.ad_account.id;
  await db.batch(
    (
      [
        [U.finance, "FINANCE"],
        [U.manager, "CAMPAIGN_MANAGER"],
        [U.analyst, "ANALYST"],
      ] as const
    ).map(([id, role]) => db.prepare("INSERT INTO business_members (business_id, user_id, role, created_at) VALUES (?1, ?2, ?3, 0)").bind(businessId, id, role)),
  );
});

describe("the billing forms", () => {
  it("refuse bad business information with a 400 naming each field, and change nothing", async () => {
    const before = await counts();
    const finance = await browserAs(U.finance);
    const empty = await v3(finance, "PUT", `${base()}/billing/business_information/`, { ...businessInformation, city: "" });
    expect(empty.status).toBe(400);
    expect(empty.error!.message_detail).toMatch(/^city: /);
    const taxId = await v3(finance, "PUT", `${base()}/billing/business_information/`, { ...businessInformation, tax_id: "DE123456789" });
    expect([taxId.status, taxId.error!.message_detail]).toEqual([400, "tax_id: is not a tax ID in the format used in FR"]);
    const country = await v3(finance, "PUT", `${base()}/billing/business_information/`, { ...businessInformation, country: "ZZ" });
    expect([country.status, country.error!.message_detail?.startsWith("country: ")]).toEqual([400, true]);
    expect(await counts()).toEqual(before);
  });

  it("refuse an autofilled billing form before the business information exists, and a bad e-mail, changing nothing", async () => {
    const finance = await browserAs(U.finance);
    const before = await counts();
    const early = await v3(finance, "PUT", `${account()}/billing_profile/`, billingInformation);
    expect([early.status, early.error!.message_detail]).toEqual([400, "autofill: needs the business information saved first"]);
    const email = await v3(finance, "PUT", `${account()}/billing_profile/`, { ...billingInformation, email: "not-an-address" });
    expect(email.status).toBe(400);
    expect(email.error!.message_detail).toMatch(/^email: /);
    const own = await v3(finance, "PUT", `${account()}/billing_profile/`, { ...billingInformation, autofill: false, line1: "3 quai Rambaud", country: "FR" });
    expect([own.status, own.error!.message_detail]).toEqual([400, "city: is needed when the address isn't taken from the business information; postal_code: is needed when the address isn't taken from the business information"]);
    expect(await counts()).toEqual(before);
  });

  it("make the ad account VALID for billing once both are saved, with history by whom", async () => {
    const finance = await browserAs(U.finance);
    const saved = await v3<{ tax_id: string }>(finance, "PUT", `${base()}/billing/business_information/`, { ...businessInformation, tax_id: "" });
    expect(saved.status).toBe(200);
    const profile = await v3<{ status: string; mode: string; billing_information: Record<string, unknown> }>(finance, "PUT", `${account()}/billing_profile/`, billingInformation);
    expect(profile.status).toBe(200);
    expect([profile.data.status, profile.data.mode]).toEqual(["VALID", "TEST"]);
    // Autofill (on by default) copied the business's address.
    expect(profile.data.billing_information).toEqual({ contact_name: "Inès Moreau", email: "factures@atelierlune.example", autofill: true, line1: "12 rue des Lilas", line2: "", city: "Lyon", region: "", postal_code: "69003", country: "FR" });
    expect(await scalar<string>("SELECT status FROM billing_profiles WHERE ad_account_id = ?1", accountId)).toBe("VALID");
    const rows = await env.DB.prepare("SELECT action, actor_id FROM billing_history WHERE business_id = ?1 ORDER BY id").bind(businessId).all();
    expect(rows.results).toEqual([
      { action: "BUSINESS_INFORMATION_SAVED", actor_id: U.finance },
      { action: "BILLING_INFORMATION_SAVED", actor_id: U.finance },
    ]);
    const history = await env.DB.prepare("SELECT action, actor_id FROM business_history WHERE business_id = ?1 AND action LIKE 'BILLING_%' ORDER BY id").bind(businessId).all();
    expect(history.results).toEqual([
      { action: "BILLING_BUSINESS_INFORMATION_SAVED", actor_id: U.finance },
      { action: "BILLING_INFORMATION_SAVED", actor_id: U.finance },
    ]);
  });

  it("move an autofilled billing address with the business's", async () => {
    await v3(await browserAs(U.owner), "PUT", `${base()}/billing/business_information/`, { ...businessInformation, line1: "40 cours Gambetta", postal_code: "69007" });
    const stored = JSON.parse((await scalar<string>("SELECT billing_information FROM billing_profiles WHERE ad_account_id = ?1", accountId))!) as Record<string, string>;
    expect([stored["line1"], stored["postal_code"], stored["contact_name"]]).toEqual(["40 cours Gambetta", "69007", "Inès Moreau"]);
  });

  it("turn an account INVALID when its billing information is removed, and refuse removing it twice", async () => {
    const owner = await browserAs(U.owner);
    const spare = await v3<{ id: string }>(owner, "POST", `${base()}/ad_accounts/`, { name: "Spare billing", country: "FR" });
    expect((await v3(owner, "PUT", `${account(spare.data.id)}/billing_profile/`, billingInformation)).status).toBe(200);
    const removed = await v3(owner, "DELETE", `${account(spare.data.id)}/billing_profile/`);
    expect([removed.status, removed.data]).toEqual([200, { ad_account_id: spare.data.id, status: "INVALID" }]);
    expect(await scalar<string>("SELECT status FROM billing_profiles WHERE ad_account_id = ?1", spare.data.id)).toBe("INVALID");
    const before = await counts();
    expect((await v3(owner, "DELETE", `${account(spare.data.id)}/billing_profile/`)).status).toBe(409);
    expect(await counts()).toEqual(before);
    // Closing the account takes its profile with it.
    expect((await v3(owner, "DELETE", `${account(spare.data.id)}/`)).status).toBe(200);
    expect(await scalar("SELECT COUNT(*) FROM billing_profiles WHERE ad_account_id = ?1", spare.data.id)).toBe(0);
  });
});

describe("promotion codes", () => {
  it("apply once per ad account, in the account's currency", async () => {
    const finance = await browserAs(U.finance);
    const applied = await v3<{ code: string; credit_micro: number; remaining_micro: number }>(finance, "POST", `${account()}/promotions/`, { code: "welcome-eur" });
    expect([applied.status, applied.data.code, applied.data.credit_micro, applied.data.remaining_micro]).toEqual([200, "WELCOME-EUR", 50_000_000, 50_000_000]);
    const before = await counts();
    const again = await v3(finance, "POST", `${account()}/promotions/`, { code: "WELCOME-EUR" });
    expect([again.status, again.error!.message_detail]).toEqual([400, "code: has already been applied to this ad account"]);
    const dollars = await v3(finance, "POST", `${account()}/promotions/`, { code: "WELCOME-USD" });
    expect([dollars.status, dollars.error!.message_detail]).toEqual([400, "code: is for ad accounts billed in USD"]);
    const unknown = await v3(finance, "POST", `${account()}/promotions/`, { code: "NOPE-123" });
    expect([unknown.status, unknown.error!.message_detail]).toEqual([400, "code: is not a promotion code"]);
    expect(await counts()).toEqual(before);
    expect(await scalar<string>("SELECT action FROM business_history WHERE business_id = ?1 ORDER BY id DESC LIMIT 1", businessId)).toBe("PROMOTION_APPLIED");
  });
});

// ---- Issuing September 2026 ----

const CLOSE_AT = Date.UTC(2026, 9, 2, 3, 0, 0);
let invoiceId = "";
let invoiceNumber = "";

describe("the closing run", () => {
  beforeAll(async () => {
    const db = env.DB;
    const campaign = (id: number, name: string) =>
      db
        .prepare("INSERT INTO campaigns (id, ad_account_id, business_id, name, goal, status, daily_budget_micro, start_at, end_at, created_by, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, 'CONSIDERATION', 'ENDED', 10000000, ?5, ?6, ?7, ?5, ?5)")
        .bind(id, accountId, businessId, name, Date.UTC(2026, 8, 1), Date.UTC(2026, 8, 11), U.owner);
    const spend = (ad: number, campaignId: number, day: string, micro: number, impressions: number, clicks: number) =>
      db.prepare("INSERT INTO ad_spend_daily (ad_id, campaign_id, ad_account_id, day, spend_micro, impressions, clicks) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)").bind(ad, campaignId, accountId, day, micro, impressions, clicks);
    await db.batch([
      campaign(81_001, "Autumn menu"),
      campaign(81_002, "Brunch"),
      spend(91_001, 81_001, "2026-09-03", 12_345_678, 1000, 10),
      spend(91_002, 81_001, "2026-09-04", 1_000_000, 200, 2),
      spend(91_003, 81_002, "2026-09-10", 7_654_321, 500, 5),
      // October is still open on CLOSE_AT: not on September's invoice.
      spend(91_001, 81_001, "2026-10-01", 3_000_000, 100, 1),
    ]);
  });

  it("issues the ended month once, from what was delivered, using the promotion credit first", async () => {
    expect(await closeBillingMonths(env.DB, testProcessor, CLOSE_AT)).toEqual({ issued: 1 });
    const invoices = await v3<{ items: Array<{ id: string; number: string; period: string; status: string; subtotal_micro: number; credit_micro: number; tax_rate_bp: number; tax_micro: number; total_micro: number }> }>(await browserAs(U.finance), "GET", `${account()}/invoices/?tab=PAID`);
    expect(invoices.status).toBe(200);
    const [september] = invoices.data.items;
    // Autumn menu 13.345678 → 13.35; Brunch 7.654321 → 7.65; subtotal 21.00, all of it paid by
    // the 50.00 credit; nothing taxable, so nothing to pay: settled at once.
    expect(september).toMatchObject({ period: "2026-09", status: "PAID", subtotal_micro: 21_000_000, credit_micro: 21_000_000, tax_rate_bp: 2000, tax_micro: 0, total_micro: 0 });
    expect(september!.number).toMatch(/^PL-202609-\d{6}$/);
    invoiceId = september!.id;
    invoiceNumber = september!.number;
    expect(await scalar("SELECT remaining_micro FROM promotion_redemptions WHERE ad_account_id = ?1 AND code = 'WELCOME-EUR'", accountId)).toBe(29_000_000);

    const detail = await v3<{ lines: Array<Record<string, unknown>>; credits: unknown[] }>(await browserAs(U.owner), "GET", `${account()}/invoices/${invoiceId}/`);
    expect(detail.data.lines).toEqual([
      { campaign_id: "81001", campaign_name: "Autumn menu", first_day: "2026-09-03", last_day: "2026-09-04", impressions: 1200, clicks: 12, amount_micro: 13_350_000 },
      { campaign_id: "81002", campaign_name: "Brunch", first_day: "2026-09-10", last_day: "2026-09-10", impressions: 500, clicks: 5, amount_micro: 7_650_000 },
    ]);
    expect(detail.data.credits).toEqual([{ code: "WELCOME-EUR", amount_micro: 21_000_000 }]);
    const rows = await env.DB.prepare("SELECT action, actor_id FROM billing_history WHERE business_id = ?1 AND action = 'INVOICE_ISSUED'").bind(businessId).all();
    expect(rows.results).toEqual([{ action: "INVOICE_ISSUED", actor_id: null }]);
  });

  it("changes nothing when run again", async () => {
    const before = await counts();
    const seq = await scalar("SELECT seq FROM invoices WHERE id = ?1", invoiceId);
    expect(await closeBillingMonths(env.DB, testProcessor, CLOSE_AT)).toEqual({ issued: 0 });
    expect(await closeBillingMonths(env.DB, testProcessor, CLOSE_AT + 3_600_000)).toEqual({ issued: 0 });
    expect(await counts()).toEqual(before);
    expect(await scalar("SELECT seq FROM invoices WHERE id = ?1", invoiceId)).toBe(seq);
    expect(await scalar("SELECT COUNT(*) FROM invoice_lines WHERE invoice_id = ?1", invoiceId)).toBe(2);
  });

  it("taxes what no credit covers, and keeps an invoice UNPAID until a valid profile pays it", async () => {
    // October: 3.00 delivered, 29.00 of credit left covers it.
    expect(await closeBillingMonths(env.DB, testProcessor, Date.UTC(2026, 10, 1, 1))).toEqual({ issued: 1 });
    // A second account without credit: 10.01 delivered, 20 % tax 2.00 (2.002 rounded), total 12.01.
    const owner = await browserAs(U.owner);
    const second = await v3<{ id: string }>(owner, "POST", `${base()}/ad_accounts/`, { name: "Second", country: "FR" });
    await env.DB.prepare("INSERT INTO ad_spend_daily (ad_id, campaign_id, ad_account_id, day, spend_micro, impressions, clicks) VALUES (91_009, 81_009, ?1, '2026-09-20', 10010000, 50, 1)").bind(second.data.id).run();
    expect(await closeBillingMonths(env.DB, testProcessor, CLOSE_AT)).toEqual({ issued: 1 });
    const unpaid = await v3<{ items: Array<{ id: string; status: string; total_micro: number; tax_micro: number }> }>(owner, "GET", `${account(second.data.id)}/invoices/?tab=UNPAID`);
    // No billing profile on that account: issued and waiting.
    expect(unpaid.data.items.map((item) => [item.status, item.tax_micro, item.total_micro])).toEqual([["UNPAID", 2_000_000, 12_010_000]]);
    const refused = await v3(owner, "POST", `${account(second.data.id)}/invoices/${unpaid.data.items[0]!.id}/pay/`);
    expect(refused.status).toBe(409);
    expect((await v3(owner, "PUT", `${account(second.data.id)}/billing_profile/`, billingInformation)).status).toBe(200);
    const paid = await v3<{ status: string }>(owner, "POST", `${account(second.data.id)}/invoices/${unpaid.data.items[0]!.id}/pay/`);
    expect([paid.status, paid.data.status]).toEqual([200, "PAID"]);
  });

  it("keeps the current month in the PROGRESS tab, shown by default", async () => {
    const progress = await v3<{ tab: string; items: Array<{ status: string; period: string; number: null }> }>(await browserAs(U.finance), "GET", `${account()}/invoices/`);
    expect(progress.data.tab).toBe("PROGRESS");
    expect(progress.data.items.map((item) => [item.status, item.period, item.number])).toEqual([["PROGRESS", new Date().toISOString().slice(0, 7), null]]);
  });
});

/** The text drawn in a PDF: every content stream inflated, each hex string shown with Tj read back. */
function pdfText(bytes: Uint8Array): string {
  const raw = new TextDecoder("latin1").decode(bytes);
  const texts: string[] = [];
  for (const match of raw.matchAll(/stream\r?\n/g)) {
    const start = match.index + match[0].length;
    const end = raw.indexOf("endstream", start);
    let content: string;
    try {
      content = new TextDecoder("latin1").decode(unzlibSync(bytes.subarray(start, end)));
    } catch {
      // Not compressed (or not a content stream): read as it is.
      content = raw.slice(start, end);
    }
    for (const shown of content.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g)) texts.push(shown[1]!.replace(/../g, (pair) => String.fromCharCode(parseInt(pair, 16))));
  }
  return texts.join("\n");
}

describe("the invoice PDF", () => {
  const pdf = () => `${account()}/invoices/${invoiceId}.pdf`;

  it("is a PDF drawn from the invoice's data, its number and lines as text", async () => {
    const response = await (await browserAs(U.finance)).fetch(pdf());
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="${invoiceNumber}.pdf"`);
    expect(response.headers.get("cache-control")).toMatch(/^private/);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(new TextDecoder("latin1").decode(bytes.subarray(0, 5))).toBe("%PDF-");
    const text = pdfText(bytes);
    expect(text).toContain(`Invoice ${invoiceNumber}`);
    expect(text).toContain("Autumn menu");
    // The euro sign is a WinAnsi byte of its own; the digits are Intl's en-US.
    expect(text).toContain("13.35");
    expect(text).toContain("Atelier Lune SARL");
  });

  it("is refused to roles that do not read billing, and not found for strangers as for a missing invoice", async () => {
    expect((await (await browserAs(U.analyst)).fetch(pdf())).status).toBe(403);
    expect((await (await browserAs(U.manager)).fetch(pdf())).status).toBe(403);
    const stranger = await (await browserAs(U.stranger)).fetch(pdf());
    const missing = await (await browserAs(U.stranger)).fetch(`/v3/businesses/123456789/ad_accounts/${accountId}/invoices/${invoiceId}.pdf`);
    expect([stranger.status, missing.status]).toEqual([404, 404]);
    expect((await stranger.json<{ message: string }>()).message).toBe((await missing.json<{ message: string }>()).message);
    expect((await (await browserAs(U.finance)).fetch(`${account()}/invoices/4503599627370497.pdf`)).status).toBe(404);
    expect((await new Browser().fetch(pdf())).status).toBe(401);
  });
});

describe("the billing page", () => {
  it("shows finance the forms and the invoices with the PROGRESS tab chosen, an analyst only the prepaid spend, a stranger a 404", async () => {
    const finance = await (await browserAs(U.finance)).fetch(`/business/hub/${businessId}/billing/`);
    expect(finance.status).toBe(200);
    const html = await finance.text();
    expect(html).toMatch(/<a [^>]*aria-current="page"[^>]*data-tab="PROGRESS"|<a [^>]*data-tab="PROGRESS"[^>]*aria-current="page"/);
    expect(html).toContain('data-billing-status="VALID"');
    expect(html).toContain(`${invoiceNumber}.pdf`);
    const analyst = await (await (await browserAs(U.analyst)).fetch(`/business/hub/${businessId}/billing/`)).text();
    expect(analyst).toContain('id="prepaid"');
    expect(analyst).not.toContain('id="invoices"');
    expect((await (await browserAs(U.stranger)).fetch(`/business/hub/${businessId}/billing/`)).status).toBe(404);
  });
});
