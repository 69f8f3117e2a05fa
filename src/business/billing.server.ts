// Billing's storage (spec 002 §2 "Billing sections"): the business information (legal name,
// address, tax id) and each ad account's billing information, which makes its TEST billing
// profile VALID; monthly invoices made from what the campaigns delivered (ad_spend_daily), open
// (PROGRESS) while the month accrues and issued once by the closing run; promotion codes and
// the credit they give; the prepaid spend per campaign; and a billing history. Every read asks
// the role table; every change is one batch that re-checks the actor's role in SQL and writes
// its billing history and business history rows only when it changed something.
import { badRequest, conflict, notFound } from "~/domain/errors.ts";
import {
  invoiceNumber,
  invoiceTotals,
  PAYMENT_TERM_MS,
  periodDays,
  periodOf,
  resolveBillingInformation,
  spendCredits,
  taxRateFor,
  type BillingInformation,
  type BillingInformationInput,
  type BusinessInformation,
  type InvoiceStatus,
} from "./billing.ts";
import { actorMay, actorMayOn, historyRow, newId, requireAction, requireAssetAction, seconds } from "./core.server.ts";
import type { PaymentProcessor } from "./payment-processor.ts";

/** Bounds, so every list and batch stays small. */
const LIMITS = { invoicesPage: 24, lines: 500, history: 50, campaigns: 100, closingBatch: 200 } as const;

interface AccountRow {
  id: number;
  name: string;
  currency: string;
  country: string;
}

async function accountOf(db: D1Database, businessId: number, adAccountId: number): Promise<AccountRow> {
  const row = await db.prepare("SELECT id, name, currency, country FROM ad_accounts WHERE id = ?1 AND business_id = ?2").bind(adAccountId, businessId).first<AccountRow>();
  if (!row) throw notFound("business:api.adAccountNotFound");
  return row;
}

/** A billing history row, written only when `onlyIf` (SQL, ?1 business, ?2 actor) holds. */
function billingRow(db: D1Database, businessId: number, actorId: number | null, adAccountId: number | null, action: string, detail: Record<string, unknown>, now: number, onlyIf: string): D1PreparedStatement {
  return db
    .prepare(`INSERT INTO billing_history (business_id, ad_account_id, actor_id, action, detail, created_at) SELECT ?1, ?3, ?2, ?4, ?5, ?6 WHERE ${onlyIf}`)
    .bind(businessId, actorId, adAccountId, action, JSON.stringify(detail), now);
}

// ---- The business information ----

export async function readBusinessInformation(db: D1Database, businessId: number): Promise<BusinessInformation | null> {
  const row = await db
    .prepare("SELECT legal_name, line1, line2, city, region, postal_code, country, tax_id FROM business_addresses WHERE business_id = ?1")
    .bind(businessId)
    .first<BusinessInformation>();
  return row ?? null;
}

export async function saveBusinessInformation(db: D1Database, userId: number, businessId: number, input: BusinessInformation, now = Date.now()): Promise<BusinessInformation> {
  await requireAction(db, businessId, userId, "billing.update");
  const saved = `EXISTS (SELECT 1 FROM business_addresses WHERE business_id = ?1 AND updated_by = ?2 AND updated_at = ${now})`;
  const [upsert] = await db.batch([
    db
      .prepare(
        `INSERT INTO business_addresses (business_id, legal_name, line1, line2, city, region, postal_code, country, tax_id, updated_by, updated_at)
         SELECT ?1, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?2, ?11 WHERE ${actorMay("billing.update")}
         ON CONFLICT (business_id) DO UPDATE SET legal_name = excluded.legal_name, line1 = excluded.line1, line2 = excluded.line2, city = excluded.city,
           region = excluded.region, postal_code = excluded.postal_code, country = excluded.country, tax_id = excluded.tax_id, updated_by = excluded.updated_by, updated_at = excluded.updated_at`,
      )
      .bind(businessId, userId, input.legal_name, input.line1, input.line2, input.city, input.region, input.postal_code, input.country, input.tax_id, now),
    // Billing forms that autofill their address from the business follow it.
    db
      .prepare(
        `UPDATE billing_profiles SET billing_information = json_set(billing_information, '$.line1', ?3, '$.line2', ?4, '$.city', ?5, '$.region', ?6, '$.postal_code', ?7, '$.country', ?8), updated_at = ?9
         WHERE ad_account_id IN (SELECT id FROM ad_accounts WHERE business_id = ?1) AND json_extract(billing_information, '$.autofill') = 1 AND ${saved}`,
      )
      .bind(businessId, userId, input.line1, input.line2, input.city, input.region, input.postal_code, input.country, now),
    billingRow(db, businessId, userId, null, "BUSINESS_INFORMATION_SAVED", { legal_name: input.legal_name, country: input.country }, now, saved),
    historyRow(db, businessId, userId, "BILLING_BUSINESS_INFORMATION_SAVED", "BUSINESS", businessId, { name: input.legal_name }, now, saved),
  ]);
  if (upsert!.meta.changes !== 1) await refuse(db, businessId, userId);
  return (await readBusinessInformation(db, businessId))!;
}

