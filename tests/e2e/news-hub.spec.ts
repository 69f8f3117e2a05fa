// The news hub in a real browser: one person saves and comments on another's pin; the other sees
// the bell's count, opens the updates (a dropdown on a wide screen, the page on a phone), finds
// them there, and the count clears; a kind turned off in the notification settings is not told
// next time; and the feedback modal's empty and failure paths. The e2e state outlives a run, so
// each test writes text with a fresh token and takes back what it made.
import { randomBytes } from "node:crypto";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { expectNoViolations } from "./axe.ts";
import { pageResource, signIn, unsaveEverywhere } from "./session.ts";
import { localeText, projectOf, type Project } from "./strings.ts";

const text = localeText({ n: "news", s: "settings" });

/**
 * Per project, so the two never change one person's settings under the other: the pin's owner,
 * one of their pins, and the person acting on it with a public board of their own.
 */
const CAST = {
  en: { owner: "demo", pin: "100001", actor: "sam", board: "10010", boardName: "Lisbon trip" },
  ar: { owner: "bakeandbloom", pin: "100002", actor: "marlowandmain", board: "10006", boardName: "Autumn collection" },
} as const;

// The tests of one project share the owner's settings and seen mark: one at a time.
test.describe.configure({ mode: "serial" });

const token = () => `t${randomBytes(5).toString("hex")}`;
const bell = (page: Page) => page.locator("[data-news-open]");
const badge = (page: Page) => page.locator("[data-news-count]");

async function signedInPage(browser: Browser, username: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, username);
  return page;
}

/** PUT /v3/settings/news/ from inside the page (its cookie and CSRF token). */
async function newsSettings(page: Page, changes: Record<string, boolean>): Promise<number> {
  return page.evaluate(async (changes) => {
    const csrf = /(?:^|;\s*)csrftoken=([^;]+)/.exec(document.cookie)?.[1] ?? "";
    const response = await fetch("/v3/settings/news/", { method: "PUT", headers: { "content-type": "application/json", "x-csrftoken": decodeURIComponent(csrf) }, body: JSON.stringify(changes) });
    return response.status;
  }, changes);
}

async function comment(page: Page, pin: string, body: string): Promise<string> {
  const answer = await pageResource<{ id: string }>(page, "AggregatedCommentResource", "create", { pin_id: pin, text: body });
  expect(answer.status).toBe(200);
  return answer.data.id;
}

/** Marks everything the owner has seen, so the test counts only what it makes. */
async function catchUp(page: Page): Promise<void> {
  const details = await pageResource<{ newest_id: string | null }>(page, "NewsHubDetailsResource", "get", {});
  if (details.data.newest_id) await pageResource(page, "NewsHubBadgeResource", "update", { seen_up_to: details.data.newest_id });
}

/** The project's owner and actor signed in, the owner's kinds turned on and everything before the test seen. */
async function castFor(browser: Browser, project: Project, kinds: Record<string, boolean>) {
  const cast = CAST[project];
  const owner = await signedInPage(browser, cast.owner);
  const actor = await signedInPage(browser, cast.actor);
  expect(await newsSettings(owner, kinds)).toBe(200);
  await catchUp(owner);
  return { project, cast, owner, actor };
}

test("a save and a comment reach the pin owner's bell, the updates show them, and the count clears", async ({ browser }, info) => {
  const { project, cast, owner, actor } = await castFor(browser, projectOf(info.project.name), { saves: true, comments: true });
  await unsaveEverywhere(actor, cast.pin);

  const said = `Lovely ${token()}`;
  expect((await pageResource(actor, "RepinResource", "create", { pin_id: cast.pin, board_id: cast.board })).status).toBe(200);
  const commentId = await comment(actor, cast.pin, said);
  try {
    await owner.goto("/");
    await expect(badge(owner)).toBeVisible();
    await expect(badge(owner)).toHaveText(/^[1-9][0-9]*\+?$/);
    await bell(owner).click();
    const panel = owner.locator("[data-news-panel]");
    await expect(panel).toBeVisible();
    await expect(panel.getByText(said, { exact: false })).toBeVisible();
    await expect(panel.locator(".news-item").filter({ hasText: cast.boardName }).first()).toBeVisible();
    await expect(badge(owner)).toBeHidden();
    await expect(bell(owner)).toHaveAttribute("aria-label", text(project, "n.bell.label"));
    await expectNoViolations(owner, "the updates dropdown");
    await owner.keyboard.press("Escape");
    await expect(panel).toBeHidden();
    // The count stays cleared on the next page.
    await owner.reload();
    await expect(bell(owner)).toBeVisible();
    await expect(badge(owner)).toBeHidden();
  } finally {
    await pageResource(actor, "AggregatedCommentResource", "delete", { commentId });
    await unsaveEverywhere(actor, cast.pin);
  }
});

