// Billing's rules shared by the server and the hub's pages (spec 002 §2 "Billing sections", §3
// "Billing forms", §9 "Invoice tab default PROGRESS"): the two forms and their checks, the
// invoice tabs, periods and numbers, and the money arithmetic. Money is integer micro-units of
// the ad account's currency; invoices are rounded to cents line by line, so the lines always add
// up to the subtotal printed beneath them.
import { z } from "zod";
import type { Locale } from "~/context/locales.ts";
import { countrySchema, type BusinessCountry } from "./countries.ts";

// ---- Invoice tabs and statuses ----

/** PROGRESS: the current month, accruing. UNPAID: issued, not yet paid. PAID: settled. */
const INVOICE_STATUSES = ["PROGRESS", "UNPAID", "PAID"] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
/** The invoice list's tabs, one per status, PROGRESS first and by default. */
export const INVOICE_TABS = INVOICE_STATUSES;
const DEFAULT_INVOICE_TAB: InvoiceStatus = "PROGRESS";

/** The tab a query names, or the default for anything else. */
export function invoiceTab(value: string | null | undefined): InvoiceStatus {
  return (INVOICE_TABS as readonly string[]).includes(value ?? "") ? (value as InvoiceStatus) : DEFAULT_INVOICE_TAB;
}

// ---- The forms' state (spec 002 §3 "Billing forms") ----

interface BillingFormsState {
  businessInformationForm: BusinessInformation | null;
  billingInformationForm: BillingInformation | null;
  /** Whether the billing form takes its address from the business information: on unless the person turns it off. */
  autoFillQPBillingChecked: boolean;
}

export function initialBillingForms(): BillingFormsState {
  return { businessInformationForm: null, billingInformationForm: null, autoFillQPBillingChecked: true };
}

// ---- Tax ids ----

/**
 * The shape of a tax id where it is simple to state: EU VAT numbers (country prefix and digits),
 * GB VAT, the Swiss UID, US EIN, Canadian BN, Australian ABN, NZ GST. Elsewhere 4 to 20 letters,
 * digits and separators. Checked on the id written without spaces, dots or dashes, uppercase.
 */
const TAX_ID_FORMATS: Partial<Record<BusinessCountry, RegExp>> = {
  AT: /^ATU\d{8}$/,
  BE: /^BE[01]\d{9}$/,
  CY: /^CY\d{8}[A-Z]$/,
  CZ: /^CZ\d{8,10}$/,
  DE: /^DE\d{9}$/,
  DK: /^DK\d{8}$/,
  ES: /^ES[A-Z0-9]\d{7}[A-Z0-9]$/,
  FI: /^FI\d{8}$/,
  FR: /^FR[A-HJ-NP-Z0-9]{2}\d{9}$/,
  GR: /^EL\d{9}$/,
  HU: /^HU\d{8}$/,
  IE: /^IE\d[A-Z0-9+*]\d{5}[A-Z]{1,2}$/,
  IT: /^IT\d{11}$/,
  LU: /^LU\d{8}$/,
  MT: /^MT\d{8}$/,
  NL: /^NL\d{9}B\d{2}$/,
  PL: /^PL\d{10}$/,
  PT: /^PT\d{9}$/,
  RO: /^RO\d{2,10}$/,
  SE: /^SE\d{10}01$/,
  SK: /^SK\d{10}$/,
  GB: /^GB(\d{9}|\d{12})$/,
  CH: /^CHE\d{9}(MWST|TVA|IVA)?$/,
  US: /^\d{9}$/,
  CA: /^\d{9}(RT\d{4})?$/,
  AU: /^\d{11}$/,
  NZ: /^\d{8,9}$/,
};
const OTHER_TAX_ID = /^[A-Z0-9]{4,20}$/;

const normalizeTaxId = (value: string) => value.toUpperCase().replace(/[\s.\-/]/g, "");

export function taxIdValid(country: string, taxId: string): boolean {
  const format = TAX_ID_FORMATS[country as BusinessCountry] ?? OTHER_TAX_ID;
  return format.test(normalizeTaxId(taxId));
}

