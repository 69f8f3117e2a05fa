// The rest of the comments island in a real browser, in English and in Arabic (right to left):
// hiding (by the author, by the pin's owner, and every comment of one person at once, from a
// second browser), reporting through the dialog by keyboard, removing one's own mention,
// translation without the AI binding, a comment in flight ("Posting…") that the server answers
// or refuses, deleting a tried-it post, and the comment settings page with the parental
// passcode. A hide "for this user" lasts on its pin, and the e2e state outlives a run, so each
// test works on a pin of the owner's where the commenter is not hidden yet (pickPin).
import { randomBytes } from "node:crypto";
import { expect, test, type Browser, type Locator, type Page } from "@playwright/test";
import { DEMO_PASSWORD, pageResource, signIn } from "./session.ts";
import { localeText, projectOf, type Project } from "./strings.ts";

const text = localeText({ c: "comments-ui", s: "settings", m: "comments" });

/** Per project: who comments on the owner's pins, and whose comment settings the settings test changes. */
const CAST = {
  en: { commenter: "sam", commenterName: "Sam Okafor", target: "bakeandbloom", targetId: "3", passcode: "4826" },
  ar: { commenter: "marlowandmain", commenterName: "Marlow & Main", target: "marlowandmain", targetId: "2", passcode: "3715" },
} as const;
const OWNER = "demo";
const OWNER_ID = "1";
/** The owner's public board: its pins are the owner's. */
const OWNER_BOARD = "10002";
/** Pins other specs use; this one keeps off them. */
const TAKEN = new Set(["100001", "100004", "100021"]);

const token = () => `t${randomBytes(5).toString("hex")}`;
const island = (page: Page) => page.locator(".comments-island[data-hydrated='true']");


async function v3(page: Page, method: string, path: string, body: unknown): Promise<number> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const csrf = /(?:^|;\s*)csrftoken=([^;]+)/.exec(document.cookie)?.[1] ?? "";
      const response = await fetch(path, { method, headers: { "content-type": "application/json", "x-csrftoken": csrf, "x-requested-with": "XMLHttpRequest" }, body: JSON.stringify(body) });
      return response.status;
    },
    { method, path, body },
  );
}

type Posted = { id: string; text: string };
const postComment = async (page: Page, pin: string, body: string, tags: unknown[] = []) => {
  const answer = await pageResource<Posted>(page, "AggregatedCommentResource", "create", { pin_id: pin, text: body, tags });
  expect(answer.status).toBe(200);
  return answer.data;
};

/** The owner's board's pins, in the board's order, without the pins other specs use. */
async function ownerPins(page: Page): Promise<string[]> {
  const feed = await pageResource<{ results: Array<{ id: string }> }>(page, "BoardFeedResource", "get", { board_id: OWNER_BOARD, page_size: 50 });
  expect(feed.status).toBe(200);
  return feed.data.results.map((pin) => pin.id).filter((id) => !TAKEN.has(id));
}

/**
 * A pin of the owner's where the commenter's new comments still show to the owner (a pin
 * where an earlier run hid them "for this user" would not do): tried from a shuffled page of
 * the owner's board, each probe deleted again.
 */
async function pickPin(commenter: Page, owner: Page): Promise<string> {
  const candidates = (await ownerPins(owner)).slice(4);
  candidates.sort(() => Math.random() - 0.5);
  for (const pin of candidates.slice(0, 20)) {
    const probe = await pageResource<Posted>(commenter, "AggregatedCommentResource", "create", { pin_id: pin, text: `probe ${token()}` });
    if (probe.status !== 200) continue;
    const seen = await pageResource<{ results: Array<Posted & { can_delete?: boolean }> }>(owner, "UnifiedCommentsResource", "get", { pin_id: pin, page_size: 5 });
    await pageResource(commenter, "AggregatedCommentResource", "delete", { commentId: probe.data.id });
    // The owner must see it AND own the pin (may delete it): a board also holds other people's
    // pins saved to it, whose comments the board's owner does not moderate.
    if (seen.data.results.some((comment) => comment.id === probe.data.id && comment.can_delete === true)) return pin;
  }
  throw new Error("no pin of the owner's where the commenter is still visible");
}

