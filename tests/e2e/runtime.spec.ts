// The client runtime in a real browser: the ready flag, a new deploy turning the next
// link into a full reload, the spec §7 headers on an island's request, and no script for bots.
import { expect, test, type Page } from "@playwright/test";

const PIN = "/pin/100001/";
const ready = (page: Page) => expect(page.locator("html")).toHaveAttribute("data-app-ready", "true");

test("start-up sets the ready flag, with no errors", async ({ page }) => {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(PIN);
  await ready(page);
  await expect(page.locator("html")).not.toHaveAttribute("data-forced-reload", /.*/);
  expect(errors).toEqual([]);
});

test("a shared render fetches the viewer's state; a new version turns the next link into a forced reload", async ({ page }) => {
  // Every API answer (the state, events, GraphQL, the /v3 calls such as the cookie-consent
  // question) comes from "another deploy", as after a real one: an answer with our own version
  // would count as a rollback and cancel the reload.
  await page.route(/\/(?:_\/|resource\/|v3\/)/, async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, headers: { ...response.headers(), "x-app-version": "e2e-next-deploy" } });
  });
  const state = page.waitForRequest((request) => request.url().includes("/_/_/state?source_url="));
  await page.goto(PIN);
  expect(new URL((await state).url()).searchParams.get("source_url")).toBe(PIN);
  await ready(page);
  expect(await page.evaluate(() => localStorage.getItem("pinloom:seen-version"))).toContain("e2e-next-deploy");

  await page.locator("header a.logo").click();
  await page.waitForURL((url) => url.pathname === "/");
  await ready(page);
  // The next start-up read (and cleared) the flag the forced reload left.
  await expect(page.locator("html")).toHaveAttribute("data-forced-reload", "true");
  expect(await page.evaluate(() => sessionStorage.getItem("pinloom:forced-reload"))).toBeNull();
});

test("without a new version, links are ordinary navigations", async ({ page }) => {
  await page.goto(PIN);
  await ready(page);
  await page.locator("header a.logo").click();
  await page.waitForURL((url) => url.pathname === "/");
  await ready(page);
  await expect(page.locator("html")).not.toHaveAttribute("data-forced-reload", /.*/);
});

test("a request from the page's feed carries the spec §7 headers, forced country included", async ({ page }) => {
  await page.goto(`${PIN}?force_country=fr`);
  await ready(page);
  // The close-up's related feed pages through the persisted GraphQL query (src/graphql).
  const feedRequest = page.waitForRequest((request) => request.url().endsWith("/_/graphql/") && request.method() === "POST");
  await page.evaluate(() => scrollTo(0, document.body.scrollHeight));
  const headers = (await feedRequest).headers();
  expect(headers).toMatchObject({
    accept: "application/json",
    "content-type": "application/json",
    "x-requested-with": "XMLHttpRequest",
    "x-pinloom-source-url": `${PIN}?force_country=fr`,
    "x-pinloom-app-state": "active",
    "x-pinloom-force-country": "FR",
    "x-pinloom-query-name": "CloseupRelatedModulesFeedQuery",
  });
  expect(headers["x-csrftoken"]).toMatch(/^[a-f0-9]{64}$/);
});

test("showing the page again (app resume) refreshes the viewer's state", async ({ page }) => {
  await page.goto(PIN);
  await ready(page);
  const refreshed = page.waitForRequest((request) => request.url().includes("/_/_/state?source_url="));
  // What the events script announces when a hidden page becomes visible again.
  await page.evaluate(() => dispatchEvent(new CustomEvent("pinloom:app-resume")));
  expect(new URL((await refreshed).url()).searchParams.get("source_url")).toBe(PIN);
});

test("a bot gets the page with no script and no runtime", async ({ browser }) => {
  const context = await browser.newContext({ userAgent: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" });
  const page = await context.newPage();
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts.push(request.url());
  });
  await page.goto(PIN);
  await page.waitForLoadState("load");
  expect(scripts).toEqual([]);
  await expect(page.locator("#pinloom-manifest")).toHaveCount(0);
  await expect(page.locator("script:not([type='application/ld+json'])")).toHaveCount(0);
  await expect(page.locator("html")).not.toHaveAttribute("data-app-ready", /.*/);
  await context.close();
});