// ---- The forms ----

const text = (max: number) => z.string().trim().min(1).max(max);
const optionalText = (max: number) => z.string().trim().max(max).default("");

const addressFields = {
  line1: text(100),
  line2: optionalText(100),
  city: text(60),
  region: optionalText(60),
  postal_code: z.string().trim().min(2).max(12).regex(/^[A-Za-z0-9][A-Za-z0-9 -]*$/),
  country: countrySchema,
};

export const businessInformationSchema = z
  .strictObject({ legal_name: text(100), ...addressFields, tax_id: optionalText(30) })
  .superRefine((form, ctx) => {
    if (form.tax_id !== "" && !taxIdValid(form.country, form.tax_id)) ctx.addIssue({ code: "custom", path: ["tax_id"], message: "billing:validation.taxId", params: { values: { country: form.country } } });
  })
  .transform((form) => ({ ...form, tax_id: form.tax_id === "" ? "" : normalizeTaxId(form.tax_id) }));
export type BusinessInformation = z.output<typeof businessInformationSchema>;

/** Form bodies carry a checkbox as text; JSON as a boolean. */
const flag = z.preprocess((value) => (value === "true" || value === "on" ? true : value === "false" || value === "off" ? false : value), z.boolean());

/**
 * The billing information of one ad account: who receives the invoices, and where. With
 * `autofill` (on by default) the address is the business information's; without it the
 * form's own address is required.
 */
export const billingInformationSchema = z
  .strictObject({
    contact_name: text(100),
    email: z.string().trim().max(254).pipe(z.email()),
    autofill: flag.default(true),
    line1: z.string().trim().max(100).optional(),
    line2: z.string().trim().max(100).optional(),
    city: z.string().trim().max(60).optional(),
    region: z.string().trim().max(60).optional(),
    postal_code: z.string().trim().max(12).optional(),
    country: z.string().trim().max(2).optional(),
  })
  .superRefine((form, ctx) => {
    if (form.autofill) return;
    const address = z.strictObject(addressFields).safeParse({ line1: form.line1 ?? "", line2: form.line2 ?? "", city: form.city ?? "", region: form.region ?? "", postal_code: form.postal_code ?? "", country: form.country ?? "" });
    if (address.success) return;
    // One problem per field, however many of its checks failed.
    const fields = new Set(address.error.issues.map((issue) => String(issue.path[0])));
    for (const field of fields) ctx.addIssue({ code: "custom", path: [field], message: "billing:validation.addressField" });
  });
export type BillingInformationInput = z.output<typeof billingInformationSchema>;

interface Address {
  line1: string;
  line2: string;
  city: string;
  region: string;
  postal_code: string;
  country: string;
}

/** The billing information as stored on the profile: the address resolved (autofilled or its own). */
export interface BillingInformation extends Address {
  contact_name: string;
  email: string;
  autofill: boolean;
}

/** The stored billing information: with autofill, the business address is copied in as it is now. */
export function resolveBillingInformation(input: BillingInformationInput, business: Address): BillingInformation {
  const own: Address = input.autofill
    ? { line1: business.line1, line2: business.line2, city: business.city, region: business.region, postal_code: business.postal_code, country: business.country }
    : { line1: input.line1!, line2: input.line2 ?? "", city: input.city!, region: input.region ?? "", postal_code: input.postal_code!, country: input.country! };
  return { contact_name: input.contact_name, email: input.email, autofill: input.autofill, ...own };
}

export const promotionCodeSchema = z.strictObject({ code: z.string().trim().min(3).max(40).regex(/^[A-Za-z0-9-]+$/).transform((code) => code.toUpperCase()) });

// ---- Periods and numbers ----

/** The UTC month of a time, YYYY-MM. */
export const periodOf = (ms: number) => new Date(ms).toISOString().slice(0, 7);

/** A month's first and last days, YYYY-MM-DD. */
export function periodDays(period: string): { first: string; last: string } {
  const [year, month] = period.split("-").map(Number) as [number, number];
  const last = new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10);
  return { first: `${period}-01`, last };
}