async function openPin(page: Page, pin: string): Promise<void> {
  await page.goto(`/pin/${pin}/`);
  await expect(island(page)).toBeVisible({ timeout: 15_000 });
}

/** The innermost listed comment holding `needle` (a pending one has no id yet: never this). */
async function item(page: Page, needle: string): Promise<Locator> {
  const found = island(page).locator("li[data-comment-id]").filter({ hasText: needle }).last();
  await expect(found).toBeVisible();
  const id = await found.getAttribute("data-comment-id");
  return island(page).locator(`li[data-comment-id="${id}"]`);
}

async function more(entry: Locator, project: Project, action: string): Promise<void> {
  // The island swaps the server's list for its own first page once it has it; a menu opened
  // just before that swap closes with it, so open it until the action is there.
  await expect(async () => {
    const button = entry.getByRole("button", { name: action, exact: true }).first();
    if (!(await button.isVisible())) await entry.getByRole("button", { name: text(project, "c.more"), exact: true }).first().click();
    await expect(button).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await entry.getByRole("button", { name: action, exact: true }).first().click();
}

/** A second signed-in browser, in the project's locale. */
async function second(browser: Browser, project: Project, username: string): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await browser.newContext({ locale: project === "ar" ? "ar-SA" : "en-US" });
  const page = await context.newPage();
  await signIn(page, username);
  return { page, close: () => context.close() };
}

test("hide: the author hides their own; the pin's owner hides one, then all of one person's at once", async ({ page, browser }, testInfo) => {
  test.setTimeout(90_000);
  const project = projectOf(testInfo.project.name);
  const cast = CAST[project];
  await signIn(page, cast.commenter);
  const owner = await second(browser, project, OWNER);
  try {
    const pin = await pickPin(page, owner.page);
    const [own, one, two, three] = [token(), token(), token(), token()];
    for (const mark of [one, two, three]) await postComment(page, pin, `comment ${mark}`);

    // The author hides their own comment from the island.
    await openPin(page, pin);
    await island(page).getByRole("textbox", { name: text(project, "c.composerLabel"), exact: true }).fill(`mine ${own}`);
    await island(page).getByRole("button", { name: text(project, "c.post"), exact: true }).first().click();
    const mine = await item(page, own);
    const hidOwn = page.waitForResponse((r) => r.url().includes("/resource/AggregatedCommentHideResource/create/"));
    await more(mine, project, text(project, "c.hide"));
    expect((await hidOwn).status()).toBe(200);
    await expect(island(page).getByText(own)).toHaveCount(0);

    // The owner: the author's hidden comment is not there; hides one, then everything of theirs.
    await openPin(owner.page, pin);
    await expect(island(owner.page).getByText(own)).toHaveCount(0);
    const first = await item(owner.page, one);
    const hidOne = owner.page.waitForResponse((r) => r.url().includes("/resource/AggregatedCommentHideResource/create/"));
    await more(first, project, text(project, "c.hide"));
    expect((await hidOne).status()).toBe(200);
    await expect(island(owner.page).getByText(one)).toHaveCount(0);
    await expect(island(owner.page).getByText(two)).toBeVisible();

    const secondOne = await item(owner.page, two);
    const hidAll = owner.page.waitForResponse((r) => r.url().includes("/resource/AggregatedCommentHideResource/create/"));
    await more(secondOne, project, text(project, "c.hideForUser", { name: cast.commenterName }));
    const answer = await hidAll;
    expect(answer.status()).toBe(200);
    expect(answer.request().postDataJSON()).toMatchObject({ options: { for_user: true } });
    // Both remaining comments went in one step, without a reload.
    await expect(island(owner.page).getByText(two)).toHaveCount(0);
    await expect(island(owner.page).getByText(three)).toHaveCount(0);
    // And stay gone for the owner after a reload; the author still sees theirs.
    await openPin(owner.page, pin);
    await expect(island(owner.page).getByText(three)).toHaveCount(0);
    await openPin(page, pin);
    await expect(island(page).getByText(three)).toBeVisible();
  } finally {
    await owner.close();
  }
});

test("report a comment through the dialog by keyboard", async ({ page, browser }, testInfo) => {
  test.setTimeout(90_000);
  const project = projectOf(testInfo.project.name);
  const cast = CAST[project];
  await signIn(page, OWNER);
  const commenter = await second(browser, project, cast.commenter);
  try {
    const pin = await pickPin(commenter.page, page);
    const mark = token();
    await postComment(commenter.page, pin, `report me ${mark}`);
    await openPin(page, pin);
    const entry = await item(page, mark);
    await entry.getByRole("button", { name: text(project, "c.more"), exact: true }).first().click();
    const report = entry.getByRole("button", { name: text(project, "c.flag"), exact: true });
    await report.focus();
    await page.keyboard.press("Enter");

    const dialog = page.getByRole("dialog", { name: text(project, "c.flagTitle") });
    await expect(dialog).toBeVisible();
    const firstReason = dialog.getByRole("radio", { name: text(project, "c.reason.spam") });
    await expect(firstReason).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await expect(dialog.getByRole("radio", { name: text(project, "c.reason.harassment") })).toBeChecked();
    await page.keyboard.press("Tab");
    const aboutMe = dialog.getByRole("checkbox", { name: text(project, "c.detail.targetsMe") });
    await expect(aboutMe).toBeFocused();
    await page.keyboard.press("Space");
    await expect(aboutMe).toBeChecked();
    const send = dialog.getByRole("button", { name: text(project, "c.flagSubmit") });
    for (let i = 0; i < 8 && !(await send.evaluate((element) => element === document.activeElement)); i++) await page.keyboard.press("Tab");
    await expect(send).toBeFocused();
    const flagged = page.waitForResponse((r) => r.url().includes("/flag/"));
    await page.keyboard.press("Enter");
    const answer = await flagged;
    expect(answer.status()).toBe(200);
    expect(answer.request().postDataJSON()).toEqual({ reason: "harassment", detailedReasons: ["targetsMe"] });
    await expect(dialog).toBeHidden();
    await expect(page.getByText(text(project, "c.flagged"))).toBeVisible();
    // Escape closes it without sending; focus returns to what opened it.
    await entry.getByRole("button", { name: text(project, "c.more"), exact: true }).first().click();
    await entry.getByRole("button", { name: text(project, "c.more"), exact: true }).first().click();
    await report.click();
    await expect(dialog).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(report).toBeFocused();
  } finally {
    await commenter.close();
  }
});

test("the mentioned person removes their mention; translation without the AI binding says none is available", async ({ page, browser }, testInfo) => {
  test.setTimeout(90_000);
  const project = projectOf(testInfo.project.name);
  const cast = CAST[project];
  await signIn(page, OWNER);
  const commenter = await second(browser, project, cast.commenter);
  try {
    const pin = await pickPin(commenter.page, page);
    const mark = token();
    await postComment(commenter.page, pin, `@${OWNER} look ${mark}`, [{ user_id: OWNER_ID, offset: 0, length: OWNER.length + 1 }]);
    await openPin(page, pin);
    const entry = await item(page, mark);
    await expect(entry.getByRole("link", { name: `@${OWNER}`, exact: true })).toBeVisible();
    const removed = page.waitForResponse((r) => r.url().includes("/mentions/"));
    await more(entry, project, text(project, "c.removeMention"));
    expect((await removed).status()).toBe(200);
    await expect(entry.getByRole("link", { name: `@${OWNER}`, exact: true })).toHaveCount(0);
    await expect(entry).toContainText(`@${OWNER} look ${mark}`);
    await openPin(page, pin);
    const again = await item(page, mark);
    await expect(again.getByRole("link", { name: `@${OWNER}`, exact: true })).toHaveCount(0);

    const translated = page.waitForResponse((r) => r.url().includes("/translate/"));
    await again.getByRole("button", { name: text(project, "c.translate"), exact: true }).click();
    expect((await translated).status()).toBe(200);
    await expect(again.getByText(text(project, "c.translateFailed"))).toBeVisible();
  } finally {
    await commenter.close();
  }
});

test("a comment in flight shows as Posting…, then the server's comment; refused, it goes with the server's message", async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  const project = projectOf(testInfo.project.name);
  const cast = CAST[project];
  await signIn(page, cast.commenter);
  await openPin(page, (await ownerPins(page))[3]!);
  const box = island(page).getByRole("textbox", { name: text(project, "c.composerLabel"), exact: true });
  const send = island(page).getByRole("button", { name: text(project, "c.post"), exact: true }).first();

  // Held for a moment: the comment is listed at once, marked Posting….
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/resource/AggregatedCommentResource/create/", async (route) => {
    await held;
    await route.continue();
  });
  const mark = token();
  await box.fill(`in flight ${mark}`);
  await send.click();
  const pending = island(page).locator("li.comment-pending").filter({ hasText: mark });
  await expect(pending).toBeVisible();
  await expect(pending).toContainText(text(project, "c.posting"));
  await expect(pending).toHaveAttribute("aria-busy", "true");
  release();
  await expect(pending).toHaveCount(0);
  const made = await item(page, mark);
  await expect(made).toHaveAttribute("data-comment-id", /^\d+$/);
  await page.unroute("**/resource/AggregatedCommentResource/create/");

  // Refused by the server (the request is sent for a pin with comments off): gone, with its message.
  await page.route("**/resource/AggregatedCommentResource/create/", async (route) => {
    const body = route.request().postDataJSON() as { options: Record<string, unknown> };
    const response = await route.fetch({ postData: JSON.stringify({ options: { ...body.options, pin_id: "100021" } }) });
    await route.fulfill({ response });
  });
  const refused = token();
  await box.fill(`refused ${refused}`);
  const answered = page.waitForResponse((r) => r.url().includes("/resource/AggregatedCommentResource/create/"));
  await send.click();
  expect((await answered).status()).toBe(403);
  await expect(island(page).getByRole("listitem").filter({ hasText: refused })).toHaveCount(0);
  // What was written is kept in the box, to send again.
  await expect(box).toHaveValue(`refused ${refused}`);
  const disabled = text(project, "m.api.disabled");
  await expect(page.getByText(disabled).first()).toBeVisible();
  await page.unroute("**/resource/AggregatedCommentResource/create/");
  await pageResource(page, "AggregatedCommentResource", "delete", { commentId: await made.getAttribute("data-comment-id") });
});

