// The main journeys on a phone, in English and in Arabic (right to left): an iPhone's Safari at
// 390×844 with touch opens a pin from the home grid, searches from the header, saves a pin and
// comments (signed in). On every page it passes through: nothing scrolls sideways, grids show
// two columns (the spec's small breakpoint is under 768 px), and the header's controls and the
// pin's Save are at least 44×44 px to the finger.
import { randomBytes } from "node:crypto";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { pageResource, signIn, unsaveEverywhere } from "./session.ts";
import { localeText, projectOf, type Project } from "./strings.ts";

// A real phone browser: HeadlessChrome would be read as a bot and get pages without script.
const IPHONE_SAFARI =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1";
const PHONE = { width: 390, height: 844 };
const MIN_TAP = 44;

test.use({ userAgent: IPHONE_SAFARI, viewport: PHONE, isMobile: true, hasTouch: true });

const text = localeText({ search: "search", auth: "auth", save: "save", c: "comments-ui" });

/** Per project: a pin nobody else's test saves, and who comments on which pin. */
const CAST = {
  en: { savePin: "100031", commenter: "sam", commentPin: "100001" },
  ar: { savePin: "100034", commenter: "marlowandmain", commentPin: "100004" },
} as const;
const WEEKNIGHT = "Weeknight dinners";

/**
 * Nothing wider than the screen. A mobile browser widens its layout viewport to fit content that
 * overflows, so innerWidth alone would follow the overflow: it must also still be the phone's width.
 */
async function expectNoSideScroll(page: Page): Promise<void> {
  const { scrollWidth, viewportWidth } = await page.evaluate(() => ({ scrollWidth: document.scrollingElement!.scrollWidth, viewportWidth: window.innerWidth }));
  expect(viewportWidth).toBe(PHONE.width);
  expect(scrollWidth).toBeLessThanOrEqual(viewportWidth);
}

/** The distinct column positions of a grid's cells (which fill each column in turn): its column count. */
async function gridColumns(grid: Locator): Promise<number> {
  await expect(grid.locator(".pin-cell").nth(3)).toBeAttached();
  return grid.evaluate((list) => new Set([...list.querySelectorAll(":scope > .pin-cell")].map((cell) => Math.round(cell.getBoundingClientRect().left))).size);
}

async function expectTapTarget(control: Locator): Promise<void> {
  await expect(control).toBeVisible();
  const box = (await control.boundingBox())!;
  const what = await control.evaluate((el) => el.outerHTML.slice(0, 100));
  expect(box.width, `width of ${what}`).toBeGreaterThanOrEqual(MIN_TAP);
  expect(box.height, `height of ${what}`).toBeGreaterThanOrEqual(MIN_TAP);
}

const header = (page: Page) => page.locator("header.site-header");
const searchBox = (page: Page) => header(page).getByRole("combobox");
const searchButton = (page: Page, project: Project) => header(page).getByRole("button", { name: text(project, "search.box.submit"), exact: true });

/** The header's controls: the logo, the search field and its button, and the account corner. */
async function expectHeaderTapTargets(page: Page, project: Project, signedIn: boolean): Promise<void> {
  await expectTapTarget(header(page).locator("a.logo"));
  await expectTapTarget(searchBox(page));
  await expectTapTarget(searchButton(page, project));
  if (signedIn) {
    await expectTapTarget(header(page).locator(".account-button"));
  } else {
    for (const name of [text(project, "auth.header.logIn"), text(project, "auth.header.signUp")]) {
      const control = header(page).getByRole("link", { name, exact: true }).or(header(page).getByRole("button", { name, exact: true }));
      await expectTapTarget(control);
      // One line: a wrapped label would be a taller, narrower pill.
      const lineHeight = await control.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
      expect((await control.boundingBox())!.height).toBeLessThan(lineHeight * 2);
    }
  }
  // The search field is usable: most of the row, not a sliver beside the other controls.
  expect((await searchBox(page).boundingBox())!.width).toBeGreaterThanOrEqual(PHONE.width / 2);
}

