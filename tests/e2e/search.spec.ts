// Search in a real browser, in English and in Arabic (right to left): the header box
// by keyboard through typeahead, the results page with tabs, a filter and infinite scroll,
// recent searches (on the device signed out, on the server signed in), and what crawlers get.
// Runs on the seeded demo world; "ideas" matches well over one page of its pins.
import { expect, test, type Page } from "@playwright/test";
import { signIn } from "./session.ts";

const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const LABELS = {
  en: { filters: "Filters", apply: "Apply filters", recent: "Recent searches", clearAll: "Clear all", boards: "Boards" },
  ar: { filters: "عوامل التصفية", apply: "تطبيق عوامل التصفية", recent: "عمليات البحث الأخيرة", clearAll: "مسح الكل", boards: "لوحات" },
} as const;
const labelsOf = (name: string) => LABELS[name === "ar" ? "ar" : "en"];

const box = (page: Page) => page.locator("header").getByRole("combobox");
/** Waits for the island to take over the server-rendered box (it hydrates on interaction). */
async function focusBox(page: Page): Promise<void> {
  await box(page).focus();
  await expect(box(page)).toHaveAttribute("data-hydrated", "true");
}

test("searching from the header by keyboard through typeahead", async ({ page }) => {
  await page.goto("/");
  await expect(box(page)).toHaveAttribute("aria-expanded", "false");
  await focusBox(page);
  await box(page).pressSequentially("recip", { delay: 40 });
  const listbox = page.getByRole("listbox");
  await expect(box(page)).toHaveAttribute("aria-expanded", "true");
  await expect(box(page)).toHaveAttribute("aria-controls", (await listbox.getAttribute("id"))!);
  const options = listbox.getByRole("option");
  await expect(options.first()).toBeVisible();
  const count = await options.count();

  // ArrowDown moves the active option (focus stays in the box), End and Home jump, Up wraps.
  await box(page).press("ArrowDown");
  const first = options.first();
  await expect(first).toHaveAttribute("aria-selected", "true");
  await expect(box(page)).toHaveAttribute("aria-activedescendant", (await first.getAttribute("id"))!);
  await expect(box(page)).toBeFocused();
  await box(page).press("End");
  await expect(options.nth(count - 1)).toHaveAttribute("aria-selected", "true");
  await box(page).press("Home");
  await expect(first).toHaveAttribute("aria-selected", "true");
  if (count > 1) {
    await box(page).press("ArrowUp");
    await expect(options.nth(count - 1)).toHaveAttribute("aria-selected", "true");
    await box(page).press("ArrowDown");
  }
  // Escape closes the popup, and ArrowDown opens it again.
  await box(page).press("Escape");
  await expect(box(page)).toHaveAttribute("aria-expanded", "false");
  await expect(box(page)).not.toHaveAttribute("aria-activedescendant");
  await box(page).press("ArrowDown");
  await expect(first).toHaveAttribute("aria-selected", "true");

  const chosen = (await first.locator(".search-box-option-text").textContent())!.trim();
  await box(page).press("Enter");
  await expect(page).toHaveURL(/\/search\/pins\/\?q=[^&]+&rs=typeahead$/);
  expect(new URL(page.url()).searchParams.get("q")).toBe(chosen);
  await expect(box(page)).toHaveValue(chosen);
});

