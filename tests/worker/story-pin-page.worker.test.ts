// A published story pin's close-up against the built Worker, as a crawler gets it: every page a
// 9:16 canvas in its background colour with its picture, every block the editor placed at its
// place, scale and turn in its font, size, colour and alignment, through classes in one <style>
// whose SHA-256 is in the response's CSP (no inline style attribute anywhere in the story), the
// link block and the product sticker as links, a video block playing its builder upload, and no script. The author's story pins feed lists
// it, and only story pins the viewer may see.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { CAST, CAST_BOARDS, browserFor, freshId, seedCast } from "./roles-fixture.ts";
import type { Browser } from "./accounts-helpers.ts";
import { call, insertPin, ok } from "./boards-helpers.ts";
import { GOOGLEBOT_UA, attributeOf, countElements } from "./fixtures.ts";
import { storyUploadOf } from "./story-fixtures.ts";

vi.setConfig({ testTimeout: 30_000 });

const sha256 = async (text: string) => btoa(String.fromCharCode(...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)))));

const media = (ref: string) => ({ type: "image", source: "uploaded", ref });
const style = (extra: Record<string, unknown> = {}) => ({ alignment: 1, color: "#333333", size: 28, letterSpacing: -0.4, lineHeight: 1.25, ...extra });
const edits = (left: number, top: number, scale = 1, rotate = 0) => ({ left, top, scale, transform: { rotate, scaleX: 1, scaleY: 1 } });

let owner: Browser;
let crawler: Browser;
let product: number;
let pinUrl: string;
let uploads: string[];
/** A video the owner uploaded in the builder, shown by a video block on the third page. */
let video: string;
/** An image pin and a story pin on a secret board, both the owner's: neither belongs in a visitor's story pins feed. */
let imagePin: number;
let secretStory: number;

beforeAll(async () => {
  await seedCast();
  [owner, crawler] = await Promise.all([browserFor("owner"), browserFor("signed_out")]);
  product = await insertPin(freshId(), { pinner: CAST.stranger, kind: "product", title: "Enamel pie dish" });
  const boardId = freshId();
  await env.DB.prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, created_at, updated_at) VALUES (?1, ?2, 'Tarts', ?3, 'public', 0, 0)").bind(boardId, CAST.owner, `tarts-${boardId}`).run();
  uploads = [await storyUploadOf(CAST.owner, 900, 1600), await storyUploadOf(CAST.owner, 1080, 1920), await storyUploadOf(CAST.owner, 900, 1600), await storyUploadOf(CAST.owner, 800, 800)];
  video = await storyUploadOf(CAST.owner, 720, 1280, "video");
  const draft = await ok<{ id: string }>(owner, "StoryPinDraftsResource", "create", {
    boardId: String(boardId),
    story: {
      pages: [
        { id: "p1", media: media(uploads[0]!), blocks: [{ id: "b1", type: "heading", text: "Blood orange tart", fontId: "rounded", style: style({ size: 40, color: "#ffffff" }), edits: edits(0.5, 0.2, 1.5) }] },
        {
          id: "p2",
          backgroundColor: "#f4e1c1",
          media: media(uploads[1]!),
          blocks: [
            { id: "b2", type: "paragraph", text: "Blind-bake the shell for twelve minutes.", fontId: "serif", edits: edits(0.5, 0.3, 1.2, -8) },
            { id: "b3", type: "product_sticker", pinId: String(product), edits: edits(0.7, 0.85) },
          ],
        },
        {
          id: "p3",
          media: media(uploads[2]!),
          blocks: [
            { id: "b4", type: "image", media: media(uploads[3]!), edits: edits(0.3, 0.4, 1, 12) },
            { id: "b5", type: "link", style: style({ alignment: 0, color: "#aa2200" }), edits: edits(0.5, 0.8), linkBlock: { text: "The full recipe", srcUrl: "https://fair-shop.example/blood-orange" } },
            { id: "b6", type: "video", media: { type: "video", source: "uploaded", ref: video, durationMs: 4000 }, edits: edits(0.7, 0.3, 0.8) },
          ],
        },
      ],
    },
  });
  const published = await ok<{ status: string; pin: { url: string } }>(owner, "PinResource", "create", { draft_id: draft.id });
  expect(published.status).toBe("succeeded");
  pinUrl = published.pin.url;
  imagePin = await insertPin(freshId(), { pinner: CAST.owner, kind: "image", title: "A plain photo" });
  secretStory = await insertPin(freshId(), { pinner: CAST.owner, boardId: CAST_BOARDS.secret, kind: "story", title: "A secret story" });
});

async function crawl(): Promise<{ html: string; csp: string }> {
  const response = await crawler.fetch(pinUrl, { headers: { "user-agent": GOOGLEBOT_UA } });
  expect(response.status).toBe(200);
  return { html: await response.text(), csp: response.headers.get("content-security-policy") ?? "" };
}

