// The pin builder in a real browser, in English and in Arabic: the header's Create button (a
// sign-up prompt signed out), real image files uploaded with their progress bars observed, the
// drafts listed again after a reload, a carousel made by adding an item, the single pin editor's
// autosave and error slots, batch edit of two drafts (only the changed fields), a product tagged
// on an image, publishing (the pins then on the board, the profile and in search) and
// scheduling, and axe on each view at a phone's width.
// Each project works as its own account and starts by deleting that account's drafts (the e2e
// state is kept between runs), so the two projects never share a draft.
import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { expectNoViolations } from "./axe.ts";
import { pageResource, signIn } from "./session.ts";
import { localeText, projectOf, type Project } from "./strings.ts";

const text = localeText({ b: "builder", auth: "auth" });
const ACCOUNT: Record<Project, string> = { en: "demo", ar: "sam" };
/**
 * A board both accounts may publish to: demo owns it, sam collaborates on it. It is secret, so
 * what this file publishes never reaches the public feeds other files photograph.
 */
const BOARD = "10001";
const BOARD_PATH = "/demo/surprise-party-for-maya/";
const photo = (name: string) => ({ name, mimeType: "image/jpeg", buffer: readFileSync(new URL(`../../scripts/seed/photos/${name}`, import.meta.url)) });
/** 1068 × 1600 (2:3), 1600 × 1000 and 1600 × 1200 (offered a crop), 1600 × 1082. */
const FILES = [photo("djembe-pallet-table.jpg"), photo("dandelion-seeds.jpg"), photo("bird-ornament-lamps.jpg")];
const EXTRA = photo("fig-red-bowl.jpg");
const SPARE = photo("dune-grass-sea.jpg");

interface Draft {
  id: string;
  title: string;
  description: string;
  websiteLink: string;
  boardId: string | null;
  type: string;
  items: unknown[];
}

async function drafts(page: Page): Promise<Draft[]> {
  const answer = await pageResource<{ results: Draft[] }>(page, "PinDraftsResource", "get", {});
  expect(answer.status).toBe(200);
  return answer.data.results;
}

async function deleteAllDrafts(page: Page): Promise<void> {
  for (const draft of await drafts(page)) expect((await pageResource(page, "PinDraftResource", "delete", { id: draft.id })).status).toBe(200);
}

const draftCards = (page: Page) => page.getByTestId("draft-card");

test.describe("signed out", () => {
  test("the builder sends a visitor to log in and back, and Create opens the sign-up prompt", async ({ page }, testInfo) => {
    const project = projectOf(testInfo.project.name);
    const response = await page.goto("/pin-builder/");
    expect(new URL(page.url()).pathname).toBe("/login/");
    expect(new URL(page.url()).searchParams.get("next")).toBe("/pin-builder/");
    expect(response?.status()).toBe(200);

    await page.goto("/");
    const create = page.locator(".site-header").getByRole("link", { name: text(project, "b.header.create"), exact: true });
    await expect(create).toHaveAttribute("href", "/signup/?next=/pin-builder/");
    await create.click();
    await expect(page.getByRole("dialog", { name: text(project, "auth.signup.heading") })).toBeVisible();
  });
});