test("delete my tried-it post, with a confirmation, and the count follows", async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  const project = projectOf(testInfo.project.name);
  const cast = CAST[project];
  await signIn(page, cast.commenter);
  const pin = (await ownerPins(page))[project === "ar" ? 1 : 0]!;
  const mark = token();
  const made = await pageResource<{ id: string; images_count: number }>(page, "DidItActivityResource", "create", { pin_id: pin, details: `tried ${mark}` });
  expect(made.status).toBe(200);
  const count = made.data.images_count;

  await openPin(page, pin);
  await island(page).getByRole("tab", { name: text(project, "c.tabTried") }).click();
  const panel = island(page).getByRole("tabpanel", { name: text(project, "c.tabTried") });
  await expect(panel.getByRole("heading", { name: text(project, "c.tried.heading", { count }) })).toBeVisible();
  const post = panel.getByRole("listitem").filter({ hasText: mark });
  await expect(post).toBeVisible();
  await post.getByRole("button", { name: text(project, "c.tried.deleteLabel", { name: cast.commenterName }) }).click();
  const confirm = page.getByRole("alertdialog", { name: text(project, "c.tried.deleteTitle") });
  await expect(confirm).toBeVisible();
  // Cancel first: nothing changes.
  await confirm.getByRole("button", { name: text(project, "c.cancel"), exact: true }).click();
  await expect(post).toBeVisible();
  await post.getByRole("button", { name: text(project, "c.tried.deleteLabel", { name: cast.commenterName }) }).click();
  const deleted = page.waitForResponse((r) => r.url().includes("/resource/DidItActivityResource/delete/"));
  await confirm.getByRole("button", { name: text(project, "c.tried.delete"), exact: true }).click();
  expect((await deleted).status()).toBe(200);
  await expect(post).toHaveCount(0);
  await expect(panel.getByRole("heading", { name: text(project, "c.tried.heading", { count: count - 1 }) })).toBeVisible();
  await expect(page.getByText(text(project, "c.tried.deleted"))).toBeVisible();
});