/** A guarded write that changed nothing: the role (on the ad account, for one account's billing) was taken meanwhile (403), or the target went away. */
async function refuse(db: D1Database, businessId: number, userId: number, adAccountId?: number): Promise<never> {
  if (adAccountId === undefined) await requireAction(db, businessId, userId, "billing.update");
  else await requireAssetAction(db, businessId, userId, "billing.update", { type: "AD_ACCOUNT", id: adAccountId });
  throw notFound("business:api.adAccountNotFound");
}

// ---- Billing profiles ----

interface BillingProfile {
  ad_account_id: string;
  mode: "TEST";
  status: "VALID" | "INVALID";
  billing_information: BillingInformation | null;
  updated_time: number;
}

export interface BillingAccount {
  id: string;
  name: string;
  currency: string;
  country: string;
  billing_profile: BillingProfile | null;
}

function profileOf(row: Record<string, unknown>): BillingProfile | null {
  if (row["status"] === null || row["status"] === undefined) return null;
  const information = JSON.parse(String(row["billing_information"])) as Partial<BillingInformation>;
  return {
    ad_account_id: String(row["id"]),
    mode: "TEST",
    status: row["status"] as "VALID" | "INVALID",
    billing_information: row["status"] === "VALID" ? (information as BillingInformation) : null,
    updated_time: seconds(Number(row["updated_at"])),
  };
}

/** The business's ad accounts (at most 50, the business's limit) with their billing profiles. */
export async function billingAccounts(db: D1Database, userId: number, businessId: number): Promise<BillingAccount[]> {
  await requireAction(db, businessId, userId, "billing.read");
  const { results } = await db
    .prepare(
      `SELECT a.id, a.name, a.currency, a.country, p.status, p.billing_information, p.updated_at
       FROM ad_accounts a LEFT JOIN billing_profiles p ON p.ad_account_id = a.id WHERE a.business_id = ?1 ORDER BY a.created_at, a.id LIMIT 50`,
    )
    .bind(businessId)
    .all<Record<string, unknown>>();
  return results.map((row) => ({ id: String(row["id"]), name: String(row["name"]), currency: String(row["currency"]), country: String(row["country"]), billing_profile: profileOf(row) }));
}

/** Statement opening a month's invoice of an account (nothing when it exists); `onlyIf` uses constants only. */
function openMonth(db: D1Database, businessId: number, account: { id: number; currency: string }, period: string, now: number, onlyIf = "1"): D1PreparedStatement {
  return db
    .prepare(`INSERT INTO invoices (id, ad_account_id, business_id, period, status, currency, created_at) SELECT ?2, ?3, ?1, ?4, 'PROGRESS', ?5, ?6 WHERE ${onlyIf} ON CONFLICT (ad_account_id, period) DO NOTHING`)
    .bind(businessId, newId(), account.id, period, account.currency, now);
}

/**
 * The billing form of one ad account: saved complete, the processor sets up its payment method
 * and the TEST profile becomes VALID, so the account may promote. With autofill, the business
 * information must exist first (its address is the billing address).
 */
export async function saveBillingInformation(db: D1Database, processor: PaymentProcessor, userId: number, businessId: number, adAccountId: number, input: BillingInformationInput, now = Date.now()): Promise<BillingProfile> {
  await requireAssetAction(db, businessId, userId, "billing.update", { type: "AD_ACCOUNT", id: adAccountId });
  const account = await accountOf(db, businessId, adAccountId);
  const business = await readBusinessInformation(db, businessId);
  if (input.autofill && business === null) throw badRequest([{ field: "autofill", reason: "billing:validation.needsBusinessInformation" }]);
  const information = resolveBillingInformation(input, business ?? { line1: "", line2: "", city: "", region: "", postal_code: "", country: "" });
  const setup = await processor.setUp(adAccountId);
  const saved = `EXISTS (SELECT 1 FROM billing_profiles WHERE ad_account_id = ${adAccountId} AND updated_at = ${now})`;
  const [upsert] = await db.batch([
    db
      .prepare(
        `INSERT INTO billing_profiles (ad_account_id, mode, status, billing_information, created_by, created_at, updated_at)
         SELECT ?3, ?4, ?5, ?6, ?2, ?7, ?7 WHERE ${actorMayOn("billing.update", "AD_ACCOUNT", "?3")} AND EXISTS (SELECT 1 FROM ad_accounts WHERE id = ?3 AND business_id = ?1)
         ON CONFLICT (ad_account_id) DO UPDATE SET mode = excluded.mode, status = excluded.status, billing_information = excluded.billing_information, updated_at = excluded.updated_at`,
      )
      .bind(businessId, userId, adAccountId, setup.mode, setup.status, JSON.stringify(information), now),
    openMonth(db, businessId, account, periodOf(now), now, saved),
    billingRow(db, businessId, userId, adAccountId, "BILLING_INFORMATION_SAVED", { status: setup.status, autofill: information.autofill }, now, saved),
    historyRow(db, businessId, userId, "BILLING_INFORMATION_SAVED", "AD_ACCOUNT", adAccountId, { name: account.name }, now, saved),
  ]);
  if (upsert!.meta.changes !== 1) await refuse(db, businessId, userId, adAccountId);
  return (await billingProfile(db, adAccountId))!;
}

