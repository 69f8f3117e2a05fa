// The comments island in a real browser, in English and in Arabic (right to left), against the
// demo world: a comment with an @mention (chosen from the suggestion list by keyboard), a
// reply, an edit, like, helpful and delete; the pin's owner highlighting a comment from a
// second browser; a signed-out comment that resumes with the composer focused after logging
// in; and a script-injection payload that shows as text. The e2e state outlives a run, so each
// test writes text with a fresh token and deletes what it made.
import { randomBytes } from "node:crypto";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { DEMO_PASSWORD, signIn } from "./session.ts";
import { localeText, projectOf, type Project } from "./strings.ts";

const text = localeText({ c: "comments-ui", auth: "auth" });

/** Per project: who comments, on which of the pin owner's (demo's) pins, and whom they mention. */
const CAST = {
  en: { commenter: "sam", commenterName: "Sam Okafor", pin: "100001", mention: "demo", signedOutPin: "100004", login: "bakeandbloom" },
  ar: { commenter: "marlowandmain", commenterName: "Marlow & Main", pin: "100004", mention: "demo", signedOutPin: "100001", login: "sam" },
} as const;
const OWNER = "demo";
const DISABLED_PIN = "100021";

const token = () => `t${randomBytes(5).toString("hex")}`;
const island = (page: Page) => page.locator(".comments-island[data-hydrated='true']");
const composer = (page: Page, project: Project) => island(page).getByRole("textbox", { name: text(project, "c.composerLabel"), exact: true });
/** The innermost comment holding `needle`, then held by its id (an edit hides its text); a comment still posting has no id and is never it. */
async function item(page: Page, needle: string): Promise<Locator> {
  const found = island(page).locator("li[data-comment-id]").filter({ hasText: needle }).last();
  await expect(found).toBeVisible();
  const id = await found.getAttribute("data-comment-id");
  return island(page).locator(`li[data-comment-id="${id}"]`);
}

async function openPin(page: Page, pin: string): Promise<void> {
  await page.goto(`/pin/${pin}/`);
  await expect(island(page)).toBeVisible({ timeout: 15_000 });
}

async function post(page: Page, project: Project, body: string): Promise<Locator> {
  await composer(page, project).fill(body);
  const answered = page.waitForResponse((r) => r.url().includes("/resource/AggregatedCommentResource/create/"));
  await island(page).getByRole("button", { name: text(project, "c.post"), exact: true }).first().click();
  expect((await answered).status()).toBe(200);
  return item(page, body.slice(-11));
}

async function more(entry: Locator, project: Project, action: string): Promise<void> {
  await entry.getByRole("button", { name: text(project, "c.more"), exact: true }).first().click();
  await entry.getByRole("button", { name: action, exact: true }).first().click();
}

async function remove(page: Page, project: Project, entry: Locator): Promise<void> {
  await more(entry, project, text(project, "c.delete"));
  const confirm = page.getByRole("alertdialog", { name: text(project, "c.deleteTitle") });
  await expect(confirm).toBeVisible();
  const answered = page.waitForResponse((r) => r.url().includes("/resource/AggregatedCommentResource/delete/"));
  await confirm.getByRole("button", { name: text(project, "c.delete"), exact: true }).click();
  expect((await answered).status()).toBe(200);
  await expect(entry).toHaveCount(0);
}