/** An issued invoice's number: PL-, the month without its dash, and the sequence in six digits. */
export const invoiceNumber = (period: string, seq: number) => `PL-${period.replace("-", "")}-${String(seq).padStart(6, "0")}`;

/** The PDF's file name: the invoice number, or the open month's statement. */
export const invoicePdfFile = (invoice: { number: string | null; period: string }) => (invoice.number === null ? `pinloom-statement-${invoice.period}.pdf` : `${invoice.number}.pdf`);

/** The PDF's language: French for French readers, else English (its standard fonts draw Latin script only). */
export const pdfLocaleFor = (locale: Locale): Locale => (locale === "fr" || locale.startsWith("fr_") ? "fr" : "en_US");

/** Issued invoices are due 15 days later (a test charge settles them at once). */
export const PAYMENT_TERM_MS = 15 * 86_400_000;

// ---- Money ----

/** Every billing currency (USD, EUR, GBP, …) has two decimals: a cent is 10,000 micro-units. */
const MICRO_PER_CENT = 10_000;

/** To the nearest cent, halves away from zero (amounts are never negative here). */
export function roundToCent(micro: number): number {
  return Math.floor((micro + MICRO_PER_CENT / 2) / MICRO_PER_CENT) * MICRO_PER_CENT;
}

/** Micro-units as a number of currency units, for Intl (exact: cent-rounded amounts are whole cents). */
export const microToUnits = (micro: number) => Math.round(micro / MICRO_PER_CENT) / 100;

/**
 * Standard VAT/GST rates in basis points by country. A business that gives its tax id is
 * invoiced without tax (reverse charge: it accounts for the tax itself); the US and the rest
 * are invoiced without tax, as advertising is not taxed there at the federal level.
 */
const TAX_RATES_BP: Partial<Record<BusinessCountry, number>> = {
  AT: 2000, BE: 2100, CY: 1900, CZ: 2100, DE: 1900, DK: 2500, ES: 2100, FI: 2550, FR: 2000, GR: 2400, HU: 2700, IE: 2300, IT: 2200, LU: 1700, MT: 1800, NL: 2100, PL: 2300, PT: 2300, RO: 2100, SE: 2500, SK: 2300,
  GB: 2000, CH: 810, NO: 2500, AU: 1000, NZ: 1500, JP: 1000, SG: 900,
};

export function taxRateFor(country: string, taxId: string): number {
  if (taxId !== "") return 0;
  return TAX_RATES_BP[country as BusinessCountry] ?? 0;
}

interface InvoiceTotals {
  /** Each line to the cent. */
  lines: number[];
  subtotal: number;
  /** The credit used: at most the subtotal and at most what is available. */
  credit: number;
  taxable: number;
  tax: number;
  total: number;
}

/** An invoice's totals from its lines' exact spend, the credit available and the tax rate. */
export function invoiceTotals(lineSpendMicro: readonly number[], creditAvailableMicro: number, taxRateBp: number): InvoiceTotals {
  const lines = lineSpendMicro.map(roundToCent);
  const subtotal = lines.reduce((sum, amount) => sum + amount, 0);
  // Credits are whole cents too, so what is left to pay stays in cents.
  const credit = Math.min(subtotal, Math.floor(Math.max(0, creditAvailableMicro) / MICRO_PER_CENT) * MICRO_PER_CENT);
  const taxable = subtotal - credit;
  const tax = roundToCent((taxable * taxRateBp) / 10_000);
  return { lines, subtotal, credit, taxable, tax, total: taxable + tax };
}

/** How an invoice's credit is taken from the account's codes: oldest first, each at most what it has left. */
export function spendCredits(credit: number, codes: ReadonlyArray<{ code: string; remaining: number }>): Array<{ code: string; amount: number }> {
  const used: Array<{ code: string; amount: number }> = [];
  let left = credit;
  for (const { code, remaining } of codes) {
    if (left <= 0) break;
    const amount = Math.min(left, remaining);
    if (amount > 0) used.push({ code, amount });
    left -= amount;
  }
  return used;
}
