// Cookie consent, the language picker and the e-mail verification landing in a real browser,
// in English and Arabic. The local runtime's country is the United States (no banner there), so
// the consent tests ask for France the spec's way, ?force_country=FR, which the page's calls
// carry as a header and which can only add the question, never lift it.
import { expect, test, type Page, type Request } from "@playwright/test";
import { expectNoViolations } from "./axe.ts";
import { signIn } from "./session.ts";
import { localeText, projectOf } from "./strings.ts";

const text = localeText({ p: "personal", s: "settings" });
const PIN_IN_FRANCE = "/pin/100001/?force_country=FR";
const EVENTS = "/resource/ApiCResource/create/";

/** Event types in the logger's batches sent so far (the page's requests, as the server got them). */
function eventTypesSent(page: Page): number[] {
  const types: number[] = [];
  page.on("request", (request: Request) => {
    if (!request.url().includes(EVENTS)) return;
    const body = JSON.parse(request.postData() ?? "{}") as { options?: { events?: Array<{ event_type: number }> } };
    for (const event of body.options?.events ?? []) types.push(event.event_type);
  });
  return types;
}

const consentCookie = async (page: Page) => (await page.context().cookies()).find((cookie) => cookie.name === "pinloom_consent")?.value;

test("reject all: the banner goes for good, and no view is sent", async ({ page }, testInfo) => {
  const project = projectOf(testInfo.project.name);
  const sent = eventTypesSent(page);
  await page.goto(PIN_IN_FRANCE);
  const banner = page.getByRole("region", { name: text(project, "p.consent.banner.title") });
  await expect(banner).toBeVisible();
  await expect(banner).toContainText(text(project, "p.consent.banner.text"));
  // Reading goes on under it: the pin's heading is there and not covered by a modal.
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expectNoViolations(page, "the consent banner");
  await banner.getByRole("button", { name: text(project, "p.consent.banner.reject") }).click();
  await expect(banner).toBeHidden();
  expect(await consentCookie(page)).toBe("p0a0m0");
  // The pin page flushes its view within 300 ms when analytics may run: give it far longer.
  await page.waitForTimeout(1_500);
  expect(sent).not.toContain(13);
  await page.reload();
  await page.waitForLoadState("networkidle");
  await expect(page.getByRole("region", { name: text(project, "p.consent.banner.title") })).toBeHidden();
});

test("accept all: the banner goes and the page's view is sent", async ({ page }, testInfo) => {
  const project = projectOf(testInfo.project.name);
  const sent = eventTypesSent(page);
  await page.goto(PIN_IN_FRANCE);
  const banner = page.getByRole("region", { name: text(project, "p.consent.banner.title") });
  const view = page.waitForRequest((request) => request.url().includes(EVENTS) && (request.postData() ?? "").includes('"event_type":13'));
  await banner.getByRole("button", { name: text(project, "p.consent.banner.accept") }).click();
  await expect(banner).toBeHidden();
  await view;
  expect(sent).toContain(13);
  expect(await consentCookie(page)).toBe("p1a1m1");
});

test("change later: the cookie settings page shows the choice and saves a new one", async ({ page }, testInfo) => {
  const project = projectOf(testInfo.project.name);
  await page.goto(PIN_IN_FRANCE);
  const banner = page.getByRole("region", { name: text(project, "p.consent.banner.title") });
  await banner.getByRole("button", { name: text(project, "p.consent.banner.reject") }).click();
  await expect(banner).toBeHidden();

  await page.goto("/settings/cookies/?force_country=FR");
  await expect(page.getByRole("heading", { level: 1, name: text(project, "p.consent.settings.title") })).toBeVisible();
  // No banner over the page where the choice is made.
  await expect(page.getByRole("region", { name: text(project, "p.consent.banner.title") })).toBeHidden();
  const analytics = page.getByRole("checkbox", { name: text(project, "p.consent.settings.analytics") });
  const personalization = page.getByRole("checkbox", { name: text(project, "p.consent.settings.personalization") });
  await expect(analytics).not.toBeChecked();
  await expect(personalization).not.toBeChecked();
  await expectNoViolations(page, "the cookie settings page");
  await analytics.check();
  await page.getByRole("button", { name: text(project, "p.consent.settings.save") }).click();
  await expect(page.getByRole("status")).toHaveText(text(project, "p.consent.saved"));
  expect(await consentCookie(page)).toBe("p0a1m0");
  await page.reload();
  await expect(analytics).toBeChecked();
  await expect(personalization).not.toBeChecked();
});

test("the settings page at phone width: every choice reachable, nothing wider than the screen", async ({ page }, testInfo) => {
  const project = projectOf(testInfo.project.name);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(PIN_IN_FRANCE);
  const banner = page.getByRole("region", { name: text(project, "p.consent.banner.title") });
  await expect(banner).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const accept = banner.getByRole("button", { name: text(project, "p.consent.banner.accept") });
  expect((await accept.boundingBox())!.height).toBeGreaterThanOrEqual(44);
});

test("the language picker changes the interface at once", async ({ page }, testInfo) => {
  const project = projectOf(testInfo.project.name);
  await signIn(page, "demo");
  await page.goto("/settings/language/");
  await expect(page.getByRole("heading", { level: 1, name: text(project, "p.language.title") })).toBeVisible();
  await expectNoViolations(page, "the language settings");
  await page.getByLabel(text(project, "p.language.locale"), { exact: true }).selectOption("fr");
  await page.getByLabel(text(project, "p.language.country"), { exact: true }).selectOption("BE");
  await page.getByRole("button", { name: text(project, "p.language.save") }).click();
  // The page comes back in French, with the country kept.
  await expect(page.getByRole("heading", { level: 1, name: "Langue et pays" })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "fr");
  await expect(page.getByLabel("Pays ou région", { exact: true })).toHaveValue("BE");
  // Back as it was, for the other tests of this demo account.
  await page.getByLabel("Langue", { exact: true }).selectOption(project === "ar" ? "ar_SA" : "en_US");
  await page.getByLabel("Pays ou région", { exact: true }).selectOption("US");
  await page.getByRole("button", { name: "Enregistrer" }).click();
  await expect(page.getByRole("heading", { level: 1, name: text(project, "p.language.title") })).toBeVisible();
});

test("the verification link's landing page says what happened", async ({ page }, testInfo) => {
  const project = projectOf(testInfo.project.name);
  await page.goto("/email-verified/?result=verified");
  await expect(page.getByRole("heading", { level: 1, name: text(project, "p.verified.title") })).toBeVisible();
  await expectNoViolations(page, "the verified page");
  await page.goto("/email-verified/?result=invalid");
  await expect(page.getByRole("heading", { level: 1, name: text(project, "p.verified.invalidTitle") })).toBeVisible();
  await page.getByRole("link", { name: text(project, "p.verified.home") }).click();
  await expect(page).toHaveURL(/\/$/);
});
