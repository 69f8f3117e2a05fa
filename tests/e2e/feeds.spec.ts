// Feeds in a real browser: the close-up's related pins and a profile's created pins load a
// second page on scroll; the profile view (pin size, board sort) persists on this device.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test, type Page } from "@playwright/test";

type Tree = { [key: string]: string | Tree };
const read = (locale: string, namespace: string) => JSON.parse(readFileSync(join(import.meta.dirname, "../../locales", locale, `${namespace}.json`), "utf8")) as Tree;
const pick = (tree: Tree, path: string) => path.split(".").reduce<Tree | string>((node, key) => (node as Tree)[key]!, tree) as string;
const strings = (project: string) => {
  const locale = project === "ar" ? "ar_SA" : "en_US";
  const common = read(locale, "common");
  const profile = read(locale, "profile");
  return {
    related: pick(common, "pin.related.heading"),
    created: pick(profile, "profile.created"),
    density: pick(profile, "view.density"),
    compact: pick(profile, "view.densities.compact"),
    alphabetical: pick(profile, "view.sort.alphabetical"),
  };
};

function watchCsp(page: Page): string[] {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

test("the related feed under a close-up loads its next page on scroll", async ({ page }, testInfo) => {
  const t = strings(testInfo.project.name);
  const violations = watchCsp(page);
  await page.goto("/pin/100001/");
  const cells = page.getByRole("list", { name: t.related }).getByRole("listitem");
  await expect(cells).toHaveCount(12);
  await expect(page.locator('section.related a[rel="next"]')).toBeHidden();
  await page.evaluate(() => scrollTo(0, document.body.scrollHeight));
  await expect.poll(() => cells.count()).toBeGreaterThan(12);
  // Appended cells are real links with sized images, and none repeats.
  const hrefs = await cells.getByRole("link").evaluateAll((links) => links.map((link) => link.getAttribute("href")));
  expect(new Set(hrefs).size).toBe(hrefs.length);
  await expect(cells.nth(12).locator("img")).toHaveAttribute("width", /^\d+$/);
  expect(violations).toEqual([]);
});

test("a profile's created pins load their next page on scroll", async ({ page }, testInfo) => {
  const t = strings(testInfo.project.name);
  const violations = watchCsp(page);
  await page.goto("/demo/");
  const cells = page.getByRole("list", { name: t.created, exact: true }).getByRole("listitem");
  await expect(cells).toHaveCount(25);
  await page.locator('[data-feed-grid="profile-created"]').scrollIntoViewIfNeeded();
  await expect.poll(() => cells.count()).toBeGreaterThan(25);
  expect(violations).toEqual([]);
});

test("the profile view persists across a reload and re-sorts boards", async ({ page }, testInfo) => {
  const t = strings(testInfo.project.name);
  const violations = watchCsp(page);
  await page.goto("/demo/");
  const html = page.locator("html");
  await expect(html).toHaveClass(/pv-profile-density-default/);
  await page.getByLabel(t.density).selectOption("compact");
  await expect(html).toHaveClass(/pv-profile-density-compact/);
  await page.reload();
  // Applied before paint by the inline script, and the control shows it.
  await expect(html).toHaveClass(/pv-profile-density-compact/);
  await expect(page.getByLabel(t.density)).toHaveValue("compact");

  // Board sort: a real link the server renders, remembered for the next plain visit.
  await page.getByRole("link", { name: t.alphabetical, exact: true }).click();
  await expect(page).toHaveURL(/\?sort=alphabetical$/);
  const names = page.locator("#profile-boards .board-name");
  const sorted = await names.allTextContents();
  expect(sorted).toEqual([...sorted].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0)));
  await page.goto("/demo/");
  await expect.poll(() => names.allTextContents()).toEqual(sorted);
  await expect(page.getByRole("link", { name: t.alphabetical, exact: true })).toHaveAttribute("aria-current", "true");
  expect(violations).toEqual([]);
});
