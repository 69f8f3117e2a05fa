// A business's assets in a real browser: a new business creates a conversion tag in the tags
// page's overlay, creates an audience and shares it with its second ad account, then sees the
// advertiser page's recommendations and dismisses one. axe finds nothing on each view, and the
// tags page fits a 390 px phone.
import { expect, test, type Page } from "@playwright/test";
import { expectNoViolations } from "./axe.ts";
import { localeText, projectOf } from "./strings.ts";
import { signUpBusiness } from "./business-signup.ts";
import { hydrated } from "./hydrated.ts";

const text = localeText({ auth: "auth", shell: "shell", business: "business" });


/** A v3 call from inside the page, with its session cookie and CSRF token. */
async function v3<T>(page: Page, method: string, path: string, body: unknown): Promise<T> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const csrf = /(?:^|;\s*)csrftoken=([^;]+)/.exec(document.cookie)?.[1] ?? "";
      const response = await fetch(path, { method, headers: { "content-type": "application/json", "x-csrftoken": decodeURIComponent(csrf) }, body: JSON.stringify(body) });
      return ((await response.json()) as { data: T }).data;
    },
    { method, path, body },
  );
}

test("a business creates a tag, shares an audience, and dismisses a recommendation", async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const project = projectOf(testInfo.project.name);
  const t = (path: string) => text(project, `business.${path}`);
  const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
  const username = `e2e_assets_${project}_${stamp}`.slice(0, 30);
  const name = `Crumb ${stamp}`.slice(0, 30);

  // A business signs up; its onboarding answers go straight to the API (the stepper has its own journey).
  await signUpBusiness(page, project, name, username);
  const made = await v3<{ business: { id: string }; ad_account: { id: string } }>(page, "POST", "/v3/businesses/", {
    businessGoals: ["INCREASE_SALES"],
    businessName: name,
    businessVertical: "FOOD_AND_DRINK",
    numberEmployees: "2_10",
    hasWebsite: false,
    country: "FR",
    locale: "fr",
    advertisingIntent: "NOW",
    worksWithAgency: false,
    firstName: "Camille",
    lastName: "Durand",
    email: `${username}@e2e.pinloom.test`,
    whatsAppConsent: false,
    ageConfirmed: true,
  });
  await v3(page, "POST", `/v3/businesses/${made.business.id}/ad_accounts/`, { name: "Second", country: "FR" });
  const navigation = page.getByRole("navigation", { name: t("hub.navLabel") });

  // A conversion tag, created in the tags page's overlay, then selected in the list.
  await page.goto(`/business/hub/${made.business.id}/`);
  await navigation.getByRole("link", { name: t("hub.pages.tags") }).click();
  await page.getByRole("button", { name: t("tags.create") }).click();
  const overlay = page.getByRole("dialog", { name: t("tags.create") });
  await expect(overlay).toBeVisible();
  await overlay.getByLabel(t("tags.name")).fill("Checkout tag");
  await overlay.getByLabel(t("tags.enhancedMatch")).check();
  await overlay.getByRole("group", { name: t("tags.shareWith") }).getByLabel("Second").check();
  await expectNoViolations(page, "the tag overlay");
  await overlay.getByRole("button", { name: t("tags.submit") }).click();
  await expect(page).toHaveURL(/[?&]selected=\d+/);
  const tagRow = page.locator("tr[aria-current=true]");
  await expect(tagRow).toContainText("Checkout tag");
  await expect(tagRow).toContainText("Second");
  await expect(tagRow).toContainText(t("tags.neverFired"));
  await expectNoViolations(page, "the tags");
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1280, height: 900 });

  // An engagement audience, created and selected, then shared with the second ad account.
  await navigation.getByRole("link", { name: t("hub.pages.audiences") }).click();
  const create = page.getByRole("form", { name: t("audiences.createEngagement") });
  await create.getByLabel(t("audiences.name")).fill("Recent savers");
  await create.getByRole("button", { name: t("audiences.submit") }).click();
  await expect(page).toHaveURL(/[?&]selected=\d+/);
  await expect(page.locator("tr[aria-current=true]")).toContainText("Recent savers");
  const share = page.getByRole("form", { name: t("audiences.share") });
  await share.getByLabel(t("audiences.shareWith")).selectOption({ label: `Second · ${name}` });
  await share.getByRole("button", { name: t("audiences.shareSubmit") }).click();
  await expect(page.locator("tr[aria-current=true]")).toContainText("Second");
  await expect(page.locator("table[data-list=received-audiences]")).toContainText("Recent savers");
  await expectNoViolations(page, "the audiences");

  // The advertiser page recommends billing and a campaign (the tag is there now); dismissing one hides it.
  await page.goto(`/advertiser/${made.ad_account.id}/`);
  await hydrated(page);
  const recommendations = page.locator("[data-recommendations] > li");
  await expect(recommendations).toHaveCount(2);
  await expect(page.locator('[data-kind="INSTALL_TAG"]')).toHaveCount(0);
  const billing = page.locator('[data-kind="ADD_BILLING"]');
  await expect(billing).toContainText(t("recommendations.kinds.ADD_BILLING.title"));
  await expectNoViolations(page, "the recommendations");
  await billing.getByRole("button", { name: t("recommendations.actions.DISMISSED") }).click();
  await expect(billing).toHaveCount(0);
  await expect(recommendations).toHaveCount(1);
  await page.reload();
  await expect(page.locator('[data-kind="ADD_BILLING"]')).toHaveCount(0);
  await expect(page.locator('[data-kind="CREATE_CAMPAIGN"]')).toBeVisible();
});