test("a visitor opens a pin from the two-column home grid", async ({ page }, testInfo) => {
  const project = projectOf(testInfo.project.name);
  await page.goto("/");
  const grid = page.locator("ul.pin-grid").first();
  expect(await gridColumns(grid)).toBe(2);
  await expectHeaderTapTargets(page, project, false);
  await expectNoSideScroll(page);

  const first = grid.locator(".pin-link").first();
  const href = (await first.getAttribute("href"))!;
  await first.tap();
  await expect(page).toHaveURL(new RegExp(`${href}$`));
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expectHeaderTapTargets(page, project, false);
  await expectNoSideScroll(page);
  // The related pins below the close-up are a two-column grid too.
  const related = page.locator("#related-grid");
  await related.scrollIntoViewIfNeeded();
  expect(await gridColumns(related)).toBe(2);
  await expectNoSideScroll(page);
});

test("search from the header with the keyboard's field and the Search button", async ({ page }, testInfo) => {
  const project = projectOf(testInfo.project.name);
  await page.goto("/");
  await searchBox(page).tap();
  await expect(searchBox(page)).toBeFocused();
  await searchBox(page).pressSequentially("ideas");
  await searchButton(page, project).tap();
  await expect(page).toHaveURL(/\/search\/pins\/\?q=ideas(&|$)/);
  await expect(searchBox(page)).toHaveValue("ideas");
  const results = page.locator("ul.pin-grid").first();
  expect(await gridColumns(results)).toBe(2);
  await expectHeaderTapTargets(page, project, false);
  await expectNoSideScroll(page);
});

test("save a pin from its close-up, then undo it from the toast", async ({ page }, testInfo) => {
  const project = projectOf(testInfo.project.name);
  const pin = CAST[project].savePin;
  await signIn(page, "demo");
  await page.goto(`/pin/${pin}/`);
  await unsaveEverywhere(page, pin);
  await page.reload();
  await expectHeaderTapTargets(page, project, true);
  await expectNoSideScroll(page);

  const save = page.locator(".closeup-actions").getByRole("button", { name: text(project, "save.save"), exact: true });
  await save.scrollIntoViewIfNeeded();
  await expectTapTarget(save);
  await save.tap();
  const picker = page.getByRole("dialog", { name: text(project, "save.pickerTitle") });
  await expect(picker).toBeVisible();
  await expectNoSideScroll(page);
  await picker.getByRole("option", { name: new RegExp(WEEKNIGHT) }).first().tap();
  await expect(picker).toBeHidden();
  const toast = page.locator("#shell-toasts");
  await expect(toast).toContainText(text(project, "save.savedTo", { board: WEEKNIGHT }));
  await expect(page.locator(".closeup-actions .save-status").getByRole("link", { name: WEEKNIGHT })).toBeVisible();

  const undo = toast.getByRole("button", { name: text(project, "save.undo") });
  const undone = page.waitForResponse((response) => response.url().includes("/resource/RepinResource/delete/"));
  await undo.tap();
  expect((await undone).status()).toBe(200);
  await expect(toast).toContainText(text(project, "save.removedFrom", { board: WEEKNIGHT }));
  await expect(save).toBeVisible();
  await expectNoSideScroll(page);
});

test("comment on a pin, then take the comment back", async ({ page }, testInfo) => {
  const project = projectOf(testInfo.project.name);
  const cast = CAST[project];
  await signIn(page, cast.commenter);
  await page.goto(`/pin/${cast.commentPin}/`);
  const island = page.locator(".comments-island[data-hydrated='true']");
  await expect(island).toBeVisible({ timeout: 15_000 });
  await expectHeaderTapTargets(page, project, true);

  const mark = `t${randomBytes(5).toString("hex")}`;
  const composer = island.getByRole("textbox", { name: text(project, "c.composerLabel"), exact: true });
  await composer.tap();
  await composer.fill(`from my phone ${mark}`);
  const post = island.getByRole("button", { name: text(project, "c.post"), exact: true }).first();
  await expectTapTarget(post);
  const answered = page.waitForResponse((r) => r.url().includes("/resource/AggregatedCommentResource/create/"));
  await post.tap();
  const response = await answered;
  expect(response.status()).toBe(200);
  const created = ((await response.json()) as { resource_response: { data: { id: string } } }).resource_response.data;
  await expect(island.locator(`li[data-comment-id="${created.id}"]`)).toContainText(mark);
  await expectNoSideScroll(page);

  // Leave the pin as it was.
  const removed = await pageResource(page, "AggregatedCommentResource", "delete", { commentId: created.id });
  expect(removed.status).toBe(200);
});