async function billingProfile(db: D1Database, adAccountId: number): Promise<BillingProfile | null> {
  const row = await db.prepare("SELECT ad_account_id AS id, status, billing_information, updated_at FROM billing_profiles WHERE ad_account_id = ?1").bind(adAccountId).first<Record<string, unknown>>();
  return row ? profileOf(row) : null;
}

/** Removing the billing information: the profile turns INVALID and the account may no longer promote. */
export async function removeBillingInformation(db: D1Database, userId: number, businessId: number, adAccountId: number, now = Date.now()): Promise<{ ad_account_id: string; status: "INVALID" }> {
  await requireAssetAction(db, businessId, userId, "billing.update", { type: "AD_ACCOUNT", id: adAccountId });
  const account = await accountOf(db, businessId, adAccountId);
  const [update] = await db.batch([
    db
      .prepare(
        `UPDATE billing_profiles SET status = 'INVALID', billing_information = '{}', updated_at = ?4
         WHERE ad_account_id = ?3 AND status = 'VALID' AND ad_account_id IN (SELECT id FROM ad_accounts WHERE business_id = ?1) AND ${actorMayOn("billing.update", "AD_ACCOUNT", "?3")}`,
      )
      .bind(businessId, userId, adAccountId, now),
    billingRow(db, businessId, userId, adAccountId, "BILLING_INFORMATION_REMOVED", {}, now, "changes() = 1"),
    historyRow(db, businessId, userId, "BILLING_INFORMATION_REMOVED", "AD_ACCOUNT", adAccountId, { name: account.name }, now, `EXISTS (SELECT 1 FROM billing_history WHERE business_id = ?1 AND actor_id = ?2 AND action = 'BILLING_INFORMATION_REMOVED' AND created_at = ${now})`),
  ]);
  if (update!.meta.changes !== 1) {
    await requireAssetAction(db, businessId, userId, "billing.update", { type: "AD_ACCOUNT", id: adAccountId });
    throw conflict("billing:api.noBillingInformation");
  }
  return { ad_account_id: String(adAccountId), status: "INVALID" };
}

// ---- Invoices ----

interface InvoiceLine {
  campaign_id: string;
  campaign_name: string;
  first_day: string;
  last_day: string;
  impressions: number;
  clicks: number;
  amount_micro: number;
}

interface Invoice {
  id: string;
  ad_account_id: string;
  number: string | null;
  period: string;
  first_day: string;
  last_day: string;
  status: InvoiceStatus;
  currency: string;
  subtotal_micro: number;
  credit_micro: number;
  tax_rate_bp: number;
  tax_micro: number;
  total_micro: number;
  issued_time: number | null;
  due_time: number | null;
  paid_time: number | null;
}

export interface InvoiceDetail extends Invoice {
  lines: InvoiceLine[];
  credits: Array<{ code: string; amount_micro: number }>;
  bill_to: { legal_name: string; address: string[]; tax_id: string; contact_name: string; email: string };
  ad_account: { id: string; name: string };
}

const INVOICE_COLUMNS = "id, ad_account_id, period, status, currency, seq, subtotal_micro, credit_micro, tax_rate_bp, tax_micro, total_micro, bill_to, issued_at, due_at, paid_at";

function invoiceOf(row: Record<string, unknown>): Invoice {
  const period = String(row["period"]);
  const days = periodDays(period);
  const time = (key: string) => (row[key] === null ? null : seconds(Number(row[key])));
  return {
    id: String(row["id"]),
    ad_account_id: String(row["ad_account_id"]),
    number: row["seq"] === null ? null : invoiceNumber(period, Number(row["seq"])),
    period,
    first_day: days.first,
    last_day: days.last,
    status: row["status"] as InvoiceStatus,
    currency: String(row["currency"]),
    subtotal_micro: Number(row["subtotal_micro"]),
    credit_micro: Number(row["credit_micro"]),
    tax_rate_bp: Number(row["tax_rate_bp"]),
    tax_micro: Number(row["tax_micro"]),
    total_micro: Number(row["total_micro"]),
    issued_time: time("issued_at"),
    due_time: time("due_at"),
    paid_time: time("paid_at"),
  };
}

