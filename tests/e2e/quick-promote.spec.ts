// Promoting a pin in a real browser: a new business with a valid (test-mode) billing profile
// opens a pin's close-up, follows its Promote button to the quick promote page with the pin
// chosen, looks through the pick-a-pin sheet, fills the business form the flow asks for, sees
// the success modal, then finds the campaign active in its campaigns table, pauses it and
// resumes it. axe finds nothing on each view.
import { expect, test, type Page } from "@playwright/test";
import { expectNoViolations } from "./axe.ts";
import { localeText, projectOf } from "./strings.ts";
import { signUpBusiness } from "./business-signup.ts";
import { hydrated } from "./hydrated.ts";

const text = localeText({ auth: "auth", shell: "shell", c: "campaigns" });
/** The demo world's image pin: public, safe, promotable. */
const PIN = "100001";


/** A /v3 call from inside the page, with its session cookie and CSRF token, as the islands make it. */
async function api<T>(page: Page, method: string, path: string, body: unknown): Promise<{ status: number; data: T }> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const csrf = /(?:^|;\s*)csrftoken=([^;]+)/.exec(document.cookie)?.[1] ?? "";
      const response = await fetch(path, { method, headers: { "content-type": "application/json", "x-csrftoken": csrf }, body: JSON.stringify(body), credentials: "same-origin" });
      return { status: response.status, data: ((await response.json()) as { data: T }).data };
    },
    { method, path, body },
  );
}

test("a business with a valid billing profile promotes a pin from its close-up, sees the campaign active, pauses and resumes it", async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const project = projectOf(testInfo.project.name);
  const c = (path: string, values?: Record<string, string>) => text(project, `c.${path}`, values);
  const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
  const username = `e2e_promo_${project}_${stamp}`.slice(0, 30);
  const name = `Lamps ${stamp}`.slice(0, 30);
  await signUpBusiness(page, project, name, username);

  // The business and its billing, set up through the API: onboarding, then the test-mode billing profile.
  const made = await api<{ ad_account: { id: string } }>(page, "POST", "/v3/businesses/", {
    businessGoals: ["INCREASE_SALES"],
    businessName: name,
    businessVertical: "HOME_AND_GARDEN",
    numberEmployees: "2_10",
    hasWebsite: false,
    country: "US",
    locale: "en_US",
    advertisingIntent: "NOW",
    worksWithAgency: false,
    firstName: "Lee",
    lastName: "Lamp",
    email: `${username}@e2e.pinloom.test`,
    whatsAppConsent: false,
    ageConfirmed: true,
  });
  expect(made.status).toBe(200);
  const accountId = made.data.ad_account.id;
  const billing = await api<{ hasValidBillingProfile: boolean }>(page, "PUT", `/v3/ad_accounts/${accountId}/quick_promote/billing_profile/`, { name, email: `${username}@e2e.pinloom.test` });
  expect([billing.status, billing.data.hasValidBillingProfile]).toEqual([200, true]);

  // The close-up's Promote button, shown to a member who may create campaigns.
  await page.goto(`/pin/${PIN}/`);
  const promote = page.getByRole("link", { name: c("promote.button"), exact: true });
  await expect(promote).toBeVisible({ timeout: 30_000 });
  await promote.click();
  await expect(page).toHaveURL(new RegExp(`/advertiser/${accountId}/promote/\\?pin_id=${PIN}$`));
  await hydrated(page);
  const form = page.locator("form.promote-form");
  await expect(form.getByRole("group", { name: c("promote.chosenPin") }).getByRole("img")).toBeVisible();
  await form.getByLabel(c("promote.fields.name")).fill("Spring lamps");
  await form.getByLabel(c("promote.fields.destinationUrl")).fill("https://shop.example/spring");
  await expect(form.getByLabel(c("promote.fields.dailyBudget", { currency: "USD" }))).toHaveValue("7");
  await expectNoViolations(page, "the quick promote page");

  // The pin selection modal: the pick-a-pin sheet opens on the selected pin.
  await form.getByRole("button", { name: c("promote.changePin") }).click();
  const sheet = page.getByRole("dialog", { name: c("promote.sheet.title") });
  await expect(sheet.locator(".promote-pick")).toHaveCount(1);
  await expectNoViolations(page, "the pick-a-pin sheet");
  await sheet.locator(".promote-pick").click();
  await expect(sheet).toBeHidden();

  // No address yet: the business form comes first.
  await form.getByRole("button", { name: c("promote.submit"), exact: true }).click();
  const business = page.getByRole("dialog", { name: c("promote.business.title") });
  await expect(business).toBeVisible();
  await business.getByLabel(c("promote.business.line1"), { exact: true }).fill("1 Main Street");
  await business.getByLabel(c("promote.business.city")).fill("Springfield");
  await business.getByLabel(c("promote.business.postalCode")).fill("12345");
  await expectNoViolations(page, "the business form");
  await business.getByRole("button", { name: c("promote.business.save") }).click();
  await expect(business).toBeHidden();

  await form.getByRole("button", { name: c("promote.submit"), exact: true }).click();
  const success = page.getByRole("dialog", { name: c("promote.success.title") });
  await expect(success).toBeVisible();
  await expectNoViolations(page, "the success modal");
  await success.getByRole("link", { name: c("promote.success.toCampaigns") }).click();

  // The campaigns table: active, then paused, then active again.
  await expect(page).toHaveURL(new RegExp(`/advertiser/${accountId}/campaigns/$`));
  const row = page.locator("tr[data-campaign]").filter({ hasText: "Spring lamps" });
  await expect(row.locator("td[data-status]")).toHaveText(c("statuses.ACTIVE"));
  await expectNoViolations(page, "the campaigns table");
  await row.getByRole("button", { name: c("tables.pause") }).click();
  await expect(row.locator("td[data-status]")).toHaveText(c("statuses.PAUSED"));
  await row.getByRole("button", { name: c("tables.resume") }).click();
  await expect(row.locator("td[data-status]")).toHaveText(c("statuses.ACTIVE"));
  await expect(row.getByRole("button", { name: c("tables.pause") })).toBeVisible();
});
