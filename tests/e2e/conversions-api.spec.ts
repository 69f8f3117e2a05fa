// The Conversions API in a real browser: a new business creates an access token in the hub (shown
// once, in full), its server posts an event with it, and the event is in the overview and the
// calls' history; the payload helper, the setup instructions and the upload landings render. axe
// finds nothing on each view.
import { expect, test, type Page } from "@playwright/test";
import { expectNoViolations } from "./axe.ts";
import { signUpBusiness } from "./business-signup.ts";
import { localeText, projectOf } from "./strings.ts";

const text = localeText({ capi: "capi" });

/** Onboarding's call from inside the page (the stepper itself is the business hub journey's). */
async function onboard(page: Page, name: string): Promise<string> {
  const answer = await page.evaluate(async (businessName) => {
    const csrf = /(?:^|;\s*)csrftoken=([^;]+)/.exec(document.cookie)?.[1] ?? "";
    const response = await fetch("/v3/businesses/", {
      method: "POST",
      credentials: "same-origin",
      headers: { "content-type": "application/json", "x-csrftoken": csrf },
      body: JSON.stringify({ businessGoals: ["INCREASE_SALES"], businessName, businessVertical: "HOME_AND_GARDEN", numberEmployees: "2_10", hasWebsite: false, country: "US", locale: "en_US", advertisingIntent: "NOW", worksWithAgency: false, firstName: "Ana", lastName: "Silva", email: "ana@e2e.pinloom.test", ageConfirmed: true }),
    });
    return { status: response.status, body: (await response.json()) as { data: { ad_account: { id: string } } } };
  }, name);
  expect(answer.status).toBe(200);
  return answer.body.data.ad_account.id;
}

test("a business creates an access token, posts an event with it and sees the event in the overview", async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const project = projectOf(testInfo.project.name);
  const t = (path: string, values?: Record<string, string>) => text(project, `capi.${path}`, values);
  const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
  const name = `Casa ${stamp}`.slice(0, 30);
  await signUpBusiness(page, project, name, `e2e_capi_${project}_${stamp}`.slice(0, 30));
  const adAccountId = await onboard(page, name);

  await page.goto(`/advertiser/${adAccountId}/conversions-api/`);
  await expect(page.getByRole("navigation", { name: t("tabsLabel") }).getByRole("link", { name: t("tabs.api") })).toHaveAttribute("aria-current", "page");
  await expect(page.getByText(t("tokens.none"))).toBeVisible();
  await expectNoViolations(page, "the Conversions API tab without tokens");

  // The token is shown once, in full.
  await page.getByLabel(t("tokens.name")).fill("Shop server");
  await page.getByRole("button", { name: t("tokens.create") }).click();
  const shown = page.locator("[data-token-value]");
  await expect(shown).toHaveText(/^pl_cv_[0-9a-f]{64}$/);
  const token = (await shown.textContent())!;
  await expectNoViolations(page, "the new token shown once");

  // The advertiser's server posts an event with it.
  const posted = await page.request.post(`/v5/ad_accounts/${adAccountId}/events`, {
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    data: { data: [{ event_name: "checkout", action_source: "web", event_time: Math.floor(Date.now() / 1000) - 60, event_id: `order-${stamp}`, custom_data: { value: "19.99", currency: "USD" } }] },
  });
  expect(posted.status()).toBe(200);
  expect(((await posted.json()) as { events: Array<{ status: string }> }).events.map((event) => event.status)).toEqual(["processed"]);

  // Back in the hub: only the prefix is listed, and the event is in the overview and the calls.
  await page.getByRole("link", { name: t("tokens.done") }).click();
  const row = page.locator("tr[data-token]");
  await expect(row).toContainText("Shop server");
  await expect(row).toContainText(token.slice(0, 12));
  await expect(page.locator("body")).not.toContainText(token);
  // Counts read in the page's language: Arabic-Indic digits in ar_SA.
  const one = project === "ar" ? "١" : "1";
  await expect(page.locator('[data-figure="total"] strong')).toHaveText(one);
  const today = new Date().toISOString().slice(0, 10);
  await expect(page.locator(`tr[data-day="${today}"] td[data-name="checkout"]`)).toHaveText(one);
  await expect(page.locator("tr[data-call]")).toHaveCount(1);
  await expectNoViolations(page, "the Conversions API tab with an event");

  // The payload helper builds a valid example and its curl command.
  await page.getByRole("link", { name: t("tabs.helper") }).click();
  await page.getByLabel(t("helper.eventName"), { exact: true }).selectOption("lead");
  await page.getByRole("button", { name: t("helper.build") }).click();
  await expect(page.locator("[data-payload]")).toContainText('"event_name": "lead"');
  await expect(page.locator("[data-curl]")).toContainText(`/v5/ad_accounts/${adAccountId}/events`);
  await expectNoViolations(page, "the payload helper");

  for (const tab of ["setup", "offline", "pca"] as const) {
    await page.getByRole("navigation", { name: t("tabsLabel") }).getByRole("link", { name: t(`tabs.${tab}`) }).click();
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expectNoViolations(page, `the ${tab} tab`);
  }
});