/** What an account's campaigns delivered in a month, one line per campaign, spend exact (not yet rounded). */
async function deliveredLines(db: D1Database, adAccountId: number, period: string): Promise<InvoiceLine[]> {
  const { first, last } = periodDays(period);
  const { results } = await db
    .prepare(
      `SELECT s.campaign_id, COALESCE(c.name, '#' || s.campaign_id) AS campaign_name, MIN(s.day) AS first_day, MAX(s.day) AS last_day,
         SUM(s.impressions) AS impressions, SUM(s.clicks) AS clicks, SUM(s.spend_micro) AS amount_micro
       FROM ad_spend_daily s LEFT JOIN campaigns c ON c.id = s.campaign_id
       WHERE s.ad_account_id = ?1 AND s.day BETWEEN ?2 AND ?3
       GROUP BY s.campaign_id ORDER BY campaign_name, s.campaign_id LIMIT ${LIMITS.lines}`,
    )
    .bind(adAccountId, first, last)
    .all<Record<string, unknown>>();
  return results.map((row) => ({
    campaign_id: String(row["campaign_id"]),
    campaign_name: String(row["campaign_name"]),
    first_day: String(row["first_day"]),
    last_day: String(row["last_day"]),
    impressions: Number(row["impressions"]),
    clicks: Number(row["clicks"]),
    amount_micro: Number(row["amount_micro"]),
  }));
}

interface Redemption {
  code: string;
  credit_micro: number;
  remaining_micro: number;
  applied_at: number;
}

async function redemptionsOf(db: D1Database, adAccountId: number): Promise<Redemption[]> {
  const { results } = await db
    .prepare("SELECT code, credit_micro, remaining_micro, applied_at FROM promotion_redemptions WHERE ad_account_id = ?1 ORDER BY applied_at, code LIMIT 50")
    .bind(adAccountId)
    .all<Redemption>();
  return results;
}

const addressLines = (address: { line1: string; line2: string; city: string; region: string; postal_code: string; country: string }) =>
  [address.line1, address.line2, [address.postal_code, address.city].filter(Boolean).join(" "), address.region, address.country].filter((line) => line !== "");

/** Whom an invoice is addressed to, from the business and billing information as they are now. */
async function billTo(db: D1Database, businessId: number, adAccountId: number): Promise<InvoiceDetail["bill_to"]> {
  const business = await readBusinessInformation(db, businessId);
  const profile = await billingProfile(db, adAccountId);
  const billing = profile?.billing_information ?? null;
  return {
    legal_name: business?.legal_name ?? "",
    address: billing ? addressLines(billing) : business ? addressLines(business) : [],
    tax_id: business?.tax_id ?? "",
    contact_name: billing?.contact_name ?? "",
    email: billing?.email ?? "",
  };
}

/** An open invoice's amounts as they stand: its lines to the cent, the credit it would use, the tax. */
async function accrued(db: D1Database, businessId: number, account: AccountRow, period: string): Promise<{ lines: InvoiceLine[]; totals: ReturnType<typeof invoiceTotals>; redemptions: Redemption[]; taxRateBp: number }> {
  const [lines, redemptions, business] = await Promise.all([deliveredLines(db, account.id, period), redemptionsOf(db, account.id), readBusinessInformation(db, businessId)]);
  const taxRateBp = taxRateFor(business?.country ?? account.country, business?.tax_id ?? "");
  const totals = invoiceTotals(
    lines.map((line) => line.amount_micro),
    redemptions.reduce((sum, redemption) => sum + redemption.remaining_micro, 0),
    taxRateBp,
  );
  return { lines: lines.map((line, index) => ({ ...line, amount_micro: totals.lines[index]! })), totals, redemptions, taxRateBp };
}

/** An account's invoices in one tab, newest month first; the current month's is opened when missing. */
export async function listInvoices(db: D1Database, userId: number, businessId: number, adAccountId: number, tab: InvoiceStatus, now = Date.now()): Promise<Invoice[]> {
  await requireAssetAction(db, businessId, userId, "billing.read", { type: "AD_ACCOUNT", id: adAccountId });
  const account = await accountOf(db, businessId, adAccountId);
  if (tab === "PROGRESS") await openMonth(db, businessId, account, periodOf(now), now).run();
  const { results } = await db
    .prepare(`SELECT ${INVOICE_COLUMNS} FROM invoices WHERE ad_account_id = ?1 AND business_id = ?2 AND status = ?3 ORDER BY period DESC LIMIT ${LIMITS.invoicesPage}`)
    .bind(adAccountId, businessId, tab)
    .all<Record<string, unknown>>();
  const invoices = results.map(invoiceOf);
  // Open invoices show what has accrued so far.
  return Promise.all(
    invoices.map(async (invoice) => {
      if (invoice.status !== "PROGRESS") return invoice;
      const { totals, taxRateBp } = await accrued(db, businessId, account, invoice.period);
      return { ...invoice, subtotal_micro: totals.subtotal, credit_micro: totals.credit, tax_rate_bp: taxRateBp, tax_micro: totals.tax, total_micro: totals.total };
    }),
  );
}