test("comment with a mention, reply, edit, like, helpful and delete", async ({ page }, testInfo) => {
  const project = projectOf(testInfo.project.name);
  const cast = CAST[project];
  await signIn(page, cast.commenter);
  await openPin(page, cast.pin);
  // The server list steps aside once the island has its own.
  await expect(page.locator(".pin-comments")).toBeHidden();

  const mark = token();
  const box = composer(page, project);
  await box.click();
  await box.pressSequentially(`@${cast.mention.slice(0, 3)}`);
  const option = island(page).getByRole("option", { name: new RegExp(`@${cast.mention}$`) });
  await expect(option).toBeVisible();
  await expect(box).toHaveAttribute("aria-activedescendant", /.+/);
  await box.press("Enter");
  await expect(box).toHaveValue(`@${cast.mention} `);
  await box.pressSequentially(`hello ${mark}`);
  const answered = page.waitForResponse((r) => r.url().includes("/resource/AggregatedCommentResource/create/"));
  await island(page).getByRole("button", { name: text(project, "c.post"), exact: true }).first().click();
  expect((await answered).status()).toBe(200);

  // New comments go to the front, with the mention as a link to the profile.
  const entry = await item(page, mark);
  await expect(island(page).getByRole("list", { name: text(project, "c.listLabel") }).getByRole("listitem").first()).toContainText(mark);
  await expect(entry.getByRole("link", { name: `@${cast.mention}`, exact: true })).toHaveAttribute("href", `/${cast.mention}/`);

  // Reply: appended under the comment.
  const replyMark = token();
  await entry.getByRole("button", { name: text(project, "c.reply"), exact: true }).first().click();
  const replyBox = entry.getByRole("textbox");
  await expect(replyBox).toBeFocused();
  await replyBox.fill(`thanks ${replyMark}`);
  const replied = page.waitForResponse((r) => r.url().includes("/resource/AggregatedCommentResource/create/"));
  await entry.getByRole("button", { name: text(project, "c.post"), exact: true }).click();
  expect((await replied).status()).toBe(200);
  await item(page, replyMark);

  // Edit (the author).
  const edited = token();
  await more(entry, project, text(project, "c.edit"));
  const editBox = entry.getByRole("textbox", { name: text(project, "c.editLabel") });
  await editBox.fill(`changed ${mark} ${edited}`);
  const updated = page.waitForResponse((r) => r.url().includes("/resource/AggregatedCommentResource/update/"));
  await entry.getByRole("button", { name: text(project, "c.save"), exact: true }).click();
  expect((await updated).status()).toBe(200);
  await expect(entry).toContainText(edited);

  // Like and helpful: toggles with counts.
  const like = entry.getByRole("button", { name: text(project, "c.likeLabel", { name: cast.commenterName }), exact: true }).first();
  const reacted = page.waitForResponse((r) => r.url().includes("/react/"));
  await like.click();
  expect((await reacted).status()).toBe(200);
  await expect(like).toHaveAttribute("aria-pressed", "true");
  await expect(entry.getByText(text(project, "c.likes", { count: 1 })).first()).toBeVisible();
  const helpful = entry.getByRole("button", { name: text(project, "c.helpfulLabel", { name: cast.commenterName }), exact: true }).first();
  const marked = page.waitForResponse((r) => r.url().includes("/v3/helpful/1/"));
  await helpful.click();
  expect((await marked).status()).toBe(200);
  await expect(helpful).toHaveAttribute("aria-pressed", "true");
  await expect(entry.getByText(text(project, "c.helpfulCount", { count: 1 })).first()).toBeVisible();

  // Survives a reload.
  await openPin(page, cast.pin);
  const again = await item(page, edited);
  await expect(again.getByRole("button", { name: text(project, "c.likeLabel", { name: cast.commenterName }), exact: true }).first()).toHaveAttribute("aria-pressed", "true");

  await remove(page, project, again);
  await openPin(page, cast.pin);
  await expect(island(page).getByText(edited)).toHaveCount(0);
});

test("the pin's owner highlights a comment (second browser)", async ({ page, browser }, testInfo) => {
  const project = projectOf(testInfo.project.name);
  const cast = CAST[project];
  await signIn(page, cast.commenter);
  await openPin(page, cast.pin);
  const mark = token();
  const entry = await post(page, project, `highlight me ${mark}`);
  await expect(entry).toBeVisible();
  // The commenter is not the owner: no Highlight for them.
  await entry.getByRole("button", { name: text(project, "c.more"), exact: true }).first().click();
  await expect(entry.getByRole("button", { name: text(project, "c.highlight"), exact: true })).toHaveCount(0);

  const ownerContext = await browser.newContext({ locale: project === "ar" ? "ar-SA" : "en-US" });
  try {
    const owner = await ownerContext.newPage();
    await signIn(owner, OWNER);
    await openPin(owner, cast.pin);
    const theirs = await item(owner, mark);
    const answered = owner.waitForResponse((r) => r.url().includes("/v3/aggregated_comments/pin/highlight/"));
    await more(theirs, project, text(project, "c.highlight"));
    expect((await answered).status()).toBe(200);
    await expect(theirs.getByText(text(project, "c.highlighted"))).toBeVisible();
  } finally {
    await ownerContext.close();
  }

  await openPin(page, cast.pin);
  const seen = await item(page, mark);
  await expect(seen.getByText(text(project, "c.highlighted"))).toBeVisible();
  await remove(page, project, seen);
});

