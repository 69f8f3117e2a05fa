// Billing in a real browser: a new business's owner fills the business information and the
// ad account's billing information (the address autofilled, as it is by default), the account
// becomes valid for billing, the open invoice is in the PROGRESS tab shown first, and its PDF
// downloads. axe finds nothing, and the page fits a 390 px phone.
import { readFile } from "node:fs/promises";
import { expect, test, type Page } from "@playwright/test";
import { expectNoViolations } from "./axe.ts";
import { localeText, projectOf } from "./strings.ts";
import { signUpBusiness } from "./business-signup.ts";

const text = localeText({ auth: "auth", shell: "shell", billing: "billing" });

/** Onboarding's call from inside the page (the stepper itself is the business hub journey's). */
async function onboard(page: Page, name: string): Promise<string> {
  const answer = await page.evaluate(async (businessName) => {
    const csrf = /(?:^|;\s*)csrftoken=([^;]+)/.exec(document.cookie)?.[1] ?? "";
    const response = await fetch("/v3/businesses/", {
      method: "POST",
      credentials: "same-origin",
      headers: { "content-type": "application/json", "x-csrftoken": csrf },
      body: JSON.stringify({ businessGoals: ["INCREASE_SALES"], businessName, businessVertical: "FOOD_AND_DRINK", numberEmployees: "2_10", hasWebsite: false, country: "FR", locale: "fr", advertisingIntent: "NOW", worksWithAgency: false, firstName: "Inès", lastName: "Moreau", email: "ines@e2e.pinloom.test", ageConfirmed: true }),
    });
    return { status: response.status, body: (await response.json()) as { data: { business: { id: string } } } };
  }, name);
  expect(answer.status).toBe(200);
  return answer.body.data.business.id;
}

test("the owner fills the billing forms, the ad account becomes valid for billing, and the open invoice's PDF downloads", async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const project = projectOf(testInfo.project.name);
  const t = (path: string, values?: Record<string, string>) => text(project, `billing.${path}`, values);
  const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
  const name = `Lune ${stamp}`.slice(0, 30);
  await signUpBusiness(page, project, name, `e2e_bill_${project}_${stamp}`.slice(0, 30));
  const businessId = await onboard(page, name);

  await page.goto(`/business/hub/${businessId}/billing/`);
  await expect(page.getByRole("heading", { level: 1, name: t("page.title") })).toBeVisible();
  await expect(page.locator("[data-billing-status]")).toHaveAttribute("data-billing-status", "NONE");
  await expectNoViolations(page, "the billing page before any form");

  // The business information.
  const business = page.getByRole("form", { name: t("page.businessInformation") });
  await business.getByLabel(t("page.fields.legal_name")).fill(`${name} SARL`);
  await business.getByLabel(t("page.fields.line1"), { exact: true }).fill("12 rue des Lilas");
  await business.getByLabel(t("page.fields.city")).fill("Lyon");
  await business.getByLabel(t("page.fields.postal_code")).fill("69003");
  // A tax id in the wrong format is refused under its field, and nothing is saved.
  await business.getByLabel(t("page.fields.tax_id")).fill("DE123");
  await business.getByRole("button", { name: t("page.saveBusiness") }).click();
  await expect(business.locator('[data-error-for="tax_id"]')).toBeVisible();
  await business.getByLabel(t("page.fields.tax_id")).fill("");
  // A saved form reloads the page.
  const reloaded = page.waitForEvent("load");
  await business.getByRole("button", { name: t("page.saveBusiness") }).click();
  await reloaded;
  await expect(page.getByRole("form", { name: t("page.businessInformation") }).getByLabel(t("page.fields.city"))).toHaveValue("Lyon");

  // The billing information: autofill is on by default, so contact and e-mail are enough.
  const billing = page.getByRole("form", { name: new RegExp(`^${t("page.billingInformation")}`) });
  await expect(billing.getByLabel(t("page.fields.autofill"))).toBeChecked();
  await billing.getByLabel(t("page.fields.contact_name")).fill("Inès Moreau");
  await billing.getByLabel(t("page.fields.email")).fill("factures@e2e.pinloom.test");
  await billing.getByRole("button", { name: t("page.saveBilling") }).click();
  await expect(page.locator("[data-billing-status]")).toHaveAttribute("data-billing-status", "VALID");
  await expect(page.locator("[data-billing-status]")).toHaveText(t("page.status.VALID"));

  // Invoices: the PROGRESS tab is the one shown, holding this month's open invoice.
  const tabs = page.getByRole("navigation", { name: t("tabs.label") });
  await expect(tabs.getByRole("link", { name: t("tabs.PROGRESS") })).toHaveAttribute("aria-current", "page");
  const month = new Date().toISOString().slice(0, 7);
  await page.getByRole("link", { name: t("page.inProgress", { period: month }), exact: true }).click();
  await expect(page).toHaveURL(/[?&]invoice=\d+/);
  await expect(page.locator("[data-invoice-detail]")).toBeVisible();
  await expect(page.locator("[data-billing-action]").first()).toHaveAttribute("data-billing-action", "BILLING_INFORMATION_SAVED");
  await expectNoViolations(page, "the billing page with an invoice");

  const downloading = page.waitForEvent("download");
  await page.locator("[data-invoice-pdf]").click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`pinloom-statement-${month}.pdf`);
  const bytes = await readFile((await download.path())!);
  expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");

  // A phone: nothing wider than the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectNoViolations(page, "the billing page at 390 px");
});