test("comment settings: turning mentions off asks for the parental passcode, then a mention of me is refused", async ({ page, browser }, testInfo) => {
  test.setTimeout(120_000);
  const project = projectOf(testInfo.project.name);
  const cast = CAST[project];
  await signIn(page, cast.target);
  // A passcode on the account (parental controls on), whatever an earlier run left.
  const setPasscode = () =>
    v3(page, "POST", "/v3/users/parental_passcode/reset/", { password: DEMO_PASSWORD, passcode: cast.passcode, confirm_passcode: cast.passcode }).then(async (status) =>
      status === 200 ? 200 : v3(page, "POST", "/v3/users/parental_passcode/", { passcode: cast.passcode, confirm_passcode: cast.passcode, backup_email: `guardian-${cast.target}@example.com`, confirm_backup_email: `guardian-${cast.target}@example.com` }),
    );
  expect(await setPasscode()).toBe(200);
  // The owner mentions them (the target may be this project's commenter).
  const commenter = await second(browser, project, OWNER);
  try {
    await page.goto("/settings/edit/comments");
    await expect(page.locator("html")).toHaveAttribute("dir", project === "ar" ? "rtl" : "ltr");
    const mentions = page.getByRole("checkbox", { name: text(project, "s.settings.comments.allowMentions") });
    await expect(mentions).toBeChecked();
    await mentions.uncheck();
    const refused = page.waitForResponse((r) => r.url().includes("/v3/users/settings/comments/"));
    await page.getByRole("button", { name: text(project, "s.settings.save") }).click();
    expect((await refused).status()).toBe(403);
    const modal = page.getByRole("dialog", { name: text(project, "s.passcode.modal.title") });
    await expect(modal).toBeVisible();
    await modal.getByLabel(text(project, "s.passcode.modal.label"), { exact: true }).fill(cast.passcode);
    const saved = page.waitForResponse((r) => r.url().includes("/v3/users/settings/comments/"));
    await modal.getByRole("button", { name: text(project, "s.passcode.modal.submit") }).click();
    expect((await saved).status()).toBe(200);
    await expect(page.getByText(text(project, "s.settings.saved"))).toBeVisible();
    await page.reload();
    await expect(page.getByRole("checkbox", { name: text(project, "s.settings.comments.allowMentions") })).not.toBeChecked();

    // Now a mention of them is refused, and nothing is posted.
    const pin = (await ownerPins(commenter.page))[2]!;
    const mark = token();
    const tried = await pageResource(commenter.page, "AggregatedCommentResource", "create", { pin_id: pin, text: `@${cast.target} ${mark}`, tags: [{ user_id: cast.targetId, offset: 0, length: cast.target.length + 1 }] });
    expect(tried.status).toBe(400);
    await openPin(commenter.page, pin);
    await expect(island(commenter.page).getByText(mark)).toHaveCount(0);
  } finally {
    await commenter.close();
    // Mentions back on (with the passcode), then the passcode off, for the next run and other specs.
    expect(await v3(page, "PUT", "/v3/users/settings/comments/", { allow_mentions: true, passcode: cast.passcode })).toBe(200);
    expect(await v3(page, "DELETE", "/v3/users/parental_passcode/", { passcode: cast.passcode })).toBe(200);
  }
});