/** The story's one <style>: the element whose rules name the story's page classes. */
const storyStyleOf = (html: string) => /<style>(\.story-p0\{[^<]*)<\/style>/.exec(html)?.[1] ?? "";

describe("a published story pin's close-up, as a crawler gets it", () => {
  it("shows every page as a canvas with its picture and every block's text, without script", async () => {
    const { html } = await crawl();
    expect(await countElements(html, ".story-pin script")).toBe(0);
    expect(await countElements(html, ".story-pages > li.story-page")).toBe(3);
    for (const [page, upload] of uploads.slice(0, 3).entries()) {
      expect(await attributeOf(html, `.story-canvas.story-p${page} img.story-page-image`, "src")).toBe(`/media/uploads/${CAST.owner}/${upload}/736x.jpg`);
    }
    expect(await attributeOf(html, ".story-placed.story-b2-0 img", "src")).toBe(`/media/uploads/${CAST.owner}/${uploads[3]}/736x.jpg`);
    const withoutScript = html.replace(/<script\b[\s\S]*?<\/script>/gi, "");
    for (const text of ["Blood orange tart", "Blind-bake the shell for twelve minutes.", "The full recipe"]) expect(withoutScript).toContain(text);
    expect(await countElements(html, ".story-placed.story-b0-0 h2")).toBe(1);
  });

  it("places each block and colours each page with classes from one <style> whose hash is in the response's CSP", async () => {
    const { html, csp } = await crawl();
    const css = storyStyleOf(html);
    expect(css).toContain(".story-p0{background-color:#ffffff}");
    expect(css).toContain(".story-p1{background-color:#f4e1c1}");
    // The heading: centred at (0.5, 0.2), half as large again, in the rounded stack at size 40 (40/564 of the page's width), white.
    expect(css).toContain(
      '.story-b0-0{left:50%;top:20%;transform:translate(-50%,-50%) rotate(0deg) scale(1.5,1.5);font-family:ui-rounded, "SF Pro Rounded", "Arial Rounded MT Bold", "Nunito", system-ui, sans-serif;font-size:7.0922cqi;letter-spacing:-0.0709cqi;line-height:1.25;color:#ffffff;text-align:center}',
    );
    // The paragraph: turned 8 degrees back, 1.2 times its size, in the serif stack and the default text style.
    expect(css).toContain(
      '.story-b1-0{left:50%;top:30%;transform:translate(-50%,-50%) rotate(-8deg) scale(1.2,1.2);font-family:Georgia, Cambria, "Times New Roman", Times, serif;font-size:4.9645cqi;letter-spacing:-0.0709cqi;line-height:1.25;color:#333333;text-align:center}',
    );
    expect(css).toContain(".story-b2-0{left:30%;top:40%;transform:translate(-50%,-50%) rotate(12deg) scale(1,1);");
    expect(css).toContain(".story-b2-1{left:50%;top:80%;transform:translate(-50%,-50%) rotate(0deg) scale(1,1);");
    expect(css).toContain("color:#aa2200;text-align:start}");
    expect(csp).toContain(`'sha256-${await sha256(css)}'`);
    expect(await countElements(html, ".story-pin [style]")).toBe(0);
  });

  it("plays a video block from its upload, with its poster, and counts its length in the story's video duration", async () => {
    const { html } = await crawl();
    expect(await attributeOf(html, ".story-placed.story-b2-2 video", "src")).toBe(`/media/uploads/${CAST.owner}/${video}/video.mp4`);
    expect(await attributeOf(html, ".story-placed.story-b2-2 video", "poster")).toBe(`/media/uploads/${CAST.owner}/${video}/736x.jpg`);
    const pinId = Number(/\/pin\/(\d+)\//.exec(pinUrl)![1]);
    const stored = await env.DB.prepare("SELECT story_pin_data FROM pins WHERE id = ?1").bind(pinId).first<{ story_pin_data: string }>();
    // One page of three has video: 4 seconds in all, two pages without.
    expect(JSON.parse(stored!.story_pin_data)).toMatchObject({ totalVideoDuration: 4000, staticPageCount: 2 });
  });

  it("links the link block to its address and the product sticker to its pin", async () => {
    const { html } = await crawl();
    expect(await attributeOf(html, ".story-placed.story-b2-1 a", "href")).toBe("https://fair-shop.example/blood-orange");
    expect(await attributeOf(html, ".story-placed.story-b2-1 a", "rel")).toBe("nofollow noopener noreferrer ugc");
    expect(await attributeOf(html, ".story-placed.story-b1-1 a", "href")).toBe(`/pin/${product}/`);
  });
});

describe("the story pins feed", () => {
  const pinIdOf = () => /\/pin\/(\d+)\//.exec(pinUrl)![1]!;

  it("lists the author's story pins a visitor may see, and nothing else they made", async () => {
    const answer = await call<{ results: Array<{ id: string }> }>(crawler, "UserPinsResource", "get", { username: "cast_owner", feed: "stories" });
    expect(answer.status).toBe(200);
    const ids = answer.data.results.map((pin) => pin.id);
    expect(ids).toEqual([pinIdOf()]);
    expect(ids).not.toContain(String(imagePin));
    expect(ids).not.toContain(String(secretStory));
  });

  it("shows on the author's profile, as HTML a crawler follows, with the story pin's link", async () => {
    const response = await crawler.fetch("/cast_owner/", { headers: { "user-agent": GOOGLEBOT_UA } });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(await countElements(html, "#profile-stories a.pin-link")).toBe(1);
    expect(await attributeOf(html, "#profile-stories a.pin-link", "href")).toBe(`/pin/${pinIdOf()}/`);
  });

  it("lets the author, who may see the secret board, find both story pins there", async () => {
    const answer = await call<{ results: Array<{ id: string }> }>(owner, "UserPinsResource", "get", { username: "cast_owner", feed: "stories" });
    expect(answer.data.results.map((pin) => pin.id).sort()).toEqual([pinIdOf(), String(secretStory)].sort());
  });
});
