// The story pin editor in a real browser, in English and in Arabic: reached from the builder, a
// three-page story made with a real photo uploaded and cut to 9:16 for its cover page, a heading,
// a paragraph in a chosen font, a product sticker and a link block; a block dragged with the
// pointer and nudged with the keyboard, then resized and turned by its handles with the pointer
// and the keyboard; undo and redo by button and by Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y; a video block
// and the music note; the draft autosaved, reloaded and reopened from the builder's list; axe at
// a phone's width; then published (each media item's progress shown) to a secret board (demo
// owns it, sam collaborates), so nothing reaches the public feeds other files photograph. The
// close-up shows its three pages with each block placed, sized, turned and in its font as the
// editor had it; the pin is in the author's story pins feed and at the front of its board. A
// mention sticker names the other account (demo and sam both see the board): the close-up links
// to their profile, and their news hub tells them.
// Each project works as its own account and starts by deleting that account's story drafts.
import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { expectNoViolations } from "./axe.ts";
import { pageResource, signIn } from "./session.ts";
import { localeText, projectOf, type Project } from "./strings.ts";

const text = localeText({ b: "builder", n: "news" });
const ACCOUNT: Record<Project, string> = { en: "demo", ar: "sam" };
/** The person each project's story mentions (docs/demo-accounts.md): the other account, who sees the board too. */
const MENTIONED: Record<Project, { username: string; id: string; name: string }> = { en: { username: "sam", id: "7", name: "Sam Okafor" }, ar: { username: "demo", id: "1", name: "Ava Thompson" } };
const BOARD = "10001";
/** 1068 × 1600 (2:3): a story page is offered the 9:16 crop. */
const PHOTO = { name: "djembe-pallet-table.jpg", mimeType: "image/jpeg", buffer: readFileSync(new URL("../../scripts/seed/photos/djembe-pallet-table.jpg", import.meta.url)) };

interface StoryBlockAnswer {
  id: string;
  type: string;
  text: string;
  fontId: string;
  pinId: string | null;
  userId?: string | null;
  edits: { left: number; top: number; scale: number; transform: { rotate: number; scaleX: number; scaleY: number } };
  linkBlock: { srcUrl: string } | null;
}
interface StoryAnswer {
  id: string;
  title: string;
  story: { coverPageIndex: number; pages: Array<{ media: { width: number; height: number } | null; blocks: StoryBlockAnswer[] }> };
}

async function storyDrafts(page: Page): Promise<StoryAnswer[]> {
  const answer = await pageResource<{ results: StoryAnswer[] }>(page, "StoryPinDraftsResource", "get", {});
  expect(answer.status).toBe(200);
  return answer.data.results;
}

async function storyDraft(page: Page, id: string): Promise<StoryAnswer> {
  const answer = await pageResource<StoryAnswer>(page, "StoryPinDraftsResource", "get", { id });
  expect(answer.status).toBe(200);
  return answer.data;
}

/** A product pin the signed-in person can see, from the products search. */
async function productPin(page: Page): Promise<string> {
  for (const query of ["lamp", "bowl", "chair", "shirt", "dress"]) {
    const answer = await pageResource<{ results?: Array<{ type?: string; id?: string; kind?: string }> }>(page, "BaseSearchResource", "get", { query, scope: "buyable_pins", page_size: 8 });
    const found = (answer.data?.results ?? []).find((result) => result.type === "pin" && result.kind === "product" && typeof result.id === "string");
    if (found?.id) return found.id;
  }
  throw new Error("no product pin found in search");
}

