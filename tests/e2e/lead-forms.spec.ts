// A lead form in a real browser, in English and Arabic: a new business promotes a pin through
// quick promote with its "Collect leads" step (a bad privacy link refused under its field
// first), a signed-in person meets the promoted pin in their home feed on a 390 px phone, opens
// "Get in touch", finds their name and email filled in, sends the form and is thanked; the
// business then reads the lead in its hub and in the CSV. axe finds nothing on each view.
import { expect, test, type Page } from "@playwright/test";
import { hydrated } from "./hydrated.ts";
import { expectNoViolations } from "./axe.ts";
import { signUpBusiness } from "./business-signup.ts";
import { signIn } from "./session.ts";
import { localeText, projectOf } from "./strings.ts";

const text = localeText({ c: "campaigns", l: "leads", b: "business" });
/** The person who meets the ad in each project (demo accounts, e-mail verified, a full name). */
const PERSON = { en: { username: "demo", name: "Ava Thompson", email: "demo@pinloom.example" }, ar: { username: "sam", name: "Sam Okafor", email: "sam@pinloom.example" } } as const;
/** Pins each project may promote: apart, so the two runs never promote the same pin to one feed. */
const CANDIDATES = { en: 100_040, ar: 100_064 } as const;


/** A /v3 call from inside the page, with its session cookie and CSRF token, as the islands make it. */
async function api<T>(page: Page, method: string, path: string, body?: unknown): Promise<{ status: number; data: T }> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const csrf = /(?:^|;\s*)csrftoken=([^;]+)/.exec(document.cookie)?.[1] ?? "";
      const init: RequestInit = { method, headers: { "content-type": "application/json", "x-csrftoken": csrf }, credentials: "same-origin" };
      if (body !== undefined) init.body = JSON.stringify(body);
      const response = await fetch(path, init);
      return { status: response.status, data: ((await response.json()) as { data: T }).data };
    },
    { method, path, body },
  );
}

