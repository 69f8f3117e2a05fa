// Board management in a real browser, in English and in Arabic (right to left): create a board
// (the 51st character of its name refused), sections (create, reorder by keyboard buttons),
// move a pin between boards and sections, bulk copy/move/delete and a section from a
// selection, archive and unarchive, edit and delete, and a collaborator invited by username
// who accepts in a second browser signed in as another demo user. Every test makes its own
// boards (unique names), so reruns on the same e2e state stay independent.
import { randomInt } from "node:crypto";
import { expect, test, type Browser, type Page, type TestInfo } from "@playwright/test";
import en from "../../locales/en_US/organize.json" with { type: "json" };
import ar from "../../locales/ar_SA/organize.json" with { type: "json" };
import { pageResource, signIn } from "./session.ts";

type Strings = typeof en;
const stringsOf = (project: string): Strings => (project === "ar" ? (ar as unknown as Strings) : en);
const fill = (template: string, values: Record<string, string | number>) => template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? ""));
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const unique = (label: string) => `${label} ${Date.now().toString(36)}${randomInt(100, 999)}`;

interface BoardJson {
  id: string;
  name: string;
  url: string;
  pin_count: number;
  archived_by_me_at: number | null;
}


async function createBoard(page: Page, name: string, privacy = "public"): Promise<BoardJson> {
  const answer = await pageResource<BoardJson>(page, "BoardResource", "create", { name, privacy });
  expect(answer.status).toBe(200);
  return answer.data;
}

/** Pins the signed-in user may save: the first few of the demo's public "Weeknight dinners" (10002). */
async function someVisiblePins(page: Page, count: number): Promise<string[]> {
  const answer = await pageResource<{ results: Array<{ id: string }> }>(page, "BoardFeedResource", "get", { board_id: "10002" });
  expect(answer.status).toBe(200);
  const ids = answer.data.results.map((pin) => pin.id).slice(0, count);
  expect(ids.length).toBe(count);
  return ids;
}

async function saveAll(page: Page, boardId: string, pinIds: string[]): Promise<void> {
  for (const pinId of pinIds) expect((await pageResource(page, "RepinResource", "create", { pin_id: pinId, board_id: boardId })).status).toBe(200);
}

async function sectionsOf(page: Page, boardId: string): Promise<Array<{ id: string; title: string; pin_count: number }>> {
  return (await pageResource<{ results: Array<{ id: string; title: string; pin_count: number }> }>(page, "BoardSectionsResource", "get", { board_id: boardId })).data.results;
}

async function boardPins(page: Page, boardId: string): Promise<string[]> {
  return (await pageResource<{ results: Array<{ id: string }> }>(page, "BoardFeedResource", "get", { board_id: boardId })).data.results.map((pin) => pin.id);
}

/** A second browser context, set up as the project's own (address, person's user agent, locale). */
async function signedInPage(browser: Browser, use: TestInfo["project"]["use"], username: string): Promise<Page> {
  const context = await browser.newContext({
    ...(use.baseURL ? { baseURL: use.baseURL } : {}),
    ...(use.userAgent ? { userAgent: use.userAgent } : {}),
    ...(use.locale ? { locale: use.locale } : {}),
    timezoneId: "UTC",
  });
  const page = await context.newPage();
  await page.setExtraHTTPHeaders({ "cf-connecting-ip": `198.51.100.${randomInt(1, 255)}` });
  await signIn(page, username);
  return page;
}

test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  // Logins are throttled per address and the e2e state outlives a run: a fresh documentation address per test.
  await page.setExtraHTTPHeaders({ "cf-connecting-ip": `192.0.2.${randomInt(1, 255)}` });
});