export async function getInvoice(db: D1Database, userId: number, businessId: number, adAccountId: number, invoiceId: number): Promise<InvoiceDetail> {
  await requireAssetAction(db, businessId, userId, "billing.read", { type: "AD_ACCOUNT", id: adAccountId });
  const account = await accountOf(db, businessId, adAccountId);
  const row = await db.prepare(`SELECT ${INVOICE_COLUMNS} FROM invoices WHERE id = ?1 AND ad_account_id = ?2 AND business_id = ?3`).bind(invoiceId, adAccountId, businessId).first<Record<string, unknown>>();
  if (!row) throw notFound("billing:api.invoiceNotFound");
  const invoice = invoiceOf(row);
  const ad_account = { id: String(account.id), name: account.name };
  if (invoice.status === "PROGRESS") {
    const { lines, totals, redemptions, taxRateBp } = await accrued(db, businessId, account, invoice.period);
    const credits = spendCredits(
      totals.credit,
      redemptions.map((redemption) => ({ code: redemption.code, remaining: redemption.remaining_micro })),
    ).map(({ code, amount }) => ({ code, amount_micro: amount }));
    return { ...invoice, subtotal_micro: totals.subtotal, credit_micro: totals.credit, tax_rate_bp: taxRateBp, tax_micro: totals.tax, total_micro: totals.total, lines, credits, bill_to: await billTo(db, businessId, adAccountId), ad_account };
  }
  const [lines, credits] = await db.batch<Record<string, unknown>>([
    db.prepare(`SELECT campaign_id, campaign_name, first_day, last_day, impressions, clicks, amount_micro FROM invoice_lines WHERE invoice_id = ?1 ORDER BY campaign_name, campaign_id LIMIT ${LIMITS.lines}`).bind(invoiceId),
    db.prepare("SELECT code, amount_micro FROM invoice_credits WHERE invoice_id = ?1 ORDER BY code").bind(invoiceId),
  ]);
  return {
    ...invoice,
    lines: lines!.results.map((line) => ({ ...(line as unknown as InvoiceLine), campaign_id: String(line["campaign_id"]) })),
    credits: credits!.results.map((credit) => ({ code: String(credit["code"]), amount_micro: Number(credit["amount_micro"]) })),
    bill_to: JSON.parse(String(row["bill_to"])) as InvoiceDetail["bill_to"],
    ad_account,
  };
}

// ---- Issuing: the closing run ----

interface OpenInvoice {
  id: number;
  ad_account_id: number;
  business_id: number;
  period: string;
  currency: string;
  name: string;
  country: string;
  owner_id: number;
}

/**
 * Issues one open invoice of an ended month, exactly once: the status moves from PROGRESS only
 * in the batch's first statement, and everything else in the batch (lines, credits, history)
 * follows only the run that moved it. A total of zero is settled at once; otherwise the
 * processor charges a VALID profile, and without one the invoice waits UNPAID.
 */
async function issueInvoice(db: D1Database, processor: PaymentProcessor, open: OpenInvoice, now: number): Promise<boolean> {
  const account: AccountRow = { id: open.ad_account_id, name: open.name, currency: open.currency, country: open.country };
  const { lines, totals, redemptions, taxRateBp } = await accrued(db, open.business_id, account, open.period);
  // A month without delivery bills nothing: its open invoice is dropped rather than issued at zero.
  if (lines.length === 0) {
    await db.prepare("DELETE FROM invoices WHERE id = ?1 AND status = 'PROGRESS'").bind(open.id).run();
    return false;
  }
  const credits = spendCredits(
    totals.credit,
    redemptions.map((redemption) => ({ code: redemption.code, remaining: redemption.remaining_micro })),
  );
  const to = await billTo(db, open.business_id, open.ad_account_id);
  const status: InvoiceStatus = totals.total === 0 ? "PAID" : "UNPAID";
  const issued = `EXISTS (SELECT 1 FROM invoices WHERE id = ${open.id} AND status != 'PROGRESS' AND issued_at = ${now})`;
  // The owner stands for the business in its history: the run acts on the account holder's behalf.
  const [update] = await db.batch([
    db
      .prepare(
        `UPDATE invoices SET status = ?2, seq = (SELECT COALESCE(MAX(seq), 0) + 1 FROM invoices), subtotal_micro = ?3, credit_micro = ?4, tax_rate_bp = ?5, tax_micro = ?6,
           total_micro = ?7, bill_to = ?8, issued_at = ?9, due_at = ?10, paid_at = ?11 WHERE id = ?1 AND status = 'PROGRESS'`,
      )
      .bind(open.id, status, totals.subtotal, totals.credit, taxRateBp, totals.tax, totals.total, JSON.stringify(to), now, now + PAYMENT_TERM_MS, status === "PAID" ? now : null),
    db
      .prepare(
        `INSERT INTO invoice_lines (invoice_id, campaign_id, campaign_name, first_day, last_day, impressions, clicks, amount_micro)
         SELECT ?1, json_extract(value, '$.campaign_id'), json_extract(value, '$.campaign_name'), json_extract(value, '$.first_day'), json_extract(value, '$.last_day'),
           json_extract(value, '$.impressions'), json_extract(value, '$.clicks'), json_extract(value, '$.amount_micro') FROM json_each(?2) WHERE ${issued}`,
      )
      .bind(open.id, JSON.stringify(lines.map((line) => ({ ...line, campaign_id: Number(line.campaign_id) })))),
    db
      .prepare(`INSERT INTO invoice_credits (invoice_id, code, amount_micro) SELECT ?1, json_extract(value, '$.code'), json_extract(value, '$.amount') FROM json_each(?2) WHERE ${issued}`)
      .bind(open.id, JSON.stringify(credits)),
    // The CHECK on remaining_micro refuses the whole batch if another run spent the credit first.
    db
      .prepare(
        `UPDATE promotion_redemptions SET remaining_micro = remaining_micro - (SELECT json_extract(value, '$.amount') FROM json_each(?2) WHERE json_extract(value, '$.code') = promotion_redemptions.code)
         WHERE ad_account_id = ?1 AND code IN (SELECT json_extract(value, '$.code') FROM json_each(?2)) AND ${issued}`,
      )
      .bind(open.ad_account_id, JSON.stringify(credits)),
    billingRow(db, open.business_id, null, open.ad_account_id, "INVOICE_ISSUED", { invoice_id: String(open.id), period: open.period, total_micro: totals.total, currency: open.currency }, now, issued),
    historyRow(db, open.business_id, open.owner_id, "INVOICE_ISSUED", "INVOICE", open.id, { name: open.period, by: "PINLOOM" }, now, issued),
  ]);
  if (update!.meta.changes !== 1) return false;
  if (status === "UNPAID") await chargeIfValid(db, processor, open.business_id, open.ad_account_id, open.id, null, open.owner_id, now);
  return true;
}