test("on a phone the bell opens the updates page, which marks them seen", async ({ browser }, info) => {
  const { project, cast, owner, actor } = await castFor(browser, projectOf(info.project.name), { comments: true });
  const said = `Phone ${token()}`;
  const commentId = await comment(actor, cast.pin, said);
  try {
    await owner.setViewportSize({ width: 390, height: 844 });
    await owner.goto("/");
    await expect(badge(owner)).toBeVisible();
    await bell(owner).click();
    await expect(owner).toHaveURL(/\/news\/$/);
    await expect(owner.getByRole("heading", { level: 1, name: text(project, "n.hub.title") })).toBeVisible();
    await expect(owner.getByText(said, { exact: false })).toBeVisible();
    await expect(badge(owner)).toBeHidden();
    await expectNoViolations(owner, "the updates page on a phone");
  } finally {
    await pageResource(actor, "AggregatedCommentResource", "delete", { commentId });
  }
});

test("a kind turned off in the notification settings is not told next time", async ({ browser }, info) => {
  const { project, cast, owner, actor } = await castFor(browser, projectOf(info.project.name), { comments: true });
  await owner.goto("/settings/notifications");
  const form = owner.locator("form[data-endpoint='/v3/settings/news/']");
  const comments = form.getByRole("checkbox", { name: text(project, "s.notifications.options.comments"), exact: true });
  await expect(comments).toBeChecked();
  await expectNoViolations(owner, "the notification settings");
  await comments.uncheck();
  const saved = owner.waitForResponse((response) => response.url().endsWith("/v3/settings/news/") && response.request().method() === "PUT");
  await form.getByRole("button", { name: text(project, "s.notifications.saveNews"), exact: true }).click();
  expect((await saved).status()).toBe(200);
  await expect(form.getByRole("status")).toHaveText(text(project, "s.settings.saved"));

  const said = `Quiet ${token()}`;
  const commentId = await comment(actor, cast.pin, said);
  try {
    await owner.goto("/news/");
    await expect(owner.getByRole("heading", { level: 1, name: text(project, "n.hub.title") })).toBeVisible();
    await expect(owner.getByText(said, { exact: false })).toHaveCount(0);
    // The settings page shows the choice kept.
    await owner.goto("/settings/notifications");
    await expect(owner.locator("form[data-endpoint='/v3/settings/news/']").getByRole("checkbox", { name: text(project, "s.notifications.options.comments"), exact: true })).not.toBeChecked();
  } finally {
    await pageResource(actor, "AggregatedCommentResource", "delete", { commentId });
    expect(await newsSettings(owner, { comments: true })).toBe(200);
  }
});

test("the feedback modal: empty text counts as sent with no call, and a failure's message stays in the modal", async ({ browser }, info) => {
  const project: Project = projectOf(info.project.name);
  const page = await signedInPage(browser, CAST[project].owner);
  await page.goto("/settings/notifications");
  const calls: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/v3/analytics/feedback/")) calls.push(request.method());
  });
  await page.getByRole("button", { name: text(project, "n.feedback.open"), exact: true }).click();
  const dialog = page.getByRole("dialog", { name: text(project, "n.feedback.title") });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText(text(project, "n.feedback.prompt"))).toBeVisible();
  await expectNoViolations(page, "the feedback modal");
  await dialog.getByRole("textbox", { name: text(project, "n.feedback.label") }).fill("   ");
  await dialog.getByRole("button", { name: text(project, "n.feedback.send"), exact: true }).click();
  await expect(dialog.getByRole("status")).toHaveText(text(project, "n.feedback.thanks"));
  expect(calls).toEqual([]);

  // The server refuses: its words stay in the modal, and so does the text.
  await page.route("**/v3/analytics/feedback/", (route) =>
    route.fulfill({ status: 500, contentType: "application/json", body: JSON.stringify({ status: "failure", code: 9, message: "Feedback is resting", data: null }) }),
  );
  const note = `The bell is handy ${token()}`;
  await dialog.getByRole("textbox", { name: text(project, "n.feedback.label") }).fill(note);
  await dialog.getByRole("button", { name: text(project, "n.feedback.send"), exact: true }).click();
  await expect(dialog.getByRole("alert")).toHaveText("Feedback is resting");
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("textbox", { name: text(project, "n.feedback.label") })).toHaveValue(note);
  expect(calls.length).toBeGreaterThan(0);
});
