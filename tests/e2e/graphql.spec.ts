// A browser on a pin page reads related pins through persisted GraphQL: scrolling a
// close-up's related feed asks POST /_/graphql/ with the related query's hash and the page's
// cursor (never query text, never the resource), and appends what it answers.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { QUERY_IDS } from "~/graphql/query-ids.ts";

const relatedHeading = (project: string) => {
  const common = JSON.parse(readFileSync(join(import.meta.dirname, "../../locales", project === "ar" ? "ar_SA" : "en_US", "common.json"), "utf8")) as {
    pin: { related: { heading: string } };
  };
  return common.pin.related.heading;
};

test("scrolling a close-up's related pins reads the next page through the persisted query", async ({ page }, testInfo) => {
  const resourceCalls: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/resource/RelatedPinsFeedResource/")) resourceCalls.push(request.url());
  });
  await page.goto("/pin/100001/");
  // The page embeds its preloaded queries' answers for the islands.
  const embedded = JSON.parse((await page.locator("script#pinloom-graphql").textContent()) ?? "[]") as Array<{ queryName: string }>;
  expect(embedded.map((entry) => entry.queryName)).toContain("CloseupRelatedModulesFeedQuery");
  const bookmark = await page.locator("[data-feed-query]").getAttribute("data-bookmark");

  const cells = page.getByRole("list", { name: relatedHeading(testInfo.project.name) }).getByRole("listitem");
  await expect(cells).toHaveCount(12);
  const misses = page.evaluate(() => new Promise<string>((resolve) => addEventListener("pinloom:graphql-miss", (event) => resolve((event as CustomEvent<{ queryName: string }>).detail.queryName), { once: true })));
  const graphqlRequest = page.waitForRequest((request) => request.url().endsWith("/_/graphql/") && request.method() === "POST");
  await page.evaluate(() => scrollTo(0, document.body.scrollHeight));
  const request = await graphqlRequest;

  expect(request.postDataJSON()).toEqual({ queryHash: QUERY_IDS.CloseupRelatedModulesFeedQuery, variables: { pinId: "100001", cursor: bookmark } });
  const headers = await request.allHeaders();
  expect(headers["x-pinloom-query-name"]).toBe("CloseupRelatedModulesFeedQuery");
  expect(headers["x-requested-with"]).toBe("XMLHttpRequest");
  expect(headers["x-csrftoken"]).toMatch(/^[a-f0-9]{64}$/);
  const response = await request.response();
  expect(response?.status()).toBe(200);
  // The next page was not preloaded: a miss, then the network.
  expect(await misses).toBe("CloseupRelatedModulesFeedQuery");
  await expect.poll(() => cells.count()).toBeGreaterThan(12);
  const hrefs = await cells.getByRole("link").evaluateAll((links) => links.map((link) => link.getAttribute("href")));
  expect(new Set(hrefs).size).toBe(hrefs.length);
  expect(resourceCalls).toEqual([]);
});