test("signed out, commenting asks to log in; after login the composer is focused", async ({ page }, testInfo) => {
  const project = projectOf(testInfo.project.name);
  const cast = CAST[project];
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts.push(request.url());
  });
  await page.goto(`/pin/${cast.signedOutPin}/`);
  // Reading costs no React: the log-in composer is server HTML until the person reaches for it.
  await page.waitForLoadState("networkidle");
  expect(scripts.filter((url) => /CommentsIsland/.test(url))).toEqual([]);
  await expect(page.locator(".pin-comments")).toBeVisible();
  await expect(page.getByRole("textbox", { name: text(project, "c.composerLabel"), exact: true })).toHaveCount(0);
  await page.locator(".comments-island").getByRole("link", { name: text(project, "c.signedOut"), exact: true }).click();
  const login = page.getByRole("dialog", { name: text(project, "auth.login.heading") });
  await expect(login).toBeVisible();
  expect(await page.evaluate(() => sessionStorage.getItem("unauthCommentPinId"))).toBe(cast.signedOutPin);
  await login.getByLabel(text(project, "auth.login.usernameOrEmail")).fill(cast.login);
  await login.getByLabel(text(project, "auth.login.password"), { exact: true }).fill(DEMO_PASSWORD);
  await login.getByRole("button", { name: text(project, "auth.login.submit"), exact: true }).click();
  await expect(login).toBeHidden({ timeout: 20_000 });
  await expect(page).toHaveURL(new RegExp(`/pin/${cast.signedOutPin}/$`));
  await expect(composer(page, project)).toBeFocused({ timeout: 15_000 });
  await expect(island(page).getByRole("status").filter({ hasText: text(project, "c.resumed") })).toBeVisible();
  expect(await page.evaluate(() => sessionStorage.getItem("unauthCommentPinId"))).toBeNull();
});

test("a script-injection payload is shown as text, never run", async ({ page }, testInfo) => {
  const project = projectOf(testInfo.project.name);
  const cast = CAST[project];
  let dialogs = 0;
  page.on("dialog", (dialog) => {
    dialogs += 1;
    void dialog.dismiss();
  });
  await signIn(page, cast.commenter);
  await openPin(page, cast.pin);
  const mark = token();
  const payload = `<img src=x onerror="alert(1)"><script>alert(2)</script><a href="javascript:alert(3)">x</a> ${mark}`;
  const entry = await post(page, project, payload);
  await expect(entry.locator(".comment-text")).toHaveText(payload);
  await expect(entry.locator(".comment-text img, .comment-text script, .comment-text a[href^='javascript']")).toHaveCount(0);
  // And in the server HTML after a reload, for readers without script.
  const html = await (await page.request.get(`/pin/${cast.pin}/?server_only=1`)).text();
  expect(html).not.toContain(`<script>alert(2)</script>`);
  // Server-only pages (crawlers, caches) carry no island at all, only PinComments' HTML.
  expect(html).not.toMatch(/component-url="[^"]*CommentsIsland/);
  expect(html).toContain("pin-comments");
  await openPin(page, cast.pin);
  const again = await item(page, mark);
  await expect(again.locator(".comment-text")).toHaveText(payload);
  expect(dialogs).toBe(0);
  await remove(page, project, again);
});

