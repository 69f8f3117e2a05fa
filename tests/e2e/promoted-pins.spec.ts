// A promoted pin from booking to results in a real browser, in English and Arabic: a new
// business promotes a pin through quick promote from its close-up (the pick-a-pin sheet, a daily
// budget under the minimum refused first, the business form, the billing form, the success
// modal); a signed-out visitor and a signed-in person each find it in their home feed marked
// "Promoted by …", open "Why am I seeing this?" and click it; the business's results page then
// counts both clicks, and their views. axe finds nothing on each view.
import { expect, test, type Browser, type Page, type TestInfo } from "@playwright/test";
import { hydrated } from "./hydrated.ts";
import { expectNoViolations } from "./axe.ts";
import { signUpBusiness } from "./business-signup.ts";
import { signIn, visitorAddress } from "./session.ts";
import { localeText, projectOf, type Project } from "./strings.ts";

const text = localeText({ b: "business", c: "campaigns" });


/** A /v3 call from inside the page, with its session cookie and CSRF token, as the islands make it. */
async function v3<T>(page: Page, method: string, path: string, body: unknown): Promise<{ status: number; data: T }> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const csrf = /(?:^|;\s*)csrftoken=([^;]+)/.exec(document.cookie)?.[1] ?? "";
      const response = await fetch(path, { method, headers: { "content-type": "application/json", "x-csrftoken": csrf }, body: JSON.stringify(body), credentials: "same-origin" });
      return { status: response.status, data: ((await response.json()) as { data: T }).data };
    },
    { method, path, body },
  );
}