test("the results page: grid, tabs, a filter, and the text shown elsewhere", async ({ page }, testInfo) => {
  const labels = labelsOf(testInfo.project.name);
  const response = await page.goto("/search/pins/?q=ideas");
  expect(response!.status()).toBe(200);
  // The canonical names the language the page is in: the Arabic page is the ?locale=ar_SA one.
  const canonical = testInfo.project.name === "ar" ? /\/search\/pins\/\?q=ideas&locale=ar_SA$/ : /\/search\/pins\/\?q=ideas$/;
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", canonical);
  await expect(page.locator("#search-grid > li")).toHaveCount(25);
  await expect(page.locator('nav.search-tabs a[aria-current="page"]')).toHaveCount(1);

  // A filter from the GET form (folded for signed-out visitors).
  await page.locator("details.search-filters > summary").click();
  const checkbox = page.locator('details.search-filters input[name="filters"]').first();
  const filterId = (await checkbox.getAttribute("value"))!;
  await checkbox.check();
  await page.getByRole("button", { name: labels.apply }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]filters=${encodeURIComponent(filterId)}(&|$)`));
  await page.locator("details.search-filters > summary").click();
  await expect(page.locator(`details.search-filters input[value="${filterId}"]`)).toBeChecked();

  // Tabs are links to the other scopes.
  await page.locator("nav.search-tabs").getByRole("link", { name: labels.boards }).click();
  await expect(page).toHaveURL(/\/search\/boards\/\?q=ideas&rs=tab$/);

  // Elsewhere (a close-up included), the header box shows the last search page's text.
  await page.goto("/search/pins/?q=weekend");
  const pin = await page.locator("#search-grid a.pin-link").first().getAttribute("href");
  await page.goto(pin!);
  await expect(box(page)).toHaveValue("weekend");
});

test("infinite scroll loads the second page through BaseSearchResource", async ({ page }) => {
  const requests: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/resource/BaseSearchResource/get/")) requests.push(request.url());
  });
  await page.goto("/search/pins/?q=ideas");
  const cells = page.locator("#search-grid > li");
  await expect(cells).toHaveCount(25);
  await expect(page.locator('.feed-more a[rel="next"]')).toBeHidden();
  await page.evaluate(() => scrollTo(0, document.body.scrollHeight));
  await expect.poll(() => cells.count()).toBeGreaterThan(25);
  expect(requests.length).toBeGreaterThan(0);
  expect(decodeURIComponent(requests[0]!)).toContain('"bookmark"');
});

test("signed out, recent searches stay on the device and can be cleared", async ({ page }, testInfo) => {
  const labels = labelsOf(testInfo.project.name);
  await page.goto("/");
  await focusBox(page);
  await box(page).fill("weekend");
  await box(page).press("Enter");
  await expect(page).toHaveURL(/\/search\/pins\/\?q=weekend&rs=typed$/);
  expect(await page.evaluate(() => localStorage.getItem("pinloom:search:recent"))).toContain("weekend");

  // The box offers it as a recent search on an empty term.
  await page.goto("/");
  await focusBox(page);
  await box(page).press("ArrowDown");
  const recentGroup = page.getByRole("group", { name: labels.recent });
  await expect(recentGroup.getByRole("option", { name: /weekend/ })).toBeVisible();

  // The landing lists it; Clear all empties the device list.
  await page.goto("/search/pins/");
  const section = page.locator("section.search-recent");
  await expect(section).toHaveAttribute("data-hydrated", "true");
  await expect(section.getByRole("link", { name: "weekend" })).toBeVisible();
  await section.getByRole("button", { name: labels.clearAll }).click();
  await expect(section.getByRole("link")).toHaveCount(0);
  expect(await page.evaluate(() => localStorage.getItem("pinloom:search:recent"))).toBeNull();
});

test("signed in, recent searches live on the server and can be cleared", async ({ page }, testInfo) => {
  const labels = labelsOf(testInfo.project.name);
  // One account per project: the two projects run side by side and each clears its own list.
  await signIn(page, testInfo.project.name === "ar" ? "bakeandbloom" : "marlowandmain");
  const query = `budget ${testInfo.project.name}`;
  await page.goto(`/search/pins/?q=${encodeURIComponent(query).replace(/%20/g, "+")}`);
  await page.goto("/search/pins/");
  const section = page.locator("section.search-recent");
  await expect(section.getByRole("link", { name: query })).toBeVisible();
  // Not on this device: the list is the server's.
  expect(await page.evaluate(() => localStorage.getItem("pinloom:search:recent"))).toBeNull();
  await expect(section).toHaveAttribute("data-hydrated", "true");
  const cleared = page.waitForResponse((response) => response.url().includes("/resource/UserRecentSearchesResource/delete/"));
  await section.getByRole("button", { name: labels.clearAll }).click();
  await expect(section.getByRole("link")).toHaveCount(0);
  expect((await cleared).status()).toBe(200);
  await page.reload();
  await expect(page.locator("section.search-recent").getByRole("link")).toHaveCount(0);
});

test("crawlers get complete HTML without script, and a 404 for an unknown scope", async ({ browser }) => {
  const context = await browser.newContext({ userAgent: GOOGLEBOT });
  const page = await context.newPage();
  const response = await page.goto("/search/pins/?q=ideas");
  expect(response!.status()).toBe(200);
  await expect(page.locator("#search-grid > li")).toHaveCount(25);
  await expect(page.locator('script:not([type="application/ld+json"])')).toHaveCount(0);
  await expect(page.locator('script[type="application/ld+json"]').first()).toBeAttached();
  const missing = await page.goto("/search/nope/?q=ideas");
  expect(missing!.status()).toBe(404);
  await context.close();
});

test("an empty result is noindex", async ({ page }) => {
  await page.goto("/search/pins/?q=zzqxv+wqxz");
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
  await expect(page.locator("#search-grid")).toHaveCount(0);
});
