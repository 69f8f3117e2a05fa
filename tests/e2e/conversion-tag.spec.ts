// The conversion tag in a real browser: a new business makes a tag, opens its screens in the hub,
// fires events from the Worker's sample shop page, and sees them arrive in the hub's test events
// without reloading. axe finds nothing on the tag screens or the shop page.
import { expect, test, type Page } from "@playwright/test";
import { expectNoViolations } from "./axe.ts";
import { localeText, projectOf } from "./strings.ts";
import { signUpBusiness } from "./business-signup.ts";

const text = localeText({ convtag: "convtag" });

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

test("the tag fires from the test page and its events appear in the hub's test events", async ({ page, browser }, testInfo) => {
  test.setTimeout(120_000);
  const project = projectOf(testInfo.project.name);
  const t = (path: string, values: Record<string, string> = {}) => text(project, `convtag.${path}`, values);
  const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
  const username = `e2e_tag_${project}_${stamp}`.slice(0, 30);
  const name = `Tagged ${stamp}`.slice(0, 30);

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
    firstName: "Tess",
    lastName: "Tagger",
    email: `${username}@e2e.pinloom.test`,
    whatsAppConsent: false,
    ageConfirmed: true,
  });
  const tag = await v3<{ id: string }>(page, "POST", `/v3/businesses/${made.business.id}/conversion_tags/`, { name: "Shop tag", ad_account_id: made.ad_account.id });

  // The tag's screens: the snippet names the tag's script; nothing has fired yet.
  await page.goto(`/business/hub/${made.business.id}/tags/${tag.id}/`);
  await expect(page.getByLabel(t("hub.snippet"))).toHaveValue(new RegExp(`/ct/${tag.id}\\.js`));
  await expect(page.getByText(t("hub.waiting"))).toBeVisible();
  await expectNoViolations(page, "the tag screens");

  // The sample shop, opened by a shopper of its own (signed out, another browser profile): the
  // page visit fires on opening, the buttons fire the rest.
  const { baseURL, locale } = testInfo.project.use;
  const shopper = await browser.newContext({ ...(baseURL ? { baseURL } : {}), ...(locale ? { locale } : {}), userAgent: await page.evaluate(() => navigator.userAgent) });
  const shop = await shopper.newPage();
  await shop.goto(`/ct/test/${tag.id}/`);
  await expect(shop.getByRole("heading", { level: 1, name: t("testPage.title") })).toBeVisible();
  await shop.getByRole("button", { name: t("testPage.addToCart") }).click();
  await expect(shop.getByRole("status")).toHaveText(t("testPage.fired", { event: t("events.add_to_cart") }));
  await shop.getByRole("button", { name: t("testPage.checkout") }).click();
  await expectNoViolations(shop, "the sample shop");
  await shopper.close();

  // Back in the hub, without reloading, the three test events arrive.
  await page.bringToFront();
  const rows = page.locator("[data-test-rows] tr");
  await expect(rows).toHaveCount(3, { timeout: 30_000 });
  const table = page.locator("[data-test-table]");
  await expect(table).toContainText(t("events.page_visit"));
  await expect(table).toContainText(t("events.add_to_cart"));
  await expect(table).toContainText(t("events.checkout"));
  await expectNoViolations(page, "the tag screens with test events");
});