/** Charges an UNPAID invoice through the processor when the account's profile is VALID; true when it is now PAID. */
async function chargeIfValid(db: D1Database, processor: PaymentProcessor, businessId: number, adAccountId: number, invoiceId: number, actorId: number | null, historyActor: number, now: number): Promise<boolean> {
  const row = await db
    .prepare("SELECT i.total_micro, i.currency, p.status FROM invoices i LEFT JOIN billing_profiles p ON p.ad_account_id = i.ad_account_id WHERE i.id = ?1 AND i.status = 'UNPAID'")
    .bind(invoiceId)
    .first<{ total_micro: number; currency: string; status: string | null }>();
  if (!row || row.status !== "VALID") return false;
  const charge = await processor.charge({ id: invoiceId, totalMicro: row.total_micro, currency: row.currency });
  if (charge.status !== "succeeded") return false;
  const [update] = await db.batch([
    db.prepare("UPDATE invoices SET status = 'PAID', paid_at = ?2, payment_reference = ?3 WHERE id = ?1 AND status = 'UNPAID'").bind(invoiceId, now, charge.reference),
    billingRow(db, businessId, actorId, adAccountId, "INVOICE_PAID", { invoice_id: String(invoiceId), reference: charge.reference }, now, "changes() = 1"),
    historyRow(db, businessId, historyActor, "INVOICE_PAID", "INVOICE", invoiceId, { reference: charge.reference }, now, `EXISTS (SELECT 1 FROM invoices WHERE id = ${invoiceId} AND paid_at = ${now})`),
  ]);
  return update!.meta.changes === 1;
}

/**
 * The closing run (the Worker's scheduled handler, every 30 minutes; the seed and tests call it
 * too): opens an invoice for every month an account spent in, then issues every open invoice of
 * a month that has ended (a closed account's last month too). Safe to run any number of times:
 * an invoice is issued once.
 */
export async function closeBillingMonths(db: D1Database, processor: PaymentProcessor, now = Date.now()): Promise<{ issued: number }> {
  const current = periodOf(now);
  await db
    .prepare(
      `INSERT INTO invoices (id, ad_account_id, business_id, period, status, currency, created_at)
       SELECT (abs(random()) % 4503599627370496) + 4503599627370496, s.ad_account_id, a.business_id, substr(s.day, 1, 7), 'PROGRESS', a.currency, ?1
       FROM ad_spend_daily s JOIN ad_accounts a ON a.id = s.ad_account_id
       WHERE NOT EXISTS (SELECT 1 FROM invoices i WHERE i.ad_account_id = s.ad_account_id AND i.period = substr(s.day, 1, 7))
       GROUP BY s.ad_account_id, substr(s.day, 1, 7)
       ON CONFLICT (ad_account_id, period) DO NOTHING`,
    )
    .bind(now)
    .run();
  const { results } = await db
    .prepare(
      `SELECT i.id, i.ad_account_id, i.business_id, i.period, i.currency, COALESCE(a.name, '#' || i.ad_account_id) AS name, COALESCE(a.country, b.country) AS country, b.owner_id
       FROM invoices i LEFT JOIN ad_accounts a ON a.id = i.ad_account_id JOIN businesses b ON b.id = i.business_id
       WHERE i.status = 'PROGRESS' AND i.period < ?1 ORDER BY i.period, i.id LIMIT ${LIMITS.closingBatch}`,
    )
    .bind(current)
    .all<OpenInvoice>();
  let issued = 0;
  for (const open of results) if (await issueInvoice(db, processor, open, now)) issued++;
  return { issued };
}