test("create a board (51st character refused), add a section, edit it and delete it", async ({ page }, testInfo) => {
  const s = stringsOf(testInfo.project.name);
  await signIn(page, "demo");
  await page.goto("/demo/");
  await page.getByRole("button", { name: s.form.create, exact: true }).click();
  const dialog = page.getByRole("dialog", { name: s.form.createTitle });
  await expect(dialog).toBeVisible();
  const name = dialog.getByLabel(s.form.name, { exact: true });
  await expect(name).toBeFocused();

  await name.fill("x".repeat(50));
  await name.press("y");
  await expect(name).toHaveValue("x".repeat(50));
  await expect(dialog.getByText(fill(s.form.nameTooLong, { max: 50 }))).toBeVisible();
  await expect(dialog.getByText(fill(s.counter, { used: 50, max: 50 }))).toBeVisible();

  const title = unique("Picnic ideas");
  await name.fill(title);
  await dialog.getByLabel(s.form.description).fill("Blankets, baskets and lemonade.");
  await dialog.getByRole("radio", { name: s.form.privacySecret }).check();
  await dialog.getByRole("button", { name: s.form.createSubmit, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();

  const sections = page.getByRole("region", { name: s.sections.heading });
  await sections.getByLabel(s.sections.new).fill("Drinks");
  await sections.getByRole("button", { name: s.sections.add }).click();
  await expect(sections.getByRole("listitem").filter({ hasText: "Drinks" })).toBeVisible();

  await page.getByRole("button", { name: s.board.edit }).click();
  const edit = page.getByRole("dialog", { name: s.form.editTitle });
  const renamed = `${title} 2`;
  await edit.getByLabel(s.form.name, { exact: true }).fill(renamed);
  await edit.getByRole("button", { name: s.form.save, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: renamed })).toBeVisible();
  // The section survived the rename (it now lives at the board's new address).
  await expect(page.getByRole("region", { name: s.sections.heading }).getByText("Drinks")).toBeVisible();

  await page.getByRole("button", { name: s.board.delete }).click();
  const confirm = page.getByRole("alertdialog", { name: s.delete.title });
  await expect(confirm.getByRole("button", { name: s.cancel })).toBeFocused();
  await confirm.getByRole("button", { name: s.delete.confirm }).click();
  await expect(page).toHaveURL(/\/demo\/$/);
  await expect(page.getByRole("link", { name: renamed })).toHaveCount(0);
});

test("sections reorder with keyboard-operable buttons", async ({ page }, testInfo) => {
  const s = stringsOf(testInfo.project.name);
  await signIn(page, "demo");
  const board = await createBoard(page, unique("Reorder"));
  for (const title of ["One", "Two", "Three"]) expect((await pageResource(page, "BoardSectionResource", "create", { board_id: board.id, title })).status).toBe(200);
  await page.goto(board.url);
  // New sections go first: Three, Two, One.
  const down = page.getByRole("button", { name: fill(s.sections.moveDown, { title: "Three" }) });
  await expect(down).toBeEnabled(); // hydrated
  await down.focus();
  await page.keyboard.press("Enter");
  await expect.poll(async () => (await sectionsOf(page, board.id)).map((section) => section.title)).toEqual(["Two", "Three", "One"]);
  await expect(page.getByRole("button", { name: fill(s.sections.moveUp, { title: "Two" }) })).toBeDisabled();
});

test("move one pin to another board's section, then bulk copy, section from selection and delete", async ({ page }, testInfo) => {
  test.slow(); // many round trips on a machine shared with other runs
  const s = stringsOf(testInfo.project.name);
  await signIn(page, "demo");
  const source = await createBoard(page, unique("Source"));
  const target = await createBoard(page, unique("Target"));
  const section = (await pageResource<{ id: string }>(page, "BoardSectionResource", "create", { board_id: target.id, title: "Mains" })).data;
  const pins = await someVisiblePins(page, 4);
  await saveAll(page, source.id, pins);

  await page.goto(source.url);
  await page.getByRole("button", { name: s.board.select }).click();
  const panel = page.getByRole("region", { name: s.select.heading });
  const boxes = panel.getByRole("checkbox");
  await expect(boxes).toHaveCount(4);

  // One pin, moved to the target board's section.
  await boxes.first().check();
  await expect(panel.getByRole("status")).toHaveText(fill(s.select.count_one, { count: 1 }));
  await panel.getByRole("button", { name: s.select.move, exact: true }).click();
  const moveDialog = page.getByRole("dialog", { name: s.target.moveTitle });
  // Reruns leave many boards behind: the filter box finds this run's.
  await moveDialog.getByLabel(s.target.filter).fill(target.name);
  await moveDialog.getByLabel(s.target.board, { exact: true }).selectOption({ label: target.name });
  await moveDialog.getByLabel(s.target.section, { exact: true }).selectOption({ label: "Mains" });
  await moveDialog.getByRole("button", { name: s.select.move, exact: true }).click();
  await expect(boxes).toHaveCount(3);
  // The list changes at once (optimistic); the server's answer follows.
  await expect.poll(async () => (await boardPins(page, target.id)).length).toBe(1);
  const movedPin = (await boardPins(page, target.id))[0];
  expect(pins).toContain(movedPin);
  await expect.poll(async () => (await sectionsOf(page, target.id)).find((entry) => entry.id === section.id)?.pin_count).toBe(1);

  // Select all but one, copy to the target board.
  await panel.getByRole("button", { name: s.select.all }).click();
  await boxes.nth(2).uncheck();
  await panel.getByRole("button", { name: s.select.copy, exact: true }).click();
  const copyDialog = page.getByRole("dialog", { name: s.target.copyTitle });
  await copyDialog.getByLabel(s.target.filter).fill(target.name);
  await copyDialog.getByLabel(s.target.board, { exact: true }).selectOption({ label: target.name });
  await copyDialog.getByRole("button", { name: s.select.copy, exact: true }).click();
  await expect.poll(async () => (await boardPins(page, target.id)).length).toBe(3);
  expect((await boardPins(page, source.id)).length).toBe(3);

  // Two pins into a new section of this board (bulkCreateSection).
  await boxes.nth(0).check();
  await boxes.nth(1).check();
  await panel.getByRole("button", { name: s.select.makeSection }).click();
  const sectionDialog = page.getByRole("dialog", { name: s.select.makeSection });
  await sectionDialog.getByLabel(s.sections.titleLabel).fill("Favourites");
  await sectionDialog.getByRole("button", { name: s.sections.add }).click();
  await expect.poll(async () => (await sectionsOf(page, source.id)).map((entry) => [entry.title, entry.pin_count])).toEqual([["Favourites", 2]]);

  // Delete one (bulkDelete), confirmed.
  await boxes.nth(2).check();
  await panel.getByRole("button", { name: s.select.delete, exact: true }).click();
  const confirm = page.getByRole("alertdialog", { name: s.bulkDelete.title });
  await confirm.getByRole("button", { name: s.select.delete, exact: true }).click();
  await expect(boxes).toHaveCount(2);
  await expect.poll(async () => (await boardPins(page, source.id)).length).toBe(2);

  // Reorder: the last pin to the top.
  const last = (await boardPins(page, source.id))[1]!;
  // The last row's first order button is "Move … to the top".
  const lastRow = panel.getByRole("listitem").last();
  await expect(lastRow.getByRole("button").first()).toHaveAccessibleName(new RegExp(escapeRegExp(s.select.moveTop.split("{{title}}")[0]!)));
  await lastRow.getByRole("button").first().click();
  await expect.poll(async () => (await boardPins(page, source.id))[0]).toBe(last);

  await panel.getByRole("button", { name: s.select.done }).click();
  await expect(page.getByRole("region", { name: s.select.heading })).toHaveCount(0);
});

test("archive moves a board to the archived list on the profile; unarchive brings it back", async ({ page }, testInfo) => {
  const s = stringsOf(testInfo.project.name);
  await signIn(page, "demo");
  const board = await createBoard(page, unique("Old plans"));
  await page.goto(board.url);
  await page.getByRole("button", { name: s.board.archive }).click();
  await expect(page.getByText(s.board.archivedBadge)).toBeVisible();
  await expect(page.getByRole("button", { name: s.board.unarchive })).toBeVisible();
  await expect.poll(async () => (await pageResource<BoardJson>(page, "BoardResource", "get", { board_id: board.id })).data.archived_by_me_at).not.toBeNull();

  await page.goto("/demo/");
  const archived = page.getByRole("region", { name: s.archived.heading });
  await expect(archived.getByRole("link", { name: board.name })).toBeVisible();
  // Unarchiving reloads the profile, whose server-rendered board grid then lists the board again.
  const reloaded = page.waitForEvent("load");
  await archived.getByRole("button", { name: fill(s.archived.unarchiveBoard, { name: board.name }) }).click();
  await reloaded;
  await expect(page.getByRole("region", { name: s.archived.heading }).getByRole("link", { name: board.name })).toHaveCount(0);
  await expect.poll(async () => (await pageResource<BoardJson>(page, "BoardResource", "get", { board_id: board.id })).data.archived_by_me_at).toBeNull();
  // Back among the profile's boards after the reload.
  await expect(page.locator("#profile-boards").getByRole("link", { name: board.name })).toBeVisible();
});

test("invite a collaborator by username; they accept in their own browser", async ({ page, browser }, testInfo) => {
  const s = stringsOf(testInfo.project.name);
  await signIn(page, "demo");
  const board = await createBoard(page, unique("Shared menu"));
  await page.goto(board.url);
  await page.getByRole("button", { name: s.board.collaborators }).click();
  const dialog = page.getByRole("dialog", { name: s.collab.heading });
  await dialog.getByLabel(s.collab.inviteLabel).fill("sam");
  await dialog.getByRole("button", { name: s.collab.invite, exact: true }).click();
  await expect(dialog.getByText(fill(s.collab.invited, { username: "sam" }))).toBeVisible();
  await expect(dialog.getByRole("heading", { name: s.collab.pending })).toBeVisible();
  await dialog.getByRole("button", { name: s.close }).click();
  await expect(page.getByRole("button", { name: s.board.collaborators })).toBeFocused();

  const sam = await signedInPage(browser, testInfo.project.use, "sam");
  await sam.goto(board.url);
  await sam.getByRole("button", { name: s.invite.accept, exact: true }).click();
  await expect(sam.getByRole("button", { name: s.board.select })).toBeVisible();
  const collaborators = await pageResource<{ results: Array<{ user: { username: string }; status: string }> }>(sam, "BoardCollaboratorsResource", "get", { board_id: board.id });
  expect(collaborators.data.results.find((entry) => entry.user.username === "sam")?.status).toBe("accepted");
  // The owner's controls stay the owner's.
  await expect(sam.getByRole("button", { name: s.board.delete })).toHaveCount(0);
  await sam.context().close();

  // The owner offers the board to the new collaborator, then takes the offer back.
  await page.reload();
  await page.getByRole("button", { name: s.board.collaborators }).click();
  const again = page.getByRole("dialog", { name: s.collab.heading });
  await again.getByRole("button", { name: fill(s.collab.transfer, { username: "sam" }) }).click();
  await expect(again.getByText(fill(s.collab.transferPending, { username: "sam" }))).toBeVisible();
  await expect.poll(async () => (await pageResource<{ pending_ownership_transfer: { username: string } | null }>(page, "BoardResource", "get", { board_id: board.id })).data.pending_ownership_transfer?.username).toBe("sam");
  await again.getByRole("button", { name: s.collab.transferCancel }).click();
  await expect(again.getByText(fill(s.collab.transferPending, { username: "sam" }))).toHaveCount(0);
  await expect.poll(async () => (await pageResource<{ pending_ownership_transfer: unknown }>(page, "BoardResource", "get", { board_id: board.id })).data.pending_ownership_transfer).toBeNull();
});