test.describe("the story pin editor", () => {
  test.beforeEach(async ({ page }, testInfo) => {
    await signIn(page, ACCOUNT[projectOf(testInfo.project.name)]);
  });

  test("makes a three-page story, moves a block by pointer and keyboard, saves, reopens and publishes it", async ({ page, browser }, testInfo) => {
    test.setTimeout(180_000);
    const project = projectOf(testInfo.project.name);
    const t = (key: string, values: Record<string, string | number> = {}) => text(project, `b.${key}`, values);
    const s = (key: string, values: Record<string, string | number> = {}) => t(`storyEditor.${key}`, values);
    const addBlock = (type: string) => page.getByRole("button", { name: `+ ${s(`blockTypes.${type}`)}`, exact: true }).click();
    const blockText = (type: string) => page.getByLabel(`${s(`blockTypes.${type}`)} · ${s("textLabel")}`, { exact: true });
    const saved = async () => expect(page.getByTestId("save-status")).toContainText(s("saved", { time: "" }).trim(), { timeout: 15_000 });

    await page.goto("/pin-builder/");
    for (const draft of await storyDrafts(page)) expect((await pageResource(page, "StoryPinDraftsResource", "delete", { id: draft.id })).status).toBe(200);
    const product = await productPin(page);

    let draftId = "";
    let pinPath = "";
    let keyed: StoryBlockAnswer["edits"] = { left: 0, top: 0, scale: 1, transform: { rotate: 0, scaleX: 1, scaleY: 1 } };
    let link: StoryBlockAnswer = { id: "", type: "", text: "", fontId: "", pinId: null, edits: { left: 0, top: 0, scale: 1, transform: { rotate: 0, scaleX: 1, scaleY: 1 } }, linkBlock: null };
    await test.step("the builder's button opens a new story draft", async () => {
      await page.getByRole("link", { name: t("ui.createStory"), exact: true }).click();
      await expect(page).toHaveURL(/\/pin-builder\/story\/\?draft=\d+$/, { timeout: 15_000 });
      draftId = new URL(page.url()).searchParams.get("draft")!;
      await expect(page.getByTestId("story-canvas")).toBeVisible();
    });

    await test.step("page 1: a full-page photo cut to 9:16 and a heading", async () => {
      await page.getByLabel(s("uploadPageMedia"), { exact: true }).setInputFiles(PHOTO);
      const crop = page.getByRole("button", { name: s("cropTo"), exact: true });
      await expect(crop).toBeVisible({ timeout: 20_000 });
      await crop.click();
      await expect(crop).toHaveCount(0, { timeout: 20_000 });
      await addBlock("heading");
      await blockText("heading").fill("Autumn soup night");
      await expect(page.getByLabel(s("titleLabel"), { exact: true })).toHaveValue("Autumn soup night");
    });

    await test.step("page 2: a paragraph in a chosen font and a product sticker", async () => {
      await page.getByRole("button", { name: `+ ${s("addPage")}`, exact: true }).click();
      await expect(page.getByTestId("story-page")).toHaveCount(2);
      await addBlock("paragraph");
      await blockText("paragraph").fill("Roast the squash first.");
      await page.getByLabel(s("fontLabel"), { exact: true }).selectOption("serif");
      await addBlock("product_sticker");
      // A pin that does not exist: the server's 400 shows under the sticker's own field, and the real product clears it.
      const productField = page.getByLabel(s("productLabel"), { exact: true });
      await productField.fill("/pin/999999999999/");
      await expect(productField).toHaveAttribute("aria-invalid", "true", { timeout: 15_000 });
      await expect(page.getByText(t("story.stickerUnavailable"), { exact: true })).toBeVisible();
      await productField.fill(`/pin/${product}/`);
      await expect(productField).toHaveAttribute("aria-invalid", "false", { timeout: 15_000 });
      await addBlock("mention_sticker");
      const mentionField = page.getByLabel(s("mentionLabel"), { exact: true });
      await mentionField.fill(MENTIONED[project].username);
      // The field's own Find button (in Arabic the header's search button has the same name).
      await page.locator(".story-inline").filter({ has: mentionField }).getByRole("button", { name: s("mentionFind"), exact: true }).click();
      await expect(page.getByText(s("mentionFound", { name: MENTIONED[project].name }), { exact: true })).toBeVisible({ timeout: 15_000 });
    });

    await test.step("page 3: a link block dragged with the pointer and nudged with the keyboard", async () => {
      await page.getByRole("button", { name: `+ ${s("addPage")}`, exact: true }).click();
      await expect(page.getByTestId("story-page")).toHaveCount(3);
      await addBlock("link");
      await blockText("link").fill("Full recipe");
      await page.getByLabel(s("linkUrlLabel"), { exact: true }).fill("https://example.com/soup");
      const grip = page.getByRole("button", { name: s("blockName", { type: s("blockTypes.link"), label: "Full recipe" }), exact: true });
      const canvas = await page.getByTestId("story-canvas").boundingBox();
      const box = await grip.boundingBox();
      expect(canvas && box).toBeTruthy();
      const x = box!.x + box!.width / 2;
      const y = box!.y + box!.height / 2;
      await page.mouse.move(x, y);
      await page.mouse.down();
      await page.mouse.move(x + canvas!.width * 0.1, y + canvas!.height * 0.1, { steps: 5 });
      await page.mouse.up();
      await grip.focus();
      await page.keyboard.press("ArrowRight");
      // The autosave follows the last edit: wait until the stored story has the third page's link.
      await expect.poll(async () => (await storyDraft(page, draftId)).story.pages[2]?.blocks[0]?.edits.left ?? 0, { timeout: 15_000 }).toBeGreaterThan(0.6);
      await saved();
      link = (await storyDraft(page, draftId)).story.pages[2]!.blocks[0]!;
      // The drag moved it 10% right and down (0.6, 0.6), the nudge another 1% right.
      expect(link.edits.left).toBeCloseTo(0.61, 2);
      expect(link.edits.top).toBeCloseTo(0.6, 2);
      expect(link.linkBlock?.srcUrl).toBe("https://example.com/soup");
    });

    await test.step("the link block's corner handle resizes it and its round handle turns it, by pointer and by keyboard", async () => {
      const name = s("blockName", { type: s("blockTypes.link"), label: "Full recipe" });
      const resize = page.getByRole("button", { name: s("resizeHandle", { name }), exact: true });
      const turn = page.getByRole("button", { name: s("rotateHandle", { name }), exact: true });
      await page.getByTestId("story-canvas").scrollIntoViewIfNeeded();
      const canvas = (await page.getByTestId("story-canvas").boundingBox())!;
      // The block's centre, where its saved edits put it (0.61, 0.6 of the canvas).
      const centre = { x: canvas.x + 0.61 * canvas.width, y: canvas.y + 0.6 * canvas.height };
      const middle = async (handle: typeof resize) => {
        const box = (await handle.boundingBox())!;
        return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
      };
      // Dragging the corner half as far again from the centre makes the block 1.5 times its size.
      const corner = await middle(resize);
      await page.mouse.move(corner.x, corner.y);
      await page.mouse.down();
      await page.mouse.move(centre.x + 1.5 * (corner.x - centre.x), centre.y + 1.5 * (corner.y - centre.y), { steps: 5 });
      await page.mouse.up();
      // The turn handle sits straight above the centre: dragged round to straight right of it, a quarter turn clockwise.
      const top = await middle(turn);
      expect(Math.abs(top.x - centre.x)).toBeLessThan(2);
      await page.mouse.move(top.x, top.y);
      await page.mouse.down();
      await page.mouse.move(centre.x + (centre.y - top.y) * 0.7, top.y + (centre.y - top.y) * 0.3, { steps: 3 });
      await page.mouse.move(centre.x + (centre.y - top.y), centre.y, { steps: 3 });
      await page.mouse.up();
      await expect.poll(async () => (await storyDraft(page, draftId)).story.pages[2]?.blocks[0]?.edits.transform.rotate ?? 0, { timeout: 15_000 }).toBeGreaterThan(80);
      const dragged = (await storyDraft(page, draftId)).story.pages[2]!.blocks[0]!.edits;
      expect(dragged.scale).toBeCloseTo(1.5, 1);
      expect(Math.abs(dragged.transform.rotate - 90)).toBeLessThan(2);
      expect([dragged.left, dragged.top]).toEqual([link.edits.left, link.edits.top]);
      // On a focused handle the arrows do the same: left turns the block 5 degrees back, up grows it by a tenth.
      await turn.focus();
      await page.keyboard.press("ArrowLeft");
      await resize.focus();
      await page.keyboard.press("ArrowUp");
      await expect.poll(async () => (await storyDraft(page, draftId)).story.pages[2]?.blocks[0]?.edits.scale ?? 0, { timeout: 15_000 }).toBeGreaterThan(1.6);
      keyed = (await storyDraft(page, draftId)).story.pages[2]!.blocks[0]!.edits;
      expect(keyed.scale).toBeCloseTo(dragged.scale * 1.1, 3);
      expect(keyed.transform.rotate).toBeCloseTo(dragged.transform.rotate - 5, 3);
      await saved();
    });

    await test.step("a video block offers the videos uploaded in the builder, and music says none is licensed", async () => {
      await addBlock("video");
      const video = page.getByLabel(s("videoLabel"), { exact: true });
      await expect(video).toBeEnabled({ timeout: 15_000 });
      await expect(video.locator("option").first()).toHaveText(s("videoChoose"));
      await page.getByRole("button", { name: s("removeBlock"), exact: true }).click();
      await addBlock("music");
      await expect(page.getByTestId("music-note")).toHaveText(s("musicNone"));
      await expect(page.getByTestId("story-block")).toHaveCount(1);
    });

    await test.step("the board is chosen and everything is saved as the editor shows it", async () => {
      await page.getByLabel(s("boardLabel"), { exact: true }).selectOption(BOARD);
      await expect.poll(async () => (await pageResource<{ boardId: string | null }>(page, "StoryPinDraftsResource", "get", { id: draftId })).data.boardId, { timeout: 15_000 }).toBe(BOARD);
      const stored = await storyDraft(page, draftId);
      expect(stored.title).toBe("Autumn soup night");
      expect(stored.story.pages).toHaveLength(3);
      expect(stored.story.pages[0]!.media).toMatchObject({ width: 900, height: 1600 });
      expect(stored.story.pages[0]!.blocks.map((block) => [block.type, block.text])).toEqual([["heading", "Autumn soup night"]]);
      expect(stored.story.pages[1]!.blocks.map((block) => [block.type, block.fontId, block.pinId])).toEqual([
        ["paragraph", "serif", null],
        ["product_sticker", "sans", product],
        ["mention_sticker", "sans", null],
      ]);
      expect(stored.story.pages[1]!.blocks[2]!.userId).toBe(MENTIONED[project].id);
      expect(stored.story.pages[1]!.blocks[0]!.text).toBe("Roast the squash first.");
    });

    await test.step("undo takes the last edit back and redo puts it again", async () => {
      await page.getByRole("button", { name: s("undo"), exact: true }).click();
      await expect(page.getByLabel(s("boardLabel"), { exact: true })).toHaveValue("");
      await page.getByRole("button", { name: s("redo"), exact: true }).click();
      await expect(page.getByLabel(s("boardLabel"), { exact: true })).toHaveValue(BOARD);
    });

    await test.step("Ctrl+Z and Ctrl+Shift+Z undo and redo outside text fields, and leave a text field's typing to the browser", async () => {
      const board = page.getByLabel(s("boardLabel"), { exact: true });
      await page.getByRole("button", { name: s("redo"), exact: true }).focus();
      await page.keyboard.press("Control+z");
      await expect(board).toHaveValue("");
      await page.keyboard.press("Control+Shift+z");
      await expect(board).toHaveValue(BOARD);
      await page.keyboard.press("Control+z");
      await expect(board).toHaveValue("");
      await page.keyboard.press("Control+y");
      await expect(board).toHaveValue(BOARD);
      await page.getByLabel(s("titleLabel"), { exact: true }).focus();
      await page.keyboard.press("Control+z");
      await expect(board).toHaveValue(BOARD);
      await expect(page.getByLabel(s("titleLabel"), { exact: true })).toHaveValue("Autumn soup night");
    });

    await test.step("a reload and the builder's list both reopen the story", async () => {
      await page.reload();
      await expect(page.getByTestId("story-page")).toHaveCount(3, { timeout: 15_000 });
      await page.goto("/pin-builder/");
      const edit = page.getByRole("button", { name: t("ui.editDraft", { title: "Autumn soup night" }) }).first();
      await expect(async () => {
        if (!/\/pin-builder\/story\//.test(page.url())) await edit.click({ timeout: 3_000 });
        await expect(page).toHaveURL(new RegExp(`/pin-builder/story/\\?draft=${draftId}$`), { timeout: 3_000 });
      }).toPass({ timeout: 30_000 });
      await page.getByRole("button", { name: s("pageButton", { number: 2 }), exact: true }).click();
      await expect(page.getByTestId("story-block").filter({ hasText: "Roast the squash first." })).toBeVisible();
    });

    await test.step("the editor has no accessibility violations at 390 px", async () => {
      await page.setViewportSize({ width: 390, height: 844 });
      await expectNoViolations(page, "the story editor at 390 px");
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await page.setViewportSize({ width: 1280, height: 800 });
    });

    await test.step("publishing makes a story pin whose close-up shows the three pages", async () => {
      // Each media item's progress shows while it is checked: the cover page's picture is read back slowly here, so its "processing" is seen.
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      const uploadRead = /\/v3\/media\/uploads\/[0-9a-f]+\/$/;
      await page.route(uploadRead, async (route) => {
        if (route.request().method() === "GET") await held;
        await route.continue();
      });
      await page.getByRole("button", { name: s("publish"), exact: true }).click();
      const item = page.getByTestId("publish-progress-item");
      await expect(item).toHaveCount(1, { timeout: 15_000 });
      await expect(item).toHaveText(`${s("progressPage", { number: 1 })}: ${s("progressProcessing")}`);
      await expect(page.getByTestId("publish-progress")).toContainText(s("progressSummary", { done: 0, total: 1 }));
      release();
      const result = page.getByTestId("publish-result");
      await expect(result).toContainText(s("published"), { timeout: 20_000 });
      await page.unroute(uploadRead);
      const href = await result.getByRole("link", { name: s("seePin") }).getAttribute("href");
      expect(href).toMatch(/^\/pin\/\d+\/$/);
      await page.goto(href!);
      const pages = page.locator("li.story-page");
      await expect(pages).toHaveCount(3);
      await expect(pages.nth(0).getByRole("heading", { name: "Autumn soup night" })).toBeAttached();
      await expect(pages.nth(1)).toContainText("Roast the squash first.");
      await expect(pages.nth(2)).toContainText("Full recipe");
      pinPath = href!;
    });

    await test.step("the close-up shows each block where, how large, how turned and in which font the editor had it", async () => {
      const pages = page.locator("li.story-page");
      const paragraph = pages.nth(1).locator(".story-placed").filter({ hasText: "Roast the squash first." });
      expect(await paragraph.evaluate((element) => getComputedStyle(element).fontFamily)).toContain("Georgia");
      const link = pages.nth(2).locator(".story-placed").filter({ hasText: "Full recipe" });
      await link.scrollIntoViewIfNeeded();
      const placed = await link.evaluate((element) => {
        const style = getComputedStyle(element);
        const [a = 1, b = 0] = /matrix\(([^)]*)\)/.exec(style.transform)?.[1]?.split(",").map(Number) ?? [];
        const canvas = element.parentElement!.getBoundingClientRect();
        return { rotate: (Math.atan2(b, a) * 180) / Math.PI, scale: Math.hypot(a, b), left: parseFloat(style.left) / canvas.width, top: parseFloat(style.top) / canvas.height };
      });
      expect(Math.abs(placed.rotate - keyed.transform.rotate)).toBeLessThan(0.5);
      expect(placed.scale).toBeCloseTo(keyed.scale, 2);
      expect(placed.left).toBeCloseTo(0.61, 2);
      expect(placed.top).toBeCloseTo(0.6, 2);
      // No inline style attribute anywhere in the story: the strict CSP would refuse one.
      await expect(page.locator(".story-pin [style]")).toHaveCount(0);
    });

    await test.step("the story pin is in its author's story pins feed, at the front of its board, and opens from there with its pages", async () => {
      const profileHref = await page.locator(".pin-byline a").nth(0).getAttribute("href");
      const boardHref = await page.locator(".pin-byline a").nth(1).getAttribute("href");
      expect(profileHref && boardHref).toBeTruthy();
      await page.goto(profileHref!);
      await expect(page.locator(`#profile-stories a.pin-link[href="${pinPath}"]`)).toBeVisible();
      await page.goto(boardHref!);
      const cells = page.locator(".pin-grid a.pin-link");
      await expect(cells.first()).toBeVisible();
      const hrefs = await cells.evaluateAll((links) => links.map((link) => link.getAttribute("href")));
      // A new pin goes first, after at most 2 leading story pins.
      expect(hrefs.slice(0, 3)).toContain(pinPath);
      await page.locator(`.pin-grid a.pin-link[href="${pinPath}"]`).click();
      await expect(page).toHaveURL(new RegExp(`${pinPath}$`));
      await expect(page.locator("li.story-page")).toHaveCount(3);
      await expect(page.locator("li.story-page").nth(0).getByRole("heading", { name: "Autumn soup night" })).toBeAttached();
    });

    await test.step("the mention sticker links to the person, whose news hub tells them of the story pin", async () => {
      const mentioned = MENTIONED[project];
      await page.goto(pinPath);
      await expect(page.locator("li.story-page").nth(1).locator(`a.story-sticker[href="/${mentioned.username}/"]`)).toHaveText(`@${mentioned.name}`);
      const other = await (await browser.newContext()).newPage();
      await signIn(other, mentioned.username);
      await other.goto("/news/");
      const told = other.locator(`.news-list a.news-item-box[href="${pinPath}"]`);
      await expect(told).toHaveCount(1);
      for (const part of text(project, "n.item.storyMention", { actor: "\u0000" }).split("\u0000")) if (part.trim()) await expect(told).toContainText(part.trim());
      await other.context().close();
    });
  });
});