/** Paying an UNPAID invoice now (after the billing information was fixed): the processor charges the VALID profile. */
export async function payInvoice(db: D1Database, processor: PaymentProcessor, userId: number, businessId: number, adAccountId: number, invoiceId: number, now = Date.now()): Promise<Invoice> {
  await requireAssetAction(db, businessId, userId, "billing.update", { type: "AD_ACCOUNT", id: adAccountId });
  const invoice = await getInvoice(db, userId, businessId, adAccountId, invoiceId);
  if (invoice.status !== "UNPAID") throw conflict("billing:api.notUnpaid");
  const profile = await billingProfile(db, adAccountId);
  if (profile?.status !== "VALID") throw conflict("billing:api.noValidProfile");
  if (!(await chargeIfValid(db, processor, businessId, adAccountId, invoiceId, userId, userId, now))) throw conflict("billing:api.chargeFailed");
  return getInvoice(db, userId, businessId, adAccountId, invoiceId);
}

// ---- Promotions ----

interface Promotion {
  code: string;
  credit_micro: number;
  remaining_micro: number;
  applied_time: number;
}

export async function listPromotions(db: D1Database, userId: number, businessId: number, adAccountId: number): Promise<Promotion[]> {
  await requireAssetAction(db, businessId, userId, "billing.read", { type: "AD_ACCOUNT", id: adAccountId });
  await accountOf(db, businessId, adAccountId);
  return (await redemptionsOf(db, adAccountId)).map((row) => ({ code: row.code, credit_micro: row.credit_micro, remaining_micro: row.remaining_micro, applied_time: seconds(row.applied_at) }));
}

/** A promotion code applied to an ad account: once per account, unexpired, in the account's currency. */
export async function applyPromotion(db: D1Database, userId: number, businessId: number, adAccountId: number, code: string, now = Date.now()): Promise<Promotion> {
  await requireAssetAction(db, businessId, userId, "billing.update", { type: "AD_ACCOUNT", id: adAccountId });
  const account = await accountOf(db, businessId, adAccountId);
  const promotion = await db.prepare("SELECT code, currency, credit_micro, expires_at FROM promotion_codes WHERE code = ?1").bind(code).first<{ code: string; currency: string; credit_micro: number; expires_at: number }>();
  if (!promotion) throw badRequest([{ field: "code", reason: "billing:validation.unknownCode" }]);
  if (promotion.expires_at <= now) throw badRequest([{ field: "code", reason: "billing:validation.expiredCode" }]);
  if (promotion.currency !== account.currency) throw badRequest([{ field: "code", reason: "billing:validation.codeCurrency", values: { currency: promotion.currency } }]);
  const alreadyApplied = () => badRequest([{ field: "code", reason: "billing:validation.codeApplied" }]);
  if ((await db.prepare("SELECT 1 FROM promotion_redemptions WHERE ad_account_id = ?1 AND code = ?2").bind(adAccountId, code).first()) !== null) throw alreadyApplied();
  let insert: D1Result | undefined;
  try {
    [insert] = await db.batch([
      db
        .prepare(
          `INSERT INTO promotion_redemptions (ad_account_id, code, business_id, credit_micro, remaining_micro, applied_by, applied_at)
           SELECT ?3, ?4, ?1, ?5, ?5, ?2, ?6 WHERE ${actorMayOn("billing.update", "AD_ACCOUNT", "?3")} AND EXISTS (SELECT 1 FROM ad_accounts WHERE id = ?3 AND business_id = ?1)`,
        )
        .bind(businessId, userId, adAccountId, code, promotion.credit_micro, now),
      billingRow(db, businessId, userId, adAccountId, "PROMOTION_APPLIED", { code, credit_micro: promotion.credit_micro, currency: promotion.currency }, now, "changes() = 1"),
      historyRow(db, businessId, userId, "PROMOTION_APPLIED", "AD_ACCOUNT", adAccountId, { name: code }, now, `EXISTS (SELECT 1 FROM promotion_redemptions WHERE ad_account_id = ${adAccountId} AND applied_at = ${now} AND applied_by = ?2)`),
    ]);
  } catch (error) {
    // Applied twice at once: the key refuses the second whole batch.
    if (error instanceof Error && /UNIQUE constraint failed|PRIMARY KEY/.test(error.message)) throw alreadyApplied();
    throw error;
  }
  if (insert!.meta.changes !== 1) await refuse(db, businessId, userId, adAccountId);
  return { code, credit_micro: promotion.credit_micro, remaining_micro: promotion.credit_micro, applied_time: seconds(now) };
}