test("links in comments: http(s) off blocked hosts only, marked as user-generated", async ({ page }, testInfo) => {
  const project = projectOf(testInfo.project.name);
  const cast = CAST[project];
  await signIn(page, cast.commenter);
  await openPin(page, cast.pin);
  const mark = token();
  const entry = await post(page, project, `https://shop.dealsgalore-now.example/deal https://recipes.example/orzo ${mark}`);
  const allowed = entry.getByRole("link", { name: "https://recipes.example/orzo" });
  await expect(allowed).toHaveAttribute("rel", "nofollow ugc noopener");
  await expect(allowed).toHaveAttribute("href", "https://recipes.example/orzo");
  await expect(entry.getByRole("link", { name: /dealsgalore/ })).toHaveCount(0);
  await expect(entry.locator(".comment-text")).toContainText("https://shop.dealsgalore-now.example/deal");
  await remove(page, project, entry);
});

test("comments turned off: the message and no composer", async ({ page }, testInfo) => {
  const project = projectOf(testInfo.project.name);
  await signIn(page, CAST[project].commenter);
  await openPin(page, DISABLED_PIN);
  await expect(island(page).getByText(text(project, "c.disabled"))).toBeVisible();
  await expect(composer(page, project)).toHaveCount(0);
});

// A 1×1 PNG: the server sniffs magic bytes, so a real image header is needed.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");

test("tried it: the tab by keyboard, a post with a photo, like and helpful", async ({ page }, testInfo) => {
  const project = projectOf(testInfo.project.name);
  const cast = CAST[project];
  await signIn(page, cast.commenter);
  await openPin(page, cast.pin);
  const commentsTab = island(page).getByRole("tab", { name: text(project, "c.tabComments") });
  await commentsTab.focus();
  await commentsTab.press(project === "ar" ? "ArrowLeft" : "ArrowRight");
  const triedTab = island(page).getByRole("tab", { name: text(project, "c.tabTried") });
  await expect(triedTab).toBeFocused();
  await expect(triedTab).toHaveAttribute("aria-selected", "true");

  const mark = token();
  const panel = island(page).getByRole("tabpanel");
  await panel.getByLabel(text(project, "c.tried.formLabel")).fill(`worked well ${mark}`);
  await panel.getByLabel(text(project, "c.tried.photo")).setInputFiles({ name: "try.png", mimeType: "image/png", buffer: PNG });
  const uploaded = page.waitForResponse((r) => r.url().includes("/v3/did_it/photos/"));
  const created = page.waitForResponse((r) => r.url().includes("/resource/DidItActivityResource/create/"));
  await panel.getByRole("button", { name: text(project, "c.tried.post"), exact: true }).click();
  expect((await uploaded).status()).toBe(200);
  const answer = await created;
  expect(answer.status()).toBe(200);
  const postId = ((await answer.json()) as { resource_response: { data: { id: string } } }).resource_response.data.id;
  try {
    const entry = panel.getByRole("list", { name: text(project, "c.tried.listLabel") }).getByRole("listitem").first();
    await expect(entry).toContainText(mark);
    await expect(entry.getByRole("img")).toBeVisible();
    const like = entry.getByRole("button", { name: new RegExp(text(project, "c.tried.likeLabel", { name: ".+" })) });
    const liked = page.waitForResponse((r) => r.url().includes("/resource/DidItLikeResource/create/"));
    await like.click();
    expect((await liked).status()).toBe(200);
    await expect(like).toHaveAttribute("aria-pressed", "true");
    await expect(entry.getByText(text(project, "c.likes", { count: 1 }))).toBeVisible();
    const helpful = entry.getByRole("button", { name: new RegExp(text(project, "c.tried.helpfulLabel", { name: ".+" })) });
    const marked = page.waitForResponse((r) => r.url().includes("/resource/DidItHelpfulResource/create/"));
    await helpful.click();
    expect((await marked).status()).toBe(200);
    await expect(helpful).toHaveAttribute("aria-pressed", "true");
  } finally {
    await page.evaluate(async (id) => {
      const csrf = decodeURIComponent(/(?:^|;\s*)csrftoken=([^;]+)/.exec(document.cookie)?.[1] ?? "");
      await fetch("/resource/DidItActivityResource/delete/", {
        method: "POST",
        headers: { "content-type": "application/json", "x-csrftoken": csrf, "x-requested-with": "XMLHttpRequest" },
        body: JSON.stringify({ options: { did_it_id: id } }),
      });
    }, postId);
  }
});
