// A visitor's first pages in a real browser, in every project's language (Arabic and Hebrew
// right to left).
import { expect, test } from "@playwright/test";
import { ORGANIC_ONLY } from "./organic.ts";
import { localeProjectOf, localeText, type LocaleProject } from "./strings.ts";

test.use(ORGANIC_ONLY);

const text = localeText({ common: "common" });
const RTL: ReadonlySet<LocaleProject> = new Set(["ar", "he"]);

test("the home page shows a grid of pins whose images load", async ({ page }, testInfo) => {
  const lang = localeProjectOf(testInfo.project.name);
  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  await expect(page.locator("html")).toHaveAttribute("dir", RTL.has(lang) ? "rtl" : "ltr");
  await expect(page.getByRole("heading", { level: 1, name: text(lang, "common.home.heading") })).toBeVisible();
  const grid = page.getByRole("list", { name: text(lang, "common.home.heading") });
  const links = grid.getByRole("link");
  expect(await links.count()).toBeGreaterThanOrEqual(20);
  // The first row's images are real, decoded pictures with their reserved size.
  const firstImage = grid.getByRole("img").first();
  await expect(firstImage).toBeVisible();
  await expect.poll(() => firstImage.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
});

test("a visitor opens a pin and copies its link through the island", async ({ page, context, baseURL }, testInfo) => {
  const lang = localeProjectOf(testInfo.project.name);
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL! });
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts.push(request.url());
  });
  await page.goto("/");
  const first = page.getByRole("list", { name: text(lang, "common.home.heading") }).getByRole("link").first();
  const href = await first.getAttribute("href");
  expect(href).toMatch(/^\/pin\/\d+\/$/);
  await first.click();
  await expect(page).toHaveURL(new RegExp(`${href}$`));
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.locator("script#pinloom-context")).toHaveCount(1);

  // Reading costs no React: the page's own small scripts (shell, feed pager) load, but no
  // island code until the person reaches for it.
  const islandCode = () => scripts.filter((url) => /\/_astro\/(?:CopyLinkButton|react|client|jsx-runtime)\./.test(url));
  await page.waitForLoadState("networkidle");
  expect(islandCode()).toEqual([]);
  // The copy-link island, the header's Log in / Sign up, the signed-out Save (src/accounts),
  // the comments island's log-in composer (src/comments) and the header's search box
  // (src/search), all waiting.
  await expect(page.locator("astro-island[ssr]")).toHaveCount(5);
  await expect(page.locator('astro-island[ssr][component-url*="CopyLinkButton"]')).toHaveCount(1);

  // The very first press works: it is held, the island hydrates, and the press is replayed.
  await page.getByRole("button", { name: text(lang, "common.pin.copyLink") }).click();
  await expect(page.getByRole("status")).toHaveText(text(lang, "common.pin.linkCopied"));
  await expect(page.locator("astro-island:not([ssr])")).toHaveCount(1);
  await expect(page.locator('astro-island:not([ssr])[component-url*="CopyLinkButton"]')).toHaveCount(1);
  expect(islandCode().length).toBeGreaterThan(0);
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toMatch(new RegExp(`/pin/\\d+/$`));
});

test("a keyboard user hydrates and uses the island too", async ({ page, context, baseURL }, testInfo) => {
  const lang = localeProjectOf(testInfo.project.name);
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL! });
  const href = await (async () => {
    await page.goto("/");
    return page.locator('a[href^="/pin/"]').first().getAttribute("href");
  })();
  await page.goto(href!);
  await page.getByRole("button", { name: text(lang, "common.pin.copyLink") }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status")).toHaveText(text(lang, "common.pin.linkCopied"));
});

test("the pages run under the CSP without a single violation", async ({ page }, testInfo) => {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  // What the console does not show: a blocked `eval` a script caught is still a violation event.
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => console.warn(`Content Security Policy: ${event.violatedDirective} from ${event.sourceFile}`));
  });
  await page.goto("/");
  const href = await page.locator('a[href^="/pin/"]').first().getAttribute("href");
  await page.goto(href!);
  await page.getByRole("button", { name: text(localeProjectOf(testInfo.project.name), "common.pin.copyLink") }).click();
  await expect(page.locator("astro-island:not([ssr])")).toHaveCount(1);
  expect(violations).toEqual([]);
});

test("a missing pin is a real 404 page", async ({ page }, testInfo) => {
  const lang = localeProjectOf(testInfo.project.name);
  const response = await page.goto("/pin/1/");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: text(lang, "common.errors.notFound.title") })).toBeVisible();
  await expect(page.getByRole("link", { name: text(lang, "common.errors.notFound.home") })).toBeVisible();
});

test("keyboard users can skip to the content", async ({ page }, testInfo) => {
  const lang = localeProjectOf(testInfo.project.name);
  await page.goto("/");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: text(lang, "common.site.skipToContent") });
  await expect(skip).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/#main$/);
});

const EXECUTABLE_SCRIPT = 'script:not([type="application/ld+json"]):not([type="application/json"])';

test("a crawler gets the page with no executable script, and its structured data", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ userAgent: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", javaScriptEnabled: true });
  const page = await context.newPage();
  await page.goto(`${baseURL}/`);
  await expect(page.locator(EXECUTABLE_SCRIPT)).toHaveCount(0);
  const pinHref = await page.locator('a[href^="/pin/"]').first().getAttribute("href");
  await page.goto(`${baseURL}${pinHref}`);
  await expect(page.locator(EXECUTABLE_SCRIPT)).toHaveCount(0);
  expect(await page.locator('script[type="application/ld+json"]').count()).toBeGreaterThanOrEqual(2);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await context.close();
});

test("a seeded video pin plays, with captions available", async ({ page }) => {
  // Pin 100002 is the seeded portrait video (docs/demo-accounts.md): WebM VP9 and MP4 H.264.
  const response = await page.goto("/pin/100002/");
  expect(response?.status()).toBe(200);
  const video = page.locator("video");
  await expect(video).toHaveAttribute("poster", /\/media\/.+\.jpg$/);
  await expect(video.locator("track[kind=captions]")).toHaveCount(2);
  await video.evaluate(async (element: HTMLVideoElement) => {
    element.muted = true;
    await element.play();
  });
  await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 10_000 }).toBeGreaterThan(0.3);
  const size = await video.evaluate((element: HTMLVideoElement) => [element.videoWidth, element.videoHeight]);
  expect(size).toEqual([360, 640]);
});