// ---- Prepaid campaign spend, tax documents, billing history ----

interface CampaignSpend {
  campaign_id: string;
  name: string;
  status: string;
  /** The budget paid for: the daily budget over the campaign's days (so far, while it is ongoing). */
  budget_micro: number;
  spent_micro: number;
  remaining_micro: number;
}

const DAY_MS = 86_400_000;

/** Each campaign of the account: its prepaid budget against what it has spent. */
export async function prepaidSpend(db: D1Database, userId: number, businessId: number, adAccountId: number, now = Date.now()): Promise<CampaignSpend[]> {
  await requireAssetAction(db, businessId, userId, "billing.spend_read", { type: "AD_ACCOUNT", id: adAccountId });
  await accountOf(db, businessId, adAccountId);
  const { results } = await db
    .prepare(
      `SELECT c.id, c.name, c.status, c.daily_budget_micro, c.start_at, c.end_at, COALESCE((SELECT SUM(spend_micro) FROM ad_spend_daily WHERE campaign_id = c.id), 0) AS spent
       FROM campaigns c WHERE c.ad_account_id = ?1 AND c.business_id = ?2 ORDER BY c.created_at DESC, c.id LIMIT ${LIMITS.campaigns}`,
    )
    .bind(adAccountId, businessId)
    .all<{ id: number; name: string; status: string; daily_budget_micro: number; start_at: number; end_at: number | null; spent: number }>();
  return results.map((row) => {
    const until = Math.min(row.end_at ?? now, now);
    const days = Math.max(0, Math.ceil((until - row.start_at) / DAY_MS));
    const budget = row.daily_budget_micro * days;
    return { campaign_id: String(row.id), name: row.name, status: row.status, budget_micro: budget, spent_micro: row.spent, remaining_micro: Math.max(0, budget - row.spent) };
  });
}

interface TaxYear {
  year: string;
  currency: string;
  invoices: number;
  taxable_micro: number;
  tax_micro: number;
  total_micro: number;
}

/** The tax summary: issued invoices' taxable amounts and tax, by year and currency. */
export async function taxDocuments(db: D1Database, userId: number, businessId: number): Promise<TaxYear[]> {
  await requireAction(db, businessId, userId, "billing.read");
  const { results } = await db
    .prepare(
      `SELECT substr(period, 1, 4) AS year, currency, COUNT(*) AS invoices, SUM(subtotal_micro - credit_micro) AS taxable_micro, SUM(tax_micro) AS tax_micro, SUM(total_micro) AS total_micro
       FROM invoices WHERE business_id = ?1 AND status != 'PROGRESS' GROUP BY year, currency ORDER BY year DESC, currency LIMIT 50`,
    )
    .bind(businessId)
    .all<TaxYear>();
  return results;
}

interface BillingHistoryEntry {
  id: string;
  action: string;
  ad_account_id: string | null;
  actor: { id: string; username: string; full_name: string } | null;
  detail: Record<string, unknown>;
  created_time: number;
}

/** The latest billing changes, newest first; a null actor is Pinloom's own monthly run. */
export async function billingHistory(db: D1Database, userId: number, businessId: number): Promise<BillingHistoryEntry[]> {
  await requireAction(db, businessId, userId, "billing.read");
  const { results } = await db
    .prepare(
      `SELECT h.id, h.action, h.ad_account_id, h.detail, h.created_at, u.id AS actor_id, u.username, u.full_name
       FROM billing_history h LEFT JOIN users u ON u.id = h.actor_id WHERE h.business_id = ?1 ORDER BY h.created_at DESC, h.id DESC LIMIT ${LIMITS.history}`,
    )
    .bind(businessId)
    .all<Record<string, unknown>>();
  return results.map((row) => ({
    id: String(row["id"]),
    action: String(row["action"]),
    ad_account_id: row["ad_account_id"] === null ? null : String(row["ad_account_id"]),
    actor: row["actor_id"] === null ? null : { id: String(row["actor_id"]), username: String(row["username"]), full_name: String(row["full_name"] ?? "") },
    detail: JSON.parse(String(row["detail"])) as Record<string, unknown>,
    created_time: seconds(Number(row["created_at"])),
  }));
}

/** Issued documents: the business's issued invoices, newest first (each has its PDF). */
export async function issuedInvoices(db: D1Database, userId: number, businessId: number): Promise<Invoice[]> {
  await requireAction(db, businessId, userId, "billing.read");
  const { results } = await db
    .prepare(`SELECT ${INVOICE_COLUMNS} FROM invoices WHERE business_id = ?1 AND status != 'PROGRESS' ORDER BY issued_at DESC, id DESC LIMIT ${LIMITS.history}`)
    .bind(businessId)
    .all<Record<string, unknown>>();
  return results.map(invoiceOf);
}