test.describe("signed in", () => {
  test.describe.configure({ mode: "serial" });

  test.beforeEach(async ({ page }, testInfo) => {
    await signIn(page, ACCOUNT[projectOf(testInfo.project.name)]);
  });

  test("uploads three files with progress, keeps them as drafts, makes a carousel, edits and batch-edits", async ({ page }, testInfo) => {
    test.setTimeout(120_000);
    const project = projectOf(testInfo.project.name);
    const t = (key: string, values: Record<string, string | number> = {}) => text(project, `b.${key}`, values);
    await deleteAllDrafts(page);

    await test.step("Create in the header leads to the builder", async () => {
      await page.goto("/");
      await page.locator(".site-header").getByRole("link", { name: t("header.create"), exact: true }).click();
      await expect(page).toHaveURL(/\/pin-builder\/$/);
      await expect(page.getByRole("heading", { level: 1, name: t("ui.pageTitle") })).toBeVisible();
      await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
      await expect(page.getByText(t("ui.noDrafts"))).toBeVisible();
    });

    await test.step("three real files upload, each with its own progress bar", async () => {
      // Each upload's answer is held until the test has seen its bar, so the bar is observed
      // while the file is on its way, whatever the machine's speed.
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route("**/v3/media/uploads/", async (route) => {
        if (route.request().method() === "POST") await held;
        await route.continue();
      });
      await page.getByLabel(t("ui.chooseFiles")).setInputFiles(FILES);
      for (const file of FILES) {
        const bar = page.getByRole("progressbar", { name: t("ui.progressLabel", { name: file.name }) });
        await expect(bar).toBeVisible();
        await expect(bar).toHaveAttribute("max", String(file.buffer.length));
      }
      await expect(page.getByRole("button", { name: t("ui.cancelUpload", { name: FILES[0]!.name }) })).toBeVisible();
      release();
      await expect(draftCards(page)).toHaveCount(3, { timeout: 30_000 });
      await expect(page.getByRole("progressbar")).toHaveCount(0);
      await page.unroute("**/v3/media/uploads/");
    });

    await test.step("a bad file shows the server's message on its card", async () => {
      await page.getByLabel(t("ui.chooseFiles")).setInputFiles({ name: "not-a-photo.jpg", mimeType: "image/jpeg", buffer: Buffer.from("this is plain text, not a JPEG") });
      const card = page.getByTestId("upload-card").filter({ hasText: "not-a-photo.jpg" });
      await expect(card.getByRole("alert")).toContainText(t("ui.failed", { name: "not-a-photo.jpg" }));
      await card.getByRole("button", { name: t("ui.dismiss") }).click();
      await expect(card).toHaveCount(0);
      await expect(draftCards(page)).toHaveCount(3);
    });

    await test.step("a reload lists the drafts again", async () => {
      await page.reload();
      await expect(draftCards(page)).toHaveCount(3);
      const stored = await drafts(page);
      expect(stored.map((draft) => draft.items.length)).toEqual([1, 1, 1]);
    });

    await test.step("the editor: adding an item makes a carousel; fields autosave; a bad link is refused in its slot", async () => {
      await page.getByRole("button", { name: t("ui.editDraft", { title: t("ui.untitled") }) }).first().click();
      await expect(page.getByRole("heading", { name: t("ui.editorHeading") })).toBeVisible();
      await page.getByLabel(t("ui.addItem")).setInputFiles(EXTRA);
      await expect(page.getByTestId("draft-item")).toHaveCount(2, { timeout: 30_000 });
      await expect(page.getByRole("button", { name: t("ui.showItem", { number: 2 }) })).toHaveAttribute("aria-pressed", "true");
      // A third item, selected, then removed: the selection moves to its neighbour.
      await page.getByLabel(t("ui.addItem")).setInputFiles(SPARE);
      await expect(page.getByTestId("draft-item")).toHaveCount(3, { timeout: 30_000 });
      await expect(page.getByRole("button", { name: t("ui.showItem", { number: 3 }) })).toHaveAttribute("aria-pressed", "true");
      await page.getByRole("button", { name: t("ui.removeItem", { number: 3 }) }).click();
      await expect(page.getByTestId("draft-item")).toHaveCount(2);
      await expect(page.getByRole("button", { name: t("ui.showItem", { number: 2 }) })).toHaveAttribute("aria-pressed", "true");

      await page.getByLabel(t("ui.titleLabel")).fill("Lamps and fig bowls");
      await page.getByLabel(t("ui.descriptionLabel")).fill("Warm light for the evening");
      const link = page.getByLabel(t("ui.linkLabel"));
      await link.fill("ftp://files.example/lamps");
      await expect(link).toHaveAttribute("aria-invalid", "true");
      await expect(page.locator(`#${await link.getAttribute("id")}-error`)).toHaveText(text(project, "b.validation.linkScheme"));
      await link.fill("https://lamps.example/evening");
      await expect(link).toHaveAttribute("aria-invalid", "false");
      await page.getByLabel(t("ui.boardLabel")).selectOption(BOARD);
      await expect(page.getByTestId("save-status")).toContainText(t("ui.saved", { time: "" }).trim(), { timeout: 10_000 });
      await page.setViewportSize({ width: 390, height: 844 });
      await expectNoViolations(page, "the pin editor at 390 px");
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.getByRole("button", { name: t("ui.backToDrafts") }).click();
    });

    let carouselId = "";
    await test.step("the carousel and its fields are stored", async () => {
      await page.reload();
      const carousel = draftCards(page).filter({ hasText: t("ui.carouselBadge", { count: 2 }) });
      await expect(carousel).toHaveCount(1);
      const stored = (await drafts(page)).find((draft) => draft.type === "carousel")!;
      carouselId = stored.id;
      expect(stored).toMatchObject({ title: "Lamps and fig bowls", description: "Warm light for the evening", websiteLink: "https://lamps.example/evening", boardId: BOARD });
      expect(stored.items).toHaveLength(2);
    });

    await test.step("batch edit of two drafts sends only the changed fields", async () => {
      const others = draftCards(page).filter({ hasNotText: t("ui.carouselBadge", { count: 2 }) });
      await expect(others).toHaveCount(2);
      for (const card of await others.all()) await card.getByRole("checkbox").check();
      await expect(page.getByText(t("ui.selectedCount", { count: 2 }))).toBeVisible();
      await page.getByRole("button", { name: t("ui.batchEditSelected") }).click();
      await expect(page.getByRole("heading", { name: t("ui.batchHeading", { count: 2 }) })).toBeVisible();
      await page.setViewportSize({ width: 390, height: 844 });
      await expectNoViolations(page, "batch edit at 390 px");
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.getByLabel(t("ui.descriptionLabel")).fill("Sunlit seeds");
      await page.getByLabel(t("ui.boardLabel")).selectOption(BOARD);
      await page.getByRole("button", { name: t("ui.batchSave") }).click();
      await expect(page.getByTestId("batch-status")).toHaveText(t("ui.batchSaved", { count: 2 }));
      const stored = await drafts(page);
      const edited = stored.filter((draft) => draft.id !== carouselId);
      expect(edited.map((draft) => [draft.description, draft.boardId, draft.title])).toEqual([
        ["Sunlit seeds", BOARD, ""],
        ["Sunlit seeds", BOARD, ""],
      ]);
      // The carousel was not selected: untouched.
      expect(stored.find((draft) => draft.id === carouselId)).toMatchObject({ description: "Warm light for the evening" });
      await page.getByRole("button", { name: t("ui.backToDrafts") }).click();
    });

    await test.step("the feedback dialog is a labelled modal that keeps focus and sends the text", async () => {
      await page.getByRole("button", { name: t("ui.feedback") }).click();
      const dialog = page.getByRole("dialog", { name: t("ui.feedbackTitle") });
      await expect(dialog).toBeVisible();
      await expect(dialog.getByLabel(t("ui.feedbackLabel"))).toBeFocused();
      await expectNoViolations(page, "the feedback dialog");
      await dialog.getByLabel(t("ui.feedbackLabel")).fill("Uploading three photos at once was quick.");
      await dialog.getByRole("button", { name: t("ui.feedbackSend") }).click();
      await expect(dialog.getByRole("status")).toHaveText(t("ui.feedbackThanks"));
      await page.keyboard.press("Escape");
      await expect(page.getByRole("button", { name: t("ui.feedback") })).toBeFocused();
    });

    await test.step("a video becomes a draft, and a frame of it is sent as its cover", async () => {
      // A second of WebM, recorded from a canvas in the browser itself.
      const clip = await page.evaluate(async () => {
        const canvas = document.createElement("canvas");
        canvas.width = 320;
        canvas.height = 480;
        const context = canvas.getContext("2d")!;
        const recorder = new MediaRecorder(canvas.captureStream(30), { mimeType: "video/webm" });
        const chunks: Blob[] = [];
        recorder.ondataavailable = (event) => chunks.push(event.data);
        const stopped = new Promise((resolve) => (recorder.onstop = resolve));
        recorder.start();
        const started = performance.now();
        await new Promise<void>((resolve) => {
          const frame = () => {
            const elapsed = performance.now() - started;
            context.fillStyle = `hsl(${Math.round(elapsed / 5) % 360} 70% 50%)`;
            context.fillRect(0, 0, 320, 480);
            if (elapsed < 1200) requestAnimationFrame(frame);
            else resolve();
          };
          frame();
        });
        recorder.stop();
        await stopped;
        const bytes = new Uint8Array(await new Blob(chunks, { type: "video/webm" }).arrayBuffer());
        let binary = "";
        for (const byte of bytes) binary += String.fromCharCode(byte);
        return btoa(binary);
      });
      const poster = page.waitForRequest((request) => request.method() === "PUT" && /\/v3\/media\/uploads\/[^/]+\/poster\/$/.test(request.url()), { timeout: 30_000 });
      await page.getByLabel(t("ui.chooseFiles")).setInputFiles({ name: "clip.webm", mimeType: "video/webm", buffer: Buffer.from(clip, "base64") });
      const sent = await poster;
      expect(sent.headers()["content-type"]).toBe("image/jpeg");
      await expect(draftCards(page)).toHaveCount(4, { timeout: 30_000 });
    });

    await test.step("the upload view has no accessibility violations at 390 px", async () => {
      await page.setViewportSize({ width: 390, height: 844 });
      await expectNoViolations(page, "the builder's drafts at 390 px");
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    });
  });

  test("tags an image with a product, publishes it and the carousel, schedules the third, and finds the pins on the board, the profile and in search", async ({ page }, testInfo) => {
    test.setTimeout(120_000);
    const project = projectOf(testInfo.project.name);
    const t = (key: string, values: Record<string, string | number> = {}) => text(project, `b.${key}`, values);
    const untitled = () => page.getByRole("button", { name: t("ui.editDraft", { title: t("ui.untitled") }) }).first();
    /** Opens a draft in the editor; the list may still be settling after its load, so the press is repeated until the editor shows. */
    const openDraft = async (button: () => ReturnType<Page["getByRole"]>) => {
      const editor = page.getByRole("heading", { name: t("ui.editorHeading") });
      await expect(async () => {
        if (!(await editor.isVisible())) await button().click({ timeout: 3_000 });
        await expect(editor).toBeVisible({ timeout: 3_000 });
      }).toPass({ timeout: 30_000 });
    };
    const publishNow = async (): Promise<string> => {
      await page.getByRole("button", { name: t("ui.publish"), exact: true }).click();
      const result = page.getByTestId("publish-result");
      await expect(result).toContainText(t("ui.statusSucceeded"), { timeout: 15_000 });
      const href = await result.getByRole("link", { name: t("ui.seePin") }).getAttribute("href");
      expect(href).toMatch(/^\/pin\/\d+\/$/);
      return href!;
    };
    await page.goto("/pin-builder/");
    // The video draft of the first test stays out of the way: the two batch-edited images are next.
    for (const draft of await drafts(page)) {
      if ((draft.items[0] as { media?: { type?: string } } | undefined)?.media?.type === "video") expect((await pageResource(page, "PinDraftResource", "delete", { id: draft.id })).status).toBe(200);
    }
    await page.reload();

    let tagged = "";
    await test.step("an image is tagged with a product and published", async () => {
      await openDraft(untitled);
      await page.getByLabel(t("ui.titleLabel")).fill("Dandelion clock");
      await page.getByRole("button", { name: t("tags.add") }).click();
      await page.getByLabel(t("tags.searchLabel")).fill("brass lamps");
      await page.locator("#main").getByRole("button", { name: t("tags.search"), exact: true }).click();
      await page.getByRole("button", { name: t("tags.pick") }).first().click();
      await expect(page.getByText(/Japandi bathroom ideas with brass lamps/).first()).toBeVisible();
      await expect(page.getByTestId("save-status")).toContainText(t("ui.saved", { time: "" }).trim(), { timeout: 10_000 });
      tagged = await publishNow();
      await page.goto(tagged);
      await expect(page.getByRole("heading", { name: "Dandelion clock" })).toBeVisible();
      // The tag's card opens on demand; the list below the image is always shown.
      await expect(page.locator('a[href="/pin/100303/"]:visible').first()).toBeVisible();
    });

    let carousel = "";
    await test.step("the carousel is published now", async () => {
      await page.goto("/pin-builder/");
      await openDraft(() => draftCards(page).filter({ hasText: t("ui.carouselBadge", { count: 2 }) }).getByRole("button", { name: t("ui.editDraft", { title: "Lamps and fig bowls" }) }));
      carousel = await publishNow();
      await page.goto(carousel);
      await expect(page.getByRole("heading", { name: "Lamps and fig bowls" })).toBeVisible();
    });

    await test.step("the third is scheduled for tomorrow, listed, and can be cancelled", async () => {
      await page.goto("/pin-builder/");
      await openDraft(untitled);
      await page.getByLabel(t("ui.titleLabel")).fill("Seeds at dawn");
      await page.getByLabel(t("ui.publishLater")).check();
      const tomorrow = new Date(Date.now() + 24 * 3600 * 1000).toISOString().slice(0, 10);
      await page.getByLabel(t("ui.dateLabel"), { exact: true }).fill(tomorrow);
      await page.getByLabel(t("ui.timeLabel"), { exact: true }).fill("09:30");
      await page.getByRole("button", { name: t("ui.schedule"), exact: true }).click();
      await expect(page.getByTestId("publish-result")).toContainText(t("ui.scheduledFor", { time: "" }).trim(), { timeout: 15_000 });
      const scheduled = page.getByTestId("scheduled-pin").filter({ hasText: "Seeds at dawn" });
      await expect(scheduled).toHaveCount(1);
      await scheduled.getByRole("button", { name: t("ui.cancelScheduled", { title: "Seeds at dawn" }) }).click();
      await expect(scheduled).toHaveCount(0);
    });

    await test.step("both published pins are on the board, the author's profile and in their search at once", async () => {
      for (const path of [BOARD_PATH, `/${ACCOUNT[project]}/`]) {
        await page.goto(path);
        for (const href of [tagged, carousel]) await expect(page.locator(`a[href="${href}"]`).first(), `${href} on ${path}`).toBeAttached();
      }
      await page.goto(`/search/pins/?q=${encodeURIComponent("Lamps and fig bowls")}`);
      await expect(page.locator(`a[href="${carousel}"]`).first()).toBeAttached();
      await page.goto(`/search/pins/?q=${encodeURIComponent("Dandelion clock")}`);
      await expect(page.locator(`a[href="${tagged}"]`).first()).toBeAttached();
    });
  });
});