/** The pin ids a grid shows. */
async function gridPins(page: Page, grid: string): Promise<string[]> {
  const hrefs = await page.locator(`#${grid} > li > a.pin-link`).evaluateAll((links) => links.map((link) => link.getAttribute("href") ?? ""));
  return hrefs.map((href) => /\/pin\/(\d+)\//.exec(href)?.[1] ?? "");
}

/** A browser of its own (the project's language and a real browser's user agent), from its own address. */
async function person(browser: Browser, testInfo: TestInfo): Promise<Page> {
  const { baseURL, userAgent, locale } = testInfo.project.use;
  const context = await browser.newContext({
    ...(baseURL ? { baseURL } : {}),
    ...(userAgent ? { userAgent } : {}),
    ...(locale ? { locale } : {}),
    extraHTTPHeaders: { "cf-connecting-ip": visitorAddress() },
  });
  return context.newPage();
}

/**
 * A pin neither home feed shows on its first page (a promoted pin never repeats one the page
 * holds): one from the signed-out feed's second page that the signed-in person's first page
 * lacks; each project takes its own, so the two runs never promote the same pin.
 */
async function unseenPin(visitor: Page, member: Page, project: Project): Promise<string> {
  await visitor.goto("/");
  const bookmark = await visitor.locator("#home-feed-grid ~ .feed-more, .feed-more[data-feed-grid=home-feed-grid]").first().getAttribute("data-bookmark");
  const second = await visitor.evaluate(async (bookmark) => {
    const response = await fetch(`/resource/HomefeedResource/get/?data=${encodeURIComponent(JSON.stringify({ options: { bookmark } }))}`);
    return ((await response.json()) as { resource_response: { data: { results: Array<{ id: string; isPromoted: boolean }> } } }).resource_response.data.results.filter((item) => !item.isPromoted).map((item) => item.id);
  }, bookmark);
  await member.goto("/");
  const theirs = new Set(await gridPins(member, "home-feed-grid"));
  const candidates = second.filter((id) => !theirs.has(id));
  const pin = candidates[project === "ar" ? 1 : 0];
  if (!pin) throw new Error("no pin off both first pages");
  return pin;
}

/** The viewer finds the promoted pin in their home feed, labelled, asks why, and clicks it (its click ping sent). */
async function findAndClick(page: Page, project: Project, business: string, pin: string, what: string): Promise<void> {
  await page.goto("/");
  const cell = page.locator("#home-feed-grid > li").filter({ hasText: text(project, "b.ads.promotedBy", { advertiser: business }) });
  await expect(cell).toHaveCount(1, { timeout: 15_000 });
  await expect(cell.locator("a.pin-link")).toHaveAttribute("href", `/pin/${pin}/`);
  await cell.locator("summary", { hasText: text(project, "b.ads.whyTitle") }).click();
  // A reason at least (automatic targeting for a visitor; a followed interest may come first for a member).
  await expect(cell.locator(".ad-reasons-body li").first()).toBeVisible();
  await expectNoViolations(page, `${what}: the home feed with a promoted pin, its reasons open`);
  const clickPing = page.waitForRequest((request) => request.url().includes("/attribution_source/") && request.url().includes("source_event_type=click"));
  await cell.locator("a.pin-link").click();
  await clickPing;
  await expect(page).toHaveURL(new RegExp(`/pin/${pin}/$`));
}

test("a business promotes a pin; a visitor and a member see it promoted in their home feeds and click it; its results count them", async ({ page, browser }, testInfo) => {
  test.setTimeout(180_000);
  const project = projectOf(testInfo.project.name);
  const c = (path: string, values?: Record<string, string>) => text(project, `c.${path}`, values);
  const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
  const username = `e2e_ads_${project}_${stamp}`.slice(0, 30);
  const business = `Looms ${stamp}`.slice(0, 30);

  const visitor = await person(browser, testInfo);
  const member = await person(browser, testInfo);
  await signIn(member, "demo");
  const pin = await unseenPin(visitor, member, project);

  // The business, signed up and onboarded as the hub's own calls do it; no address, no billing yet.
  await signUpBusiness(page, project, business, username);
  const made = await v3<{ ad_account: { id: string } }>(page, "POST", "/v3/businesses/", {
    businessGoals: ["INCREASE_SALES"],
    businessName: business,
    businessVertical: "HOME_AND_GARDEN",
    numberEmployees: "2_10",
    hasWebsite: false,
    country: "US",
    locale: "en_US",
    advertisingIntent: "NOW",
    worksWithAgency: false,
    firstName: "Lee",
    lastName: "Loom",
    email: `${username}@e2e.pinloom.test`,
    whatsAppConsent: false,
    ageConfirmed: true,
  });
  expect(made.status).toBe(200);
  const accountId = made.data.ad_account.id;

  // Quick promote from the pin's close-up, the pin chosen.
  await page.goto(`/pin/${pin}/`);
  const promote = page.getByRole("link", { name: c("promote.button"), exact: true });
  await expect(promote).toBeVisible({ timeout: 30_000 });
  await promote.click();
  await expect(page).toHaveURL(new RegExp(`/advertiser/${accountId}/promote/\\?pin_id=${pin}$`));
  await hydrated(page);
  const form = page.locator("form.promote-form");
  await form.getByLabel(c("promote.fields.name")).fill("Woven ideas");
  await form.getByLabel(c("promote.fields.destinationUrl")).fill("https://looms.example/woven");

  // The pin selection modal: the pick-a-pin sheet, the chosen pin picked again.
  await form.getByRole("button", { name: c("promote.changePin") }).click();
  const sheet = page.getByRole("dialog", { name: c("promote.sheet.title") });
  await expect(sheet.locator(".promote-pick")).toHaveCount(1);
  await sheet.locator(".promote-pick").click();
  await expect(sheet).toBeHidden();

  // A budget under the US minimum of 7: asked for what is missing first, then refused at its field.
  const budget = form.getByLabel(c("promote.fields.dailyBudget", { currency: "USD" }));
  await budget.fill("5");
  const submit = form.getByRole("button", { name: c("promote.submit"), exact: true });

  // The business form, then the billing form, each asked for when it is missing.
  await submit.click();
  const address = page.getByRole("dialog", { name: c("promote.business.title") });
  await expect(address).toBeVisible();
  await address.getByLabel(c("promote.business.line1"), { exact: true }).fill("1 Loom Street");
  await address.getByLabel(c("promote.business.city")).fill("Springfield");
  await address.getByLabel(c("promote.business.postalCode")).fill("12345");
  await address.getByRole("button", { name: c("promote.business.save") }).click();
  await expect(address).toBeHidden();

  await submit.click();
  const billing = page.getByRole("dialog", { name: c("promote.billing.title") });
  await expect(billing).toBeVisible();
  await billing.getByLabel(c("promote.billing.email")).fill(`${username}@e2e.pinloom.test`);
  await expectNoViolations(page, "the billing form");
  await billing.getByRole("button", { name: c("promote.billing.save") }).click();
  await expect(billing).toBeHidden();

  await submit.click();
  await expect(budget).toHaveAttribute("aria-invalid", "true");
  await expect(page.locator(`[id="${await budget.getAttribute("aria-describedby")}"]`)).toBeVisible();
  await expect(page.getByRole("dialog", { name: c("promote.success.title") })).toBeHidden();
  await expectNoViolations(page, "the quick promote page with a refused budget");

  // A budget far above the other journeys' campaigns: the pacing with most left is placed first.
  await budget.fill("50000");
  await submit.click();
  const success = page.getByRole("dialog", { name: c("promote.success.title") });
  await expect(success).toBeVisible();
  await expectNoViolations(page, "the success modal");

  // A signed-out visitor (its promoted cells asked for after the shared page loads) and a signed-in person.
  await findAndClick(visitor, project, business, pin, "signed out");
  await findAndClick(member, project, business, pin, "signed in");

  // Both clicks, once each, and the views with them, in the results (today is in the default range).
  const number = (value: number) => new Intl.NumberFormat(project === "ar" ? "ar-SA" : "en-US").format(value);
  await expect
    .poll(
      async () => {
        await page.goto(`/advertiser/${accountId}/results/`);
        return page.locator('[data-total="clicks"]').textContent();
      },
      { timeout: 20_000 },
    )
    .toBe(number(2));
  // Other journeys' signed-out visitors may meet the ad too: at least our two views.
  const views = Number((await page.locator('[data-total="impressions"]').textContent())?.replace(/[^\d٠-٩]/g, "").replace(/[٠-٩]/g, (digit) => String(digit.charCodeAt(0) - 0x0660)));
  expect(views).toBeGreaterThanOrEqual(2);
  await expect(page.getByRole("table", { name: text(project, "b.ads.results.byDay") })).toBeVisible();
  await expectNoViolations(page, "the business's results");

  // Ended, so no later journey meets this ad in its feeds.
  const ended = await v3<unknown>(page, "POST", `/v3/ad_accounts/${accountId}/campaigns/${await campaignOf(page, accountId)}/end/`, {});
  expect(ended.status).toBe(200);
  await visitor.context().close();
  await member.context().close();
});

/** The account's one campaign. */
async function campaignOf(page: Page, accountId: string): Promise<string> {
  const listed = await page.evaluate(async (accountId) => {
    const response = await fetch(`/v3/ad_accounts/${accountId}/campaigns/`);
    return ((await response.json()) as { data: { items: Array<{ id: string }> } }).data.items;
  }, accountId);
  return listed[0]!.id;
}
