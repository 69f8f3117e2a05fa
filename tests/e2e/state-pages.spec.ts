// The pages the state implies, in a real browser in English and Arabic: the Today tab reached
// from the navigation (and read at phone width), a board section reached from its board, and
// the repost link /pin/{id}/repin/ opening the save picker on the close-up, signed in and
// after logging in from signed out.
import { expect, test, type Page } from "@playwright/test";
import { expectNoViolations } from "./axe.ts";
import { DEMO_PASSWORD, signIn } from "./session.ts";
import { localeText, projectOf } from "./strings.ts";

const text = localeText({ common: "common", articles: "articles", profile: "profile", save: "save", auth: "auth" });
/** Pins the save journeys leave alone: only the picker opens here, nothing is saved. */
const REPIN = { en: "100017", ar: "100020" } as const;
const picker = (page: Page, project: "en" | "ar") => page.getByRole("dialog", { name: text(project, "save.pickerTitle") });

test("the Today tab: from the navigation to a day's stories and into one", async ({ page }, testInfo) => {
  const project = projectOf(testInfo.project.name);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/");
  await page.getByRole("navigation", { name: text(project, "common.site.mainNavigation") }).getByRole("link", { name: text(project, "common.site.today"), exact: true }).click();
  await expect(page).toHaveURL(/\/today\/$/);
  await expect(page.getByRole("heading", { level: 1, name: text(project, "articles.today.heading") })).toBeVisible();
  const days = page.locator(".today-day");
  expect(await days.count()).toBeGreaterThan(0);
  const first = days.first().locator(".today-card a").first();
  const title = (await first.locator(".today-card-title").textContent())!.trim();
  await expectNoViolations(page, "/today/");
  await first.click();
  await expect(page).toHaveURL(/\/today\/(shop|trending|best|article)\/[^/]+\/\d+\/$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
});

test("the Today tab fits a phone: no sideways scroll", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/today/");
  await expect(page.locator(".today-card").first()).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

test("a board section: from its board to its own page of pins", async ({ page }, testInfo) => {
  const project = projectOf(testInfo.project.name);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/demo/weeknight-dinners/");
  await page.getByRole("link", { name: "Pasta", exact: true }).click();
  await expect(page).toHaveURL(/\/demo\/weeknight-dinners\/pasta\/$/);
  await expect(page.getByRole("heading", { level: 1, name: "Pasta" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Weeknight dinners", exact: true })).toHaveAttribute("href", "/demo/weeknight-dinners/");
  await expect(page.getByRole("list", { name: text(project, "profile.section.pins") }).locator('a[href^="/pin/"]').first()).toBeVisible();
  await expectNoViolations(page, "/demo/weeknight-dinners/pasta/");
  // A secret board's section is a missing page to a visitor.
  const hidden = await page.goto("/demo/surprise-party-for-maya/decorations/");
  expect(hidden?.status()).toBe(404);
});

test("the repost link opens the save picker on the close-up", async ({ page }, testInfo) => {
  const project = projectOf(testInfo.project.name);
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, "demo");
  await page.goto(`/pin/${REPIN[project]}/repin/`);
  await expect(page).toHaveURL(new RegExp(`/pin/${REPIN[project]}/$`));
  await expect(picker(page, project)).toBeVisible({ timeout: 15_000 });
  await expectNoViolations(page, "the picker opened by the repost link");
  await page.keyboard.press("Escape");
  await expect(picker(page, project)).toBeHidden();
  // Taken once: a reload shows the close-up without the picker.
  await page.reload();
  await expect(page.locator(".closeup")).toBeVisible();
  await expect(picker(page, project)).toBeHidden();
});

test("signed out, the repost link asks to log in and then opens the picker", async ({ page }, testInfo) => {
  const project = projectOf(testInfo.project.name);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/pin/${REPIN[project]}/repin/`);
  await expect(page).toHaveURL(new RegExp(`/login/\\?next=/pin/${REPIN[project]}/repin/$`));
  const form = page.locator(".auth-page");
  await form.getByLabel(text(project, "auth.login.usernameOrEmail")).fill(project === "en" ? "bakeandbloom" : "marlowandmain");
  await form.getByLabel(text(project, "auth.login.password"), { exact: true }).fill(DEMO_PASSWORD);
  await form.getByRole("button", { name: text(project, "auth.login.submit"), exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/pin/${REPIN[project]}/$`), { timeout: 20_000 });
  await expect(picker(page, project)).toBeVisible({ timeout: 15_000 });
});