test("a business collects leads from a promoted pin: set up in quick promote, sent from the home feed, read in the hub", async ({ page, browser }, testInfo) => {
  test.setTimeout(180_000);
  const project = projectOf(testInfo.project.name);
  const c = (path: string, values?: Record<string, string>) => text(project, `c.${path}`, values);
  const l = (path: string, values?: Record<string, string | number>) => text(project, `l.${path}`, values);
  const person = PERSON[project];
  const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
  const username = `e2e_leads_${project}_${stamp}`.slice(0, 30);
  const name = `Leads ${stamp}`.slice(0, 30);
  await signUpBusiness(page, project, name, username);

  const made = await api<{ ad_account: { id: string } }>(page, "POST", "/v3/businesses/", {
    businessGoals: ["GENERATE_LEADS"],
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
  expect((await api(page, "PUT", `/v3/ad_accounts/${accountId}/quick_promote/billing_profile/`, { name, email: `${username}@e2e.pinloom.test` })).status).toBe(200);
  expect((await api(page, "PUT", `/v3/ad_accounts/${accountId}/quick_promote/business_address/`, { line1: "1 Main St", city: "Springfield", postalCode: "12345", country: "US" })).status).toBe(200);

  // The person's home feed as it stands, so the business promotes a pin the feed does not already hold.
  const context = await browser.newContext({ locale: project === "ar" ? "ar-SA" : "en-US", userAgent: await page.evaluate(() => navigator.userAgent) });
  const reader = await context.newPage();
  await signIn(reader, person.username);
  await reader.goto("/");
  const onHome = new Set((await reader.locator("li.pin-cell a.pin-link").evaluateAll((links) => links.map((link) => link.getAttribute("href") ?? ""))).map((href) => href.replace(/\D/g, "")));
  const ids = Array.from({ length: 24 }, (_, index) => CANDIDATES[project] + index).join(",");
  const promotable = await api<{ items: Array<{ id: string }> }>(page, "GET", `/v3/ad_accounts/${accountId}/quick_promote/pins/?source=SELECTED&pin_ids=${ids}`);
  const pinId = promotable.data.items.map((item) => item.id).find((id) => !onHome.has(id));
  expect(pinId, "a promotable pin off the person's home page").toBeDefined();

  // Quick promote with the "Collect leads" step.
  await page.goto(`/advertiser/${accountId}/promote/?pin_id=${pinId!}`);
  await hydrated(page);
  const form = page.locator("form.promote-form");
  await form.getByLabel(c("promote.fields.name")).fill("Lamp catalogue");
  await form.getByLabel(c("promote.fields.destinationUrl")).fill("https://shop.example/catalogue");
  // A budget far above the other test campaigns', so pacing ranks this ad first in the feed.
  await form.getByLabel(c("promote.fields.dailyBudget", { currency: "USD" })).fill("1000");
  await form.getByRole("checkbox", { name: l("setup.collect") }).check();
  const leads = form.getByRole("group", { name: l("setup.collect") });
  await leads.getByLabel(l("setup.headline")).fill("Get the lamp catalogue");
  await leads.getByLabel(l("setup.privacyPolicyUrl")).fill("javascript:alert(1)");
  await leads.getByRole("checkbox", { name: l("fields.phoneNumber") }).check();
  await leads.getByRole("checkbox", { name: l("fields.zipCode") }).check();
  await leads.getByLabel(l("setup.callToAction")).selectOption("GET_IN_TOUCH");
  await expectNoViolations(page, "quick promote with its Collect leads step");
  await form.getByRole("button", { name: c("promote.submit"), exact: true }).click();
  await expect(leads.getByText(l("validation.linkScheme"))).toBeVisible();
  await expect(leads.getByLabel(l("setup.privacyPolicyUrl"))).toHaveAttribute("aria-invalid", "true");
  await leads.getByLabel(l("setup.privacyPolicyUrl")).fill("https://shop.example/privacy");
  await form.getByRole("button", { name: c("promote.submit"), exact: true }).click();
  await expect(page.getByRole("dialog", { name: c("promote.success.title") })).toBeVisible();

  // The person meets it in their home feed, on a phone, and sends the form, name and email already filled in.
  await reader.setViewportSize({ width: 390, height: 844 });
  await reader.goto("/");
  const cell = reader.locator("li.pin-cell").filter({ hasText: text(project, "b.ads.promotedBy", { advertiser: name }) });
  await expect(cell).toHaveCount(1);
  await cell.getByRole("button", { name: l("cta.GET_IN_TOUCH") }).click();
  const dialog = reader.getByRole("dialog", { name: "Get the lamp catalogue" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel(l("fields.fullName"))).toHaveValue(person.name);
  await expect(dialog.getByLabel(l("fields.email"))).toHaveValue(person.email);
  const box = await dialog.boundingBox();
  expect(box!.x >= 0 && box!.x + box!.width <= 390, "the dialog fits a 390 px screen").toBe(true);
  await dialog.getByLabel(l("fields.phoneNumber")).fill("+1 555 010 2030");
  await dialog.getByLabel(l("fields.zipCode")).fill("94107");
  await expectNoViolations(reader, "the lead form dialog");
  await dialog.getByRole("button", { name: l("dialog.send") }).click();
  await expect(dialog.getByText(l("dialog.consent", { advertiser: name }))).toBeVisible();
  await expect(dialog.getByText(l("validation.consent"))).toBeVisible();
  await dialog.getByRole("checkbox", { name: l("dialog.consent", { advertiser: name }) }).check();
  await dialog.getByRole("button", { name: l("dialog.send") }).click();
  const thanks = reader.getByRole("dialog", { name: l("dialog.thanksTitle") });
  await expect(thanks).toContainText(l("dialog.thanks", { advertiser: name }));
  await expectNoViolations(reader, "the thank-you");
  await thanks.getByRole("button", { name: l("dialog.close") }).first().click();
  await expect(thanks).toBeHidden();
  await context.close();

  // The business reads the lead in its hub, and in the CSV.
  await page.goto(`/advertiser/${accountId}/leads/`);
  const row = page.locator("tr[data-lead]").filter({ hasText: person.email });
  await expect(row).toContainText(person.name);
  await expect(row).toContainText("94107");
  await expectNoViolations(page, "the leads table");
  const csv = await page.request.get(`/v3/ad_accounts/${accountId}/lead_submissions/csv/`);
  expect(csv.status()).toBe(200);
  expect(await csv.text()).toContain(`${person.name},${person.email},'+1 555 010 2030,94107`);
  await page.goto(`/advertiser/${accountId}/campaigns/ads/`);
  await expect(page.locator("tbody tr").filter({ hasText: "Lamp catalogue" })).toContainText(l("setup.submissions_one", { count: 1 }));
  await expectNoViolations(page, "the ads table with its lead form column");
});
