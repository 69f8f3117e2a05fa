// The save island in a real browser, in English and in Arabic (right to left), against the demo
// world: save a pin to a board from the close-up and undo it from the toast, save into a
// section with the keyboard only, create a board inline (the 51st character refused), save
// from a grid cell, and a signed-out Save that resumes in the picker after logging in.
// Each project saves its own pins, and every test leaves its pin unsaved (the e2e state is
// kept between runs), so the two projects can run side by side.
import { randomInt } from "node:crypto";
import { readFileSync } from "node:fs";
import { expect, test, type BrowserContext, type Cookie, type Page } from "@playwright/test";
import { DEMO_PASSWORD, signIn, unsaveEverywhere } from "./session.ts";

type Strings = { [key: string]: string | Strings };
const load = (locale: string, ns: string) => JSON.parse(readFileSync(new URL(`../../locales/${locale}/${ns}.json`, import.meta.url), "utf8")) as Strings;
const STRINGS = {
  en: { save: load("en_US", "save"), auth: load("en_US", "auth"), shell: load("en_US", "shell") },
  ar: { save: load("ar_SA", "save"), auth: load("ar_SA", "auth"), shell: load("ar_SA", "shell") },
};
type Project = keyof typeof STRINGS;
const projectOf = (name: string): Project => (name === "ar" ? "ar" : "en");
function text(project: Project, path: string, values: Record<string, string | number> = {}): string {
  const [ns, ...keys] = path.split(".");
  let node: string | Strings = STRINGS[project][ns as "save"];
  for (const key of keys) node = (node as Strings)[key]!;
  return (node as string).replace(/\{\{(\w+)\}\}/g, (_whole, name: string) => String(values[name]));
}

/** Per project: pins nobody in these tests owns, so unsaving them never touches the seed's own saves. */
const PINS = {
  en: { closeup: "100005", section: "100006", create: "100007", resume: "100025", gridFrom: "100002" },
  ar: { closeup: "100012", section: "100021", create: "100003", resume: "100008", gridFrom: "100019" },
} as const;
const WEEKNIGHT = { id: "10002", name: "Weeknight dinners", pasta: "Pasta" };

// One API login per project and worker: the session cookie is reused by every test after it.
let demoCookies: Cookie[] | null = null;
async function signInDemo(page: Page, context: BrowserContext): Promise<void> {
  if (demoCookies) await context.addCookies(demoCookies);
  else {
    await signIn(page, "demo");
    demoCookies = await context.cookies();
  }
}

const toast = (page: Page) => page.locator("#shell-toasts");
const picker = (page: Page, project: Project) => page.getByRole("dialog", { name: text(project, "save.pickerTitle") });
const closeupSave = (page: Page, project: Project) => page.locator(".closeup-actions").getByRole("button", { name: text(project, "save.save"), exact: true });

test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
});

test("a press on Save the moment the close-up appears opens the picker", async ({ page, context }, testInfo) => {
  const project = projectOf(testInfo.project.name);
  await signInDemo(page, context);
  await page.goto(`/pin/${PINS[project].closeup}/`, { waitUntil: "domcontentloaded" });
  await closeupSave(page, project).click();
  await expect(picker(page, project)).toBeVisible();
});

