import { describe, expect, it } from "vitest";
import {
  billingInformationSchema,
  businessInformationSchema,
  initialBillingForms,
  invoiceNumber,
  invoiceTab,
  invoiceTotals,
  microToUnits,
  pdfLocaleFor,
  periodDays,
  periodOf,
  roundToCent,
  spendCredits,
  taxIdValid,
  taxRateFor,
} from "./billing.ts";

describe("billing forms' state", () => {
  it("starts with autofill on and no forms", () => {
    expect(initialBillingForms()).toEqual({ businessInformationForm: null, billingInformationForm: null, autoFillQPBillingChecked: true });
  });

  it("autofills the billing address unless told not to", () => {
    expect(billingInformationSchema.parse({ contact_name: "Camille Durand", email: "billing@bloom.example" }).autofill).toBe(true);
    expect(billingInformationSchema.parse({ contact_name: "Camille Durand", email: "billing@bloom.example", autofill: "off", line1: "1 rue de la Paix", city: "Paris", postal_code: "75002", country: "FR" }).autofill).toBe(false);
  });

  it("needs an own address when autofill is off, naming each missing field", () => {
    const parsed = billingInformationSchema.safeParse({ contact_name: "Camille", email: "billing@bloom.example", autofill: false, line1: "1 rue de la Paix", country: "FR" });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["city", "billing:validation.addressField"],
      ["postal_code", "billing:validation.addressField"],
    ]);
  });

  it("checks a tax id's format for the business's country and keeps it without spaces", () => {
    const base = { legal_name: "Bake & Bloom SAS", line1: "1 rue de la Paix", city: "Paris", postal_code: "75002", country: "FR" };
    expect(businessInformationSchema.parse({ ...base, tax_id: "fr 40 303 265 045" }).tax_id).toBe("FR40303265045");
    expect(businessInformationSchema.parse(base).tax_id).toBe("");
    const refused = businessInformationSchema.safeParse({ ...base, tax_id: "DE123456789" });
    expect(refused.error!.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([["tax_id", "billing:validation.taxId"]]);
  });
});

describe("tax ids", () => {
  it("knows the simple national formats", () => {
    expect([taxIdValid("DE", "DE123456789"), taxIdValid("DE", "DE12345678"), taxIdValid("GB", "GB 123 4567 89"), taxIdValid("US", "12-3456789"), taxIdValid("NL", "NL123456789B01"), taxIdValid("AT", "ATU12345678")]).toEqual([true, false, true, true, true, true]);
  });

  it("accepts 4 to 20 letters and digits where the format is not simple", () => {
    expect([taxIdValid("BR", "12.345.678/0001-95"), taxIdValid("BR", "12"), taxIdValid("JP", "T1234567890123")]).toEqual([true, false, true]);
  });

  it("charges the standard rate without a tax id, and none (reverse charge) with one", () => {
    expect([taxRateFor("FR", ""), taxRateFor("FR", "FR40303265045"), taxRateFor("DE", ""), taxRateFor("US", ""), taxRateFor("CH", "")]).toEqual([2000, 0, 1900, 0, 810]);
  });
});

describe("invoice tabs, periods and numbers", () => {
  it("defaults to the PROGRESS tab", () => {
    expect([invoiceTab(null), invoiceTab(""), invoiceTab("paid"), invoiceTab("UNPAID"), invoiceTab("PAID")]).toEqual(["PROGRESS", "PROGRESS", "PROGRESS", "UNPAID", "PAID"]);
  });

  it("bills UTC months, their first and last days", () => {
    expect(periodOf(Date.UTC(2026, 10, 30, 23, 59, 59))).toBe("2026-11");
    expect(periodOf(Date.UTC(2026, 11, 1, 0, 0, 0))).toBe("2026-12");
    expect(periodDays("2026-02")).toEqual({ first: "2026-02-01", last: "2026-02-28" });
    expect(periodDays("2028-02")).toEqual({ first: "2028-02-01", last: "2028-02-29" });
    expect(periodDays("2026-12")).toEqual({ first: "2026-12-01", last: "2026-12-31" });
  });

  it("numbers invoices by month and sequence", () => {
    expect(invoiceNumber("2026-11", 42)).toBe("PL-202611-000042");
  });

  it("writes PDFs in French for French readers and in English for everyone else", () => {
    expect([pdfLocaleFor("fr"), pdfLocaleFor("ar_SA"), pdfLocaleFor("en_US"), pdfLocaleFor("de")]).toEqual(["fr", "en_US", "en_US", "en_US"]);
  });
});

describe("money in micro-units", () => {
  it("rounds to the cent, halves up", () => {
    expect([roundToCent(1_234_567), roundToCent(1_235_000), roundToCent(4_999), roundToCent(5_000), roundToCent(0)]).toEqual([1_230_000, 1_240_000, 0, 10_000, 0]);
    expect(microToUnits(12_350_000)).toBe(12.35);
  });

  it("totals an invoice: lines to the cent, credit, then tax on what is left", () => {
    // 12.345678 → 12.35 and 7.654321 → 7.65: subtotal 20.00; credit 5.00; taxable 15.00; 20 % tax 3.00; total 18.00.
    expect(invoiceTotals([12_345_678, 7_654_321], 5_000_000, 2000)).toEqual({ lines: [12_350_000, 7_650_000], subtotal: 20_000_000, credit: 5_000_000, taxable: 15_000_000, tax: 3_000_000, total: 18_000_000 });
    // 10.01 at 19 %: 1.9019 → 1.90; total 11.91.
    expect(invoiceTotals([10_010_000], 0, 1900)).toMatchObject({ tax: 1_900_000, total: 11_910_000 });
  });

  it("never uses more credit than the subtotal, nor a fraction of a cent", () => {
    expect(invoiceTotals([3_000_000], 50_000_000, 2000)).toEqual({ lines: [3_000_000], subtotal: 3_000_000, credit: 3_000_000, taxable: 0, tax: 0, total: 0 });
    expect(invoiceTotals([3_000_000], 1_005_000, 0)).toMatchObject({ credit: 1_000_000, total: 2_000_000 });
    expect(invoiceTotals([], 10_000_000, 2000)).toEqual({ lines: [], subtotal: 0, credit: 0, taxable: 0, tax: 0, total: 0 });
  });

  it("takes credit from the oldest code first", () => {
    expect(spendCredits(7_000_000, [{ code: "A", remaining: 5_000_000 }, { code: "B", remaining: 5_000_000 }, { code: "C", remaining: 5_000_000 }])).toEqual([{ code: "A", amount: 5_000_000 }, { code: "B", amount: 2_000_000 }]);
    expect(spendCredits(0, [{ code: "A", remaining: 5_000_000 }])).toEqual([]);
  });
});