test("save a pin to a board from the close-up, see the toast, undo it", async ({ page, context }, testInfo) => {
  const project = projectOf(testInfo.project.name);
  const pin = PINS[project].closeup;
  await signInDemo(page, context);
  await page.goto(`/pin/${pin}/`);
  await unsaveEverywhere(page, pin);
  await page.reload();

  const save = closeupSave(page, project);
  await save.click();
  const dialog = picker(page, project);
  await expect(dialog).toBeVisible();
  // The filter box has focus; Escape closes and gives focus back to Save.
  await expect(dialog.getByRole("searchbox", { name: text(project, "save.filterLabel") })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(save).toBeFocused();

  await save.click();
  await dialog.getByRole("option", { name: new RegExp(WEEKNIGHT.name) }).first().click();
  await expect(dialog).toBeHidden();
  const saved = text(project, "save.savedTo", { board: WEEKNIGHT.name });
  await expect(toast(page)).toContainText(saved);
  const status = page.locator(".closeup-actions .save-status");
  await expect(status.getByRole("link", { name: WEEKNIGHT.name })).toBeVisible();

  // The toast's Undo is a real button; pressing it unsaves (RepinResource.delete).
  const undone = page.waitForResponse((response) => response.url().includes("/resource/RepinResource/delete/"));
  await toast(page).getByRole("button", { name: text(project, "save.undo") }).click();
  expect((await undone).status()).toBe(200);
  await expect(toast(page)).toContainText(text(project, "save.removedFrom", { board: WEEKNIGHT.name }));
  await expect(closeupSave(page, project)).toBeVisible();
  // The server agrees: after a reload the pin is not shown saved.
  await page.reload();
  await expect(closeupSave(page, project)).toBeVisible();
  await expect(status.getByRole("link")).toHaveCount(0);
});

test("a refused save shows saved at once, then reverts and says the server's words", async ({ page, context }, testInfo) => {
  const project = projectOf(testInfo.project.name);
  const pin = PINS[project].closeup;
  await signInDemo(page, context);
  await page.goto(`/pin/${pin}/`);
  await unsaveEverywhere(page, pin);
  await page.reload();
  // The server refuses this one save (as it would for a board the viewer lost access to).
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const refusal = { resource_response: { status: "failure", code: 3, message: "You can't save to this board.", data: null } };
  await page.route("**/resource/RepinResource/create/", async (route) => {
    await held;
    await route.fulfill({ status: 403, contentType: "application/json", body: JSON.stringify(refusal) });
  });

  await closeupSave(page, project).click();
  await picker(page, project).getByRole("option", { name: new RegExp(WEEKNIGHT.name) }).first().click();
  // Optimistic: saved before the server has answered.
  const status = page.locator(".closeup-actions .save-status");
  await expect(status.getByRole("link", { name: WEEKNIGHT.name })).toBeVisible();
  release();
  await expect(toast(page).locator(".shell-toast-error")).toHaveText("You can't save to this board.");
  await expect(status.getByRole("link")).toHaveCount(0);
  await expect(closeupSave(page, project)).toBeVisible();
});

test("save into a section with the keyboard only, then unsave", async ({ page, context }, testInfo) => {
  const project = projectOf(testInfo.project.name);
  const pin = PINS[project].section;
  await signInDemo(page, context);
  await page.goto(`/pin/${pin}/`);
  await unsaveEverywhere(page, pin);
  await page.reload();

  await closeupSave(page, project).focus();
  await page.keyboard.press("Enter");
  const dialog = picker(page, project);
  await expect(dialog).toBeVisible();
  await page.keyboard.type("weeknight");
  const list = dialog.getByRole("listbox");
  await expect(list.getByRole("option")).toHaveCount(1);
  await page.keyboard.press("ArrowDown");
  await expect(list).toBeFocused();
  // Expand the board's sections: Right arrow, or Left in a right-to-left page.
  await page.keyboard.press(project === "ar" ? "ArrowLeft" : "ArrowRight");
  const pasta = list.getByRole("option", { name: text(project, "save.sectionOf", { section: WEEKNIGHT.pasta, board: WEEKNIGHT.name }) });
  await expect(pasta).toBeVisible();
  await page.keyboard.press("ArrowDown");
  await expect(pasta).toHaveAttribute("aria-selected", "true");
  await expect(list).toHaveAttribute("aria-activedescendant", (await pasta.getAttribute("id"))!);
  await page.keyboard.press("Enter");
  await expect(dialog).toBeHidden();
  await expect(toast(page)).toContainText(text(project, "save.savedToSection", { section: WEEKNIGHT.pasta, board: WEEKNIGHT.name }));
  // Focus did not fall to the page: it is on Unsave, which takes the save back.
  const unsave = page.locator(".closeup-actions").getByRole("button", { name: text(project, "save.unsave") });
  await expect(unsave).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(toast(page)).toContainText(text(project, "save.removedFrom", { board: WEEKNIGHT.name }));
  await expect(closeupSave(page, project)).toBeVisible();
});

test("create a board inline: 51 characters are refused, then it creates and saves in one go", async ({ page, context }, testInfo) => {
  const project = projectOf(testInfo.project.name);
  const pin = PINS[project].create;
  await signInDemo(page, context);
  await page.goto(`/pin/${pin}/`);
  await unsaveEverywhere(page, pin);
  await page.reload();

  await closeupSave(page, project).click();
  const dialog = picker(page, project);
  await dialog.getByRole("button", { name: text(project, "save.createBoard") }).click();
  const form = page.getByRole("dialog", { name: text(project, "save.createTitle") });
  const name = form.getByLabel(text(project, "save.nameLabel"));
  await expect(name).toBeFocused();
  await name.pressSequentially("x".repeat(51));
  await expect(name).toHaveValue("x".repeat(50));
  await expect(form.getByRole("alert")).toHaveText(text(project, "save.nameTooLong", { max: 50 }));
  await expect(form.getByText(text(project, "save.counter", { length: 50, max: 50 }))).toBeVisible();

  const title = `E2E ${project} ${randomInt(1_000_000)}`;
  await name.fill(title);
  await expect(form.getByText(text(project, "save.nameTooLong", { max: 50 }))).toHaveCount(0);
  await form.getByRole("switch", { name: text(project, "save.secretLabel") }).check();
  const created = page.waitForResponse((response) => response.url().includes("/resource/BoardResource/create/"));
  await form.getByRole("button", { name: text(project, "save.create"), exact: true }).click();
  const board = ((await (await created).json()) as { resource_response: { data: { id: string; privacy: string } } }).resource_response.data;
  expect(board.privacy).toBe("secret");
  await expect(form).toBeHidden();
  await expect(toast(page)).toContainText(text(project, "save.savedTo", { board: title }));
  await expect(page.locator(".closeup-actions .save-status").getByRole("link", { name: title })).toBeVisible();

  // Leave the demo account as it was: unsave, then delete the board.
  await page.locator(".closeup-actions").getByRole("button", { name: text(project, "save.unsave") }).click();
  await expect(toast(page)).toContainText(text(project, "save.removedFrom", { board: title }));
  const status = await page.evaluate(async (boardId) => {
    const csrf = /(?:^|;\s*)csrftoken=([^;]+)/.exec(document.cookie)?.[1] ?? "";
    const response = await fetch("/resource/BoardResource/delete/", {
      method: "POST",
      headers: { "content-type": "application/json", "x-csrftoken": decodeURIComponent(csrf), "x-requested-with": "XMLHttpRequest" },
      body: JSON.stringify({ options: { board_id: boardId } }),
    });
    return response.status;
  }, board.id);
  expect(status).toBe(200);
});

test("save from a grid cell, then unsave from the same button", async ({ page, context }, testInfo) => {
  const project = projectOf(testInfo.project.name);
  await signInDemo(page, context);
  await page.goto(`/pin/${PINS[project].gridFrom}/`);
  const grid = page.locator("#related-grid");
  await expect(grid).toHaveAttribute("data-save-ready", "");
  const cell = grid.locator("li.pin-cell").first();
  const pinId = /\/pin\/(\d+)\//.exec((await cell.locator("a.pin-link").getAttribute("href"))!)![1]!;
  await unsaveEverywhere(page, pinId);

  await cell.hover();
  const button = cell.getByRole("button", { name: text(project, "save.save"), exact: true });
  await expect(button).toBeVisible();
  await button.click();
  const dialog = picker(page, project);
  await dialog.getByRole("option", { name: new RegExp(WEEKNIGHT.name) }).first().click();
  await expect(toast(page)).toContainText(text(project, "save.savedTo", { board: WEEKNIGHT.name }));
  const savedButton = cell.getByRole("button", { name: text(project, "save.saved"), exact: true });
  await expect(savedButton).toHaveAttribute("aria-pressed", "true");
  await expect(savedButton).toBeFocused();
  await savedButton.click();
  await expect(toast(page)).toContainText(text(project, "save.removedFrom", { board: WEEKNIGHT.name }));
  await expect(cell.getByRole("button", { name: text(project, "save.save"), exact: true })).toHaveAttribute("aria-pressed", "false");
});

test("signed out, Save asks to log in; after logging in the picker opens for that pin", async ({ page }, testInfo) => {
  const project = projectOf(testInfo.project.name);
  const pin = PINS[project].resume;
  const account = project === "en" ? "bakeandbloom" : "marlowandmain";
  await page.goto(`/pin/${pin}/`);
  await page.locator(".closeup-actions").getByRole("link", { name: text(project, "auth.save.button"), exact: true }).click();
  const login = page.getByRole("dialog", { name: text(project, "auth.login.heading") });
  await expect(login).toBeVisible();
  expect(await page.evaluate(() => sessionStorage.getItem("unauthSavePinId"))).toBe(pin);
  await login.getByLabel(text(project, "auth.login.usernameOrEmail")).fill(account);
  await login.getByLabel(text(project, "auth.login.password"), { exact: true }).fill(DEMO_PASSWORD);
  await login.getByRole("button", { name: text(project, "auth.login.submit"), exact: true }).click();

  // Back on the pin, signed in: the picker is open for it, saying why. (Logging in hashes the
  // password on purpose slowly, and the machine is shared: give it time.)
  await expect(login).toBeHidden({ timeout: 20_000 });
  await expect(page).toHaveURL(new RegExp(`/pin/${pin}/$`));
  const dialog = picker(page, project);
  await expect(dialog).toBeVisible({ timeout: 15_000 });
  await expect(dialog.getByRole("status").filter({ hasText: text(project, "save.resumed") })).toBeVisible();
  expect(await page.evaluate(() => sessionStorage.getItem("unauthSavePinId"))).toBeNull();
  const first = dialog.getByRole("option").first();
  const boardName = (await first.locator(".save-picker-name").textContent())!;
  await first.click();
  await expect(toast(page)).toContainText(text(project, "save.savedTo", { board: boardName }));
  await toast(page).getByRole("button", { name: text(project, "save.undo") }).click();
  await expect(toast(page)).toContainText(text(project, "save.removedFrom", { board: boardName }));
  // Resumed once: a reload does not open the picker again.
  await page.reload();
  await expect(closeupSave(page, project)).toBeVisible();
  await expect(picker(page, project)).toBeHidden();
});
