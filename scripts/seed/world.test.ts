import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PIN_IMAGE_SIZES, USER_IMAGE_SIZES, mediaKeys, mediaUrl } from "../../src/media/media.ts";
import { carouselDataSchema, mediaAttributionSchema, parseJsonColumn, richMetadataSchema, storyPinDataSchema } from "../../src/pins/pin.ts";
import {
  BASE_EPOCH,
  DEMO_MFA_SECRET,
  DEMO_PASSWORD,
  FIXTURES,
  POOL_THRESHOLD,
  POOLED_AVATARS,
  POOLED_VIDEO_LIMIT,
  SECRET_BOARD_NAME,
  TABLE_INSERT_ORDER,
  buildWorld,
  slugify,
  type PinKind,
  type World,
} from "./world.ts";
import { PHOTOS, type Photo } from "./photos.ts";

const small = buildWorld({ pins: 120 });
const standard = buildWorld({ pins: 1000 });

function count<T>(rows: readonly T[], key: (row: T) => string | number): Map<string | number, number> {
  const counts = new Map<string | number, number>();
  for (const row of rows) counts.set(key(row), (counts.get(key(row)) ?? 0) + 1);
  return counts;
}

function expectUnique<T>(rows: readonly T[], key: (row: T) => string | number, what: string): void {
  const seen = new Set<string | number>();
  const duplicates: Array<string | number> = [];
  for (const row of rows) {
    const value = key(row);
    if (seen.has(value)) duplicates.push(value);
    seen.add(value);
  }
  expect(duplicates, `duplicate ${what}`).toEqual([]);
}

function decodeHtml(html: string): string {
  return html
    .replace(/<[^>]+>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");
}

function invariants(name: string, world: World): void {
  const t = world.tables;
  const users = new Map(t.users.map((row) => [row.id, row]));
  const boards = new Map(t.boards.map((row) => [row.id, row]));
  const sections = new Map(t.board_sections.map((row) => [row.id, row]));
  const pins = new Map(t.pins.map((row) => [row.id, row]));
  const comments = new Map(t.comments.map((row) => [row.id, row]));

  describe(`${name}: invariants`, () => {
    it("has every pin kind", () => {
      const kinds = new Set(t.pins.map((pin) => pin.kind));
      for (const kind of ["image", "video", "carousel", "story", "recipe", "article", "product"] satisfies PinKind[]) expect(kinds.has(kind), kind).toBe(true);
    });

    it("has unique ids and keys", () => {
      expectUnique(t.users, (row) => row.id, "user id");
      expectUnique(t.users, (row) => row.username.toLowerCase(), "username");
      expectUnique(t.users, (row) => row.email.toLowerCase(), "email");
      expectUnique(t.link_domains, (row) => row.domain, "domain");
      expectUnique(t.boards, (row) => row.id, "board id");
      expectUnique(t.boards, (row) => `${row.owner_id}/${row.slug}`, "board slug per owner");
      expectUnique(t.board_sections, (row) => row.id, "section id");
      expectUnique(t.board_sections, (row) => `${row.board_id}/${row.slug}`, "section slug per board");
      expectUnique(t.board_collaborators, (row) => `${row.board_id}/${row.user_id}`, "collaborator");
      expectUnique(t.pins, (row) => row.id, "pin id");
      expectUnique(t.pin_images, (row) => `${row.pin_id}/${row.size}`, "pin image");
      expectUnique(t.pin_video_formats, (row) => `${row.pin_id}/${row.format}`, "video format");
      expectUnique(t.board_pins, (row) => `${row.board_id}/${row.pin_id}`, "board pin");
      expectUnique(t.follows, (row) => `${row.follower_id}/${row.target_type}/${row.target_id}`, "follow");
      expectUnique(t.reactions, (row) => `${row.pin_id}/${row.user_id}`, "reaction");
      expectUnique(t.pin_reaction_counts, (row) => `${row.pin_id}/${row.reaction_type}`, "reaction count");
      expectUnique(t.comments, (row) => row.id, "comment id");
    });

    it("resolves every foreign key", () => {
      const user = (id: number | null): boolean => id === null || users.has(id);
      for (const row of t.link_domains) expect(user(row.official_user_id), row.domain).toBe(true);
      for (const row of t.boards) {
        expect(users.has(row.owner_id)).toBe(true);
        if (row.cover_pin_id !== null) expect(t.board_pins.some((save) => save.board_id === row.id && save.pin_id === row.cover_pin_id)).toBe(true);
      }
      for (const row of t.board_sections) expect(boards.has(row.board_id)).toBe(true);
      for (const row of t.board_collaborators) {
        expect(boards.has(row.board_id) && users.has(row.user_id) && user(row.invited_by)).toBe(true);
        expect(row.user_id).not.toBe(boards.get(row.board_id)?.owner_id);
      }
      for (const row of t.pins) {
        expect([row.pinner_id, row.native_creator_id, row.origin_pinner_id, row.promoter_id, row.closeup_attribution_user_id].every(user), `pin ${row.id}`).toBe(true);
        expect(row.board_id !== null && boards.has(row.board_id), `pin ${row.id} board`).toBe(true);
        if (row.section_id !== null) expect(sections.get(row.section_id)?.board_id).toBe(row.board_id);
      }
      for (const row of [...t.pin_images, ...t.pin_video_formats, ...t.reactions, ...t.pin_reaction_counts]) expect(pins.has(row.pin_id)).toBe(true);
      for (const row of t.board_pins) {
        expect(boards.has(row.board_id) && pins.has(row.pin_id) && users.has(row.saved_by)).toBe(true);
        if (row.section_id !== null) expect(sections.get(row.section_id)?.board_id).toBe(row.board_id);
      }
      for (const row of t.follows) {
        expect(users.has(row.follower_id)).toBe(true);
        expect(row.target_type === "user" ? users.has(row.target_id) : boards.has(row.target_id)).toBe(true);
        if (row.target_type === "user") expect(row.target_id).not.toBe(row.follower_id);
      }
      for (const row of t.reactions) expect(users.has(row.user_id)).toBe(true);
      for (const row of t.comments) {
        expect(users.has(row.user_id)).toBe(true);
        if (row.parent_id !== null) {
          const parent = comments.get(row.parent_id);
          expect(parent?.pin_id).toBe(row.pin_id);
          expect(parent && parent.id < row.id && parent.parent_id === null).toBe(true);
        }
      }
    });

    it("inserts parents before children", () => {
      expect(TABLE_INSERT_ORDER).toEqual(Object.keys(t));
      expect(TABLE_INSERT_ORDER.indexOf("users")).toBeLessThan(TABLE_INSERT_ORDER.indexOf("link_domains"));
      expect(TABLE_INSERT_ORDER.indexOf("board_sections")).toBeLessThan(TABLE_INSERT_ORDER.indexOf("pins"));
    });

    it("pins.board_id is the first save and that board_pins row exists", () => {
      for (const pin of t.pins) {
        const saves = t.board_pins.filter((save) => save.pin_id === pin.id).sort((a, b) => a.created_at - b.created_at);
        const first = saves.find((save) => save.board_id === pin.board_id);
        expect(first, `pin ${pin.id}`).toBeDefined();
        expect(first?.section_id).toBe(pin.section_id);
        expect(first?.created_at).toBe(pin.created_at);
        expect(saves[0]?.created_at).toBe(pin.created_at);
      }
    });

    it("orders board_pins newest first with distinct positions", () => {
      const byBoard = new Map<number, typeof t.board_pins>();
      for (const save of t.board_pins) byBoard.set(save.board_id, [...(byBoard.get(save.board_id) ?? []), save]);
      for (const saves of byBoard.values()) {
        const ordered = [...saves].sort((a, b) => a.position - b.position);
        expectUnique(ordered, (save) => save.position, "position");
        for (let i = 1; i < ordered.length; i++) expect(ordered[i - 1]!.created_at).toBeGreaterThanOrEqual(ordered[i]!.created_at);
      }
    });

    it("keeps every counter equal to the real rows", () => {
      const savesPerBoard = count(t.board_pins, (row) => row.board_id);
      const sectionless = count(t.board_pins.filter((row) => row.section_id === null), (row) => row.board_id);
      const savesPerSection = count(t.board_pins.filter((row) => row.section_id !== null), (row) => row.section_id ?? 0);
      const sectionsPerBoard = count(t.board_sections, (row) => row.board_id);
      const accepted = count(t.board_collaborators.filter((row) => row.status === "accepted"), (row) => row.board_id);
      const boardFollowers = count(t.follows.filter((row) => row.target_type === "board"), (row) => row.target_id);
      for (const board of t.boards) {
        expect(board.pin_count, `board ${board.id} pin_count`).toBe(savesPerBoard.get(board.id) ?? 0);
        expect(board.sectionless_pin_count).toBe(sectionless.get(board.id) ?? 0);
        expect(board.section_count).toBe(sectionsPerBoard.get(board.id) ?? 0);
        expect(board.collaborator_count).toBe(accepted.get(board.id) ?? 0);
        expect(board.follower_count).toBe(boardFollowers.get(board.id) ?? 0);
        expect(board.is_collaborative).toBe(t.board_collaborators.some((row) => row.board_id === board.id) ? 1 : 0);
      }
      for (const section of t.board_sections) expect(section.pin_count).toBe(savesPerSection.get(section.id) ?? 0);

      const pinsPerUser = count(t.pins.filter((row) => row.is_deleted === 0), (row) => row.pinner_id);
      const followers = count(t.follows.filter((row) => row.target_type === "user"), (row) => row.target_id);
      const following = count(t.follows.filter((row) => row.target_type === "user"), (row) => row.follower_id);
      const live = t.boards.filter((board) => board.archived_at === null);
      const publicBoards = count(live.filter((board) => board.privacy !== "secret"), (row) => row.owner_id);
      const secretBoards = count(live.filter((board) => board.privacy === "secret"), (row) => row.owner_id);
      const groupBoards = new Map<number, number>();
      for (const board of t.boards.filter((row) => row.is_collaborative === 1)) {
        const members = [board.owner_id, ...t.board_collaborators.filter((row) => row.board_id === board.id && row.status === "accepted").map((row) => row.user_id)];
        for (const member of members) groupBoards.set(member, (groupBoards.get(member) ?? 0) + 1);
      }
      for (const user of t.users) {
        expect(user.pin_count, `user ${user.id} pin_count`).toBe(pinsPerUser.get(user.id) ?? 0);
        expect(user.follower_count).toBe(followers.get(user.id) ?? 0);
        expect(user.following_count).toBe(following.get(user.id) ?? 0);
        expect(user.board_count).toBe(publicBoards.get(user.id) ?? 0);
        expect(user.secret_board_count).toBe(secretBoards.get(user.id) ?? 0);
        expect(user.group_board_count).toBe(groupBoards.get(user.id) ?? 0);
      }

      const commentsPerPin = count(t.comments, (row) => row.pin_id);
      const strangerVisible = new Set(t.boards.filter((board) => board.privacy === "public" && board.archived_at === null).map((board) => board.id));
      const savesPerPin = count(t.board_pins.filter((row) => strangerVisible.has(row.board_id)), (row) => row.pin_id);
      for (const pin of t.pins) {
        expect(pin.comment_count, `pin ${pin.id} comment_count`).toBe(commentsPerPin.get(pin.id) ?? 0);
        expect(pin.save_count).toBe(savesPerPin.get(pin.id) ?? 0);
      }
      const replies = count(t.comments.filter((row) => row.parent_id !== null), (row) => row.parent_id ?? 0);
      for (const comment of t.comments) expect(comment.reply_count).toBe(replies.get(comment.id) ?? 0);

      const grouped = count(t.reactions, (row) => `${row.pin_id}/${row.reaction_type}`);
      expect(t.pin_reaction_counts.length).toBe(grouped.size);
      for (const row of t.pin_reaction_counts) {
        expect(row.count).toBeGreaterThan(0);
        expect(row.count).toBe(grouped.get(`${row.pin_id}/${row.reaction_type}`));
      }
    });

    it("gives every pin all 9 image sizes with true dimensions", () => {
      const byPin = new Map<number, Map<string, { width: number; height: number; url: string; dominant_color: string }>>();
      for (const image of t.pin_images) {
        const sizes = byPin.get(image.pin_id) ?? new Map();
        sizes.set(image.size, image);
        byPin.set(image.pin_id, sizes);
      }
      for (const pin of t.pins) {
        const sizes = byPin.get(pin.id);
        expect(sizes?.size, `pin ${pin.id}`).toBe(9);
        const orig = sizes?.get("orig");
        expect(orig).toBeDefined();
        if (!sizes || !orig) continue;
        for (const size of PIN_IMAGE_SIZES) {
          const image = sizes.get(size);
          expect(image, `${pin.id} ${size}`).toBeDefined();
          if (!image) continue;
          expect(image.dominant_color).toBe(pin.dominant_color);
          if (size === "orig") continue;
          const [w, h] = size.split("x");
          expect(image.width).toBe(Number(w));
          expect(image.height).toBe(h ? Number(h) : Math.round((Number(w) * orig.height) / orig.width));
        }
        expect(sizes.get("60x60")).toMatchObject({ width: 60, height: 60 });
        expect(sizes.get("600x315")).toMatchObject({ width: 600, height: 315 });
      }
    });

    it("has secret boards whose pins are only on secret boards", () => {
      const secret = t.boards.filter((board) => board.privacy === "secret");
      expect(secret.length).toBeGreaterThan(1);
      expect(t.boards.some((board) => board.privacy === "protected")).toBe(true);
      const secretIds = new Set(secret.map((board) => board.id));
      const onSecret = new Set(t.board_pins.filter((save) => secretIds.has(save.board_id)).map((save) => save.pin_id));
      expect(onSecret.size).toBeGreaterThan(0);
      for (const save of t.board_pins) if (onSecret.has(save.pin_id)) expect(secretIds.has(save.board_id), `pin ${save.pin_id} on board ${save.board_id}`).toBe(true);
    });

    it("never shows the secret board's name on a public surface", () => {
      const publicBoardIds = new Set(t.boards.filter((board) => board.privacy === "public").map((board) => board.id));
      const publicPins = new Set(t.board_pins.filter((save) => publicBoardIds.has(save.board_id)).map((save) => save.pin_id));
      const needle = /maya/i;
      for (const board of t.boards.filter((row) => row.privacy === "public")) expect(needle.test(`${board.name} ${board.description}`)).toBe(false);
      for (const section of t.board_sections.filter((row) => publicBoardIds.has(row.board_id))) expect(needle.test(section.title)).toBe(false);
      for (const pin of t.pins.filter((row) => publicPins.has(row.id))) expect(needle.test(JSON.stringify(pin)), `pin ${pin.id}`).toBe(false);
      for (const comment of t.comments.filter((row) => publicPins.has(row.pin_id))) expect(needle.test(comment.text)).toBe(false);
      expect(t.boards.filter((board) => board.name === SECRET_BOARD_NAME).map((board) => board.privacy)).toEqual(["secret"]);
    });

    it("respects the schema's checks", () => {
      for (const board of t.boards) {
        expect(board.name.length).toBeGreaterThanOrEqual(1);
        expect(board.name.length).toBeLessThanOrEqual(50);
        expect(board.description.length).toBeLessThanOrEqual(500);
        expect(board.slug).toBe(slugify(board.name));
        expect(board.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      }
      for (const section of t.board_sections) expect(section.title.length).toBeLessThanOrEqual(50);
      for (const comment of t.comments) {
        expect(comment.text.length).toBeGreaterThanOrEqual(1);
        expect(comment.text.length).toBeLessThanOrEqual(2000);
      }
      for (const reaction of t.reactions) expect(reaction.reaction_type >= 1 && reaction.reaction_type <= 5).toBe(true);
      for (const pin of t.pins) {
        expect(pin.title.length).toBeLessThanOrEqual(100);
        expect(pin.description.length).toBeLessThanOrEqual(500);
        expect(pin.dominant_color).toMatch(/^#[0-9a-f]{6}$/);
        expect(pin.image_signature).toMatch(/^[0-9a-f]{32}$/);
      }
      for (const user of t.users) expect(user.image_key).toBe(`users/${user.id}`);
    });

    it("derives every time from the base epoch", () => {
      const times = [
        ...t.users.map((row) => row.created_at),
        ...t.boards.flatMap((row) => [row.created_at, row.updated_at]),
        ...t.pins.flatMap((row) => [row.created_at, row.updated_at]),
        ...t.board_pins.map((row) => row.created_at),
        ...t.follows.map((row) => row.created_at),
        ...t.reactions.map((row) => row.created_at),
        ...t.comments.flatMap((row) => [row.created_at, row.updated_at]),
      ];
      for (const time of times) {
        expect(Number.isInteger(time)).toBe(true);
        expect(time).toBeLessThanOrEqual(BASE_EPOCH);
        expect(time).toBeGreaterThan(BASE_EPOCH - 5 * 365 * 86_400_000);
      }
      for (const pin of t.pins) expect(pin.created_at).toBeGreaterThanOrEqual(users.get(pin.pinner_id)?.created_at ?? Infinity);
      for (const comment of t.comments) expect(comment.created_at).toBeGreaterThan(pins.get(comment.pin_id)?.created_at ?? Infinity);
    });

    it("parses every JSON column with the app's schemas", () => {
      for (const pin of t.pins) {
        expect(() => parseJsonColumn(richMetadataSchema, pin.rich_metadata), `pin ${pin.id}`).not.toThrow();
        expect(() => parseJsonColumn(storyPinDataSchema, pin.story_pin_data)).not.toThrow();
        expect(() => parseJsonColumn(carouselDataSchema, pin.carousel_data)).not.toThrow();
        expect(() => parseJsonColumn(mediaAttributionSchema, pin.media_attribution)).not.toThrow();
        if (pin.kind === "carousel") {
          const slots = parseJsonColumn(carouselDataSchema, pin.carousel_data)?.slots ?? [];
          expect(slots.length >= 2 && slots.length <= 5).toBe(true);
          for (const slot of slots) expect(Object.keys(slot.images).sort()).toEqual(["236x", "474x", "736x", "orig"]);
        }
        if (pin.kind === "story") {
          const story = parseJsonColumn(storyPinDataSchema, pin.story_pin_data);
          expect(story && story.pages.length >= 3 && story.pages.length <= 6).toBe(true);
          for (const page of story?.pages ?? []) {
            expect(page.image?.url).toBe(page.images?.["736x"]?.url);
            expect(Math.abs((page.images?.["orig"]?.width ?? 0) / (page.images?.["orig"]?.height ?? 1) - 9 / 16)).toBeLessThan(0.01);
          }
        }
        if (pin.kind === "recipe") expect(parseJsonColumn(richMetadataSchema, pin.rich_metadata)?.recipe).toBeDefined();
        if (pin.kind === "article") expect(parseJsonColumn(richMetadataSchema, pin.rich_metadata)?.article?.datePublished).toMatch(/^\d{4}-\d\d-\d\dT/);
        if (pin.kind === "product") {
          const product = parseJsonColumn(richMetadataSchema, pin.rich_metadata)?.products?.[0];
          expect(product?.offerSummary?.currency).toBe("USD");
          expect(pin.price_currency).toBe("USD");
          expect(pin.price_value).toBe(product?.offerSummary?.price);
          expect(pin.is_oos_product).toBe(product?.offerSummary?.inStock ? 0 : 1);
        }
      }
      for (const video of t.pin_video_formats) expect(Object.keys(JSON.parse(video.captions_urls) as object).sort()).toEqual(["en_US", "fr"]);
      for (const comment of t.comments) expect(Array.isArray(JSON.parse(comment.tags))).toBe(true);
    });

    it("writes description_html as the same text with safe markup", () => {
      for (const pin of t.pins) {
        expect(pin.description_html.startsWith("<p>")).toBe(true);
        expect(decodeHtml(pin.description_html)).toBe(pin.description);
        expect(pin.description_html).not.toMatch(/<(script|iframe|img|style)/i);
        for (const [, href] of pin.description_html.matchAll(/href="([^"]*)"/g)) expect(href).toMatch(/^https:\/\//);
      }
    });

    it("gives video pins both formats, a thumbnail and captions", () => {
      const videos = t.pins.filter((pin) => pin.kind === "video");
      for (const pin of videos) {
        const formats = t.pin_video_formats.filter((row) => row.pin_id === pin.id);
        expect(formats.map((row) => `${row.format} ${row.mime_type}`).sort()).toEqual(["V_720P video/mp4", "V_WEBM video/webm"]);
        for (const format of formats) {
          expect(format.thumbnail).toBe(t.pin_images.find((image) => image.pin_id === pin.id && image.size === "orig")?.url);
          expect(format.duration_ms >= 3000 && format.duration_ms <= 5000).toBe(true);
        }
      }
      expect(t.pin_video_formats.every((row) => pins.get(row.pin_id)?.kind === "video")).toBe(true);
    });

    it("plans media for every stored URL", () => {
      const outputs = new Map<string, { width: number; height: number }>();
      for (const job of world.media.images) for (const output of job.outputs) outputs.set(mediaUrl(output.key), output);
      for (const image of t.pin_images) expect(outputs.get(image.url), image.url).toEqual({ key: image.url.slice("/media/".length), width: image.width, height: image.height });
      for (const pin of t.pins) {
        const refs = [
          ...(parseJsonColumn(carouselDataSchema, pin.carousel_data)?.slots.flatMap((slot) => Object.values(slot.images)) ?? []),
          ...(parseJsonColumn(storyPinDataSchema, pin.story_pin_data)?.pages.flatMap((page) => Object.values(page.images ?? {})) ?? []),
        ];
        for (const ref of refs) expect(outputs.get(ref.url), ref.url).toMatchObject({ width: ref.width, height: ref.height });
      }
      for (const user of t.users) {
        for (const size of Object.keys(USER_IMAGE_SIZES) as Array<keyof typeof USER_IMAGE_SIZES>) {
          expect(outputs.get(mediaUrl(mediaKeys.userImage(user.id, size)))).toMatchObject({ width: USER_IMAGE_SIZES[size], height: USER_IMAGE_SIZES[size] });
        }
      }
      const videoKeys = new Set(world.media.videos.flatMap((video) => [mediaUrl(video.mp4Key), mediaUrl(video.webmKey)]));
      const texts = new Map(world.media.texts.map((text) => [mediaUrl(text.key), text]));
      for (const format of t.pin_video_formats) {
        expect(videoKeys.has(format.url)).toBe(true);
        for (const url of Object.values(JSON.parse(format.captions_urls) as Record<string, string>)) {
          expect(texts.get(url)?.body.startsWith("WEBVTT\n")).toBe(true);
          expect(texts.get(url)?.contentType).toMatch(/^text\/vtt/);
        }
      }
      for (const video of world.media.videos) expect(world.media.clips[video.clip]).toBeDefined();
      for (const clip of world.media.clips) expect(clip.frames / clip.fps).toBe(clip.durationMs / 1000);
    });

    it("has the link cases the link-choice rule needs", () => {
      const blocked = new Set(t.link_domains.filter((row) => row.is_blocked === 1).map((row) => row.domain));
      expect(blocked.size).toBe(1);
      expect(t.link_domains.some((row) => row.official_user_id !== null)).toBe(true);
      expect(t.pins.some((pin) => pin.link && !pin.mobile_link && !pin.tracked_link)).toBe(true);
      expect(t.pins.some((pin) => pin.mobile_link && !pin.link)).toBe(true);
      expect(t.pins.some((pin) => pin.link && pin.mobile_link && pin.tracked_link)).toBe(true);
      expect(t.pins.some((pin) => pin.link?.startsWith("javascript:"))).toBe(true);
      expect(t.pins.some((pin) => pin.domain !== null && blocked.has(pin.domain))).toBe(true);
      for (const pin of t.pins) {
        if (pin.domain !== null) expect(t.link_domains.some((row) => row.domain === pin.domain)).toBe(true);
        for (const link of [pin.link, pin.mobile_link, pin.tracked_link]) if (link && !link.startsWith("javascript:")) expect(new URL(link).hostname).toBe(pin.domain);
      }
    });
  });
}

describe("buildWorld determinism", () => {
  it("gives identical worlds for the same options", () => {
    const again = buildWorld({ pins: 120 });
    expect(again).toEqual(small);
    expect(JSON.stringify(again)).toBe(JSON.stringify(small));
    expect(buildWorld({ pins: 120, seed: 20261122 })).toEqual(small);
  });

  it("gives different worlds for different seeds", () => {
    const other = buildWorld({ pins: 120, seed: 7 });
    expect(other.tables.pins.map((pin) => pin.title)).not.toEqual(small.tables.pins.map((pin) => pin.title));
    expect(JSON.stringify(other)).not.toBe(JSON.stringify(small));
  });

  it("rejects worlds too small for the fixtures", () => {
    expect(() => buildWorld({ pins: 10 })).toThrow(/pins/);
  });
});

describe("default world: photographs", () => {
  const t = standard.tables;
  const fixtureIds = new Set<number>(Object.values(FIXTURES.pins));
  const photoKinds = new Set<PinKind>(["image", "article", "carousel", "story", "video"]);
  const jobs = new Map(standard.media.images.flatMap((job) => job.outputs.map((output) => [output.key, job] as const)));
  const photoOf = (pinId: number): Photo | undefined => {
    const file = jobs.get(mediaKeys.pinImage(pinId, "orig"))?.spec.photo;
    return PHOTOS.find((photo) => photo.file === file);
  };
  const generated = t.pins.filter((pin) => !fixtureIds.has(pin.id));
  const photoPins = generated.filter((pin) => photoKinds.has(pin.kind));

  it("shows a photograph on every generated image, article, carousel, story and video pin", () => {
    expect(photoPins.length).toBeGreaterThan(700);
    for (const pin of photoPins) expect(photoOf(pin.id), `pin ${pin.id}`).toBeDefined();
    // Recipes and products name a dish or an item no photo of the catalogue shows.
    for (const pin of generated.filter((row) => row.kind === "recipe" || row.kind === "product")) expect(photoOf(pin.id), `pin ${pin.id}`).toBeUndefined();
  });

  it("titles, describes and attributes each photo pin by its photo", () => {
    for (const pin of photoPins) {
      const photo = photoOf(pin.id);
      const caption = photo?.captions.find((candidate) => candidate.title === pin.title);
      expect(caption, `pin ${pin.id}: "${pin.title}" is a caption of ${photo?.file}`).toBeDefined();
      expect(pin.description.startsWith(caption?.description ?? "?"), `pin ${pin.id}`).toBe(true);
      if (pin.alt_text !== null) expect(pin.alt_text).toBe(caption?.alt);
      expect(pin.dominant_color).toBe(photo?.dominant);
      const attribution = parseJsonColumn(mediaAttributionSchema, pin.media_attribution);
      expect(attribution?.author).toBe(photo?.author);
      expect(attribution?.licenseName).toBe(photo?.licence.name);
      expect(attribution?.ccUrl).toBe(photo?.licence.url);
    }
  });

  it("repeats a photo under different titles", () => {
    const titlesByPhoto = new Map<string, Set<string>>();
    for (const pin of photoPins) {
      const file = photoOf(pin.id)?.file ?? "?";
      titlesByPhoto.set(file, (titlesByPhoto.get(file) ?? new Set()).add(pin.title));
    }
    expect(titlesByPhoto.size).toBe(PHOTOS.length);
    for (const [file, titles] of titlesByPhoto) expect(titles.size, file).toBeGreaterThanOrEqual(2);
  });

  it("fills carousel slots and story pages with photos of the pin's topic", () => {
    for (const pin of photoPins.filter((row) => row.kind === "carousel" || row.kind === "story")) {
      const topic = photoOf(pin.id)?.topic;
      const keys = pin.kind === "carousel"
        ? (parseJsonColumn(carouselDataSchema, pin.carousel_data)?.slots ?? []).map((slot) => slot.images["736x"]?.url ?? "")
        : (parseJsonColumn(storyPinDataSchema, pin.story_pin_data)?.pages ?? []).map((page) => page.image?.url ?? "");
      for (const url of keys) {
        const file = jobs.get(url.slice("/media/".length))?.spec.photo;
        expect(PHOTOS.find((photo) => photo.file === file)?.topic, `${pin.id} ${url}`).toBe(topic);
      }
    }
  });

  it("renders each photo once per set of sizes: jobs sharing a key have the same photo, size and outputs", () => {
    const byKey = new Map<string, string>();
    const photoJobs = standard.media.images.filter((job) => job.spec.photo !== undefined);
    for (const job of photoJobs) {
      expect(job.shareKey, job.outputs[0]?.key).not.toBeNull();
      const shape = JSON.stringify([job.spec, job.outputs.map((output) => [output.width, output.height])]);
      expect(byKey.get(job.shareKey ?? "") ?? shape).toBe(shape);
      byKey.set(job.shareKey ?? "", shape);
    }
    expect(byKey.size).toBeLessThan(photoJobs.length / 2);
  });

  it("films a photo in every generated video: the clip and the poster show the same picture", () => {
    const videos = generated.filter((pin) => pin.kind === "video");
    expect(videos.length).toBeGreaterThan(0);
    for (const pin of videos) {
      const clip = standard.media.clips[standard.media.videos.find((video) => video.pinId === pin.id)?.clip ?? -1];
      expect(clip?.spec.photo, `pin ${pin.id}`).toBeDefined();
      expect(clip?.spec.photo).toBe(photoOf(pin.id)?.file);
    }
    // The showcase videos are titled for their drawn clips.
    expect(standard.media.clips[0]?.spec.photo).toBeUndefined();
    expect(standard.media.clips[1]?.spec.photo).toBeUndefined();
  });
});

invariants("120 pins", small);
invariants("default world", standard);

describe("default world: its documented shape", () => {
  const t = standard.tables;

  it("has the documented sizes", () => {
    expect(t.pins.length).toBe(1000);
    expect(t.boards.length).toBe(150);
    expect(t.users.length).toBeGreaterThanOrEqual(50);
    const average = t.comments.length / t.pins.length;
    expect(average > 2.5 && average < 4).toBe(true);
    expect(t.comments.some((row) => row.parent_id !== null)).toBe(true);
    expect(t.comments.some((row) => row.highlighted_by_pin_owner === 1)).toBe(true);
    expect(t.follows.some((row) => row.target_type === "board")).toBe(true);
    expect(new Set(t.reactions.map((row) => row.reaction_type)).size).toBe(5);
  });

  it("splits kinds roughly as asked", () => {
    const kinds = count(t.pins, (pin) => pin.kind);
    expect(kinds.get("image")).toBe(450);
    expect(kinds.get("recipe")).toBe(140);
    expect(kinds.get("article")).toBe(100);
    expect(kinds.get("product")).toBe(100);
    expect(kinds.get("carousel")).toBe(80);
    expect(kinds.get("story")).toBe(80);
    expect(kinds.get("video")).toBe(50);
  });

  it("has the special accounts", () => {
    const user = (id: number) => t.users.find((row) => row.id === id);
    const U = FIXTURES.users;
    expect(user(U.merchant)).toMatchObject({ is_verified_merchant: 1, account_type: "business" });
    expect(user(U.business)).toMatchObject({ account_type: "business", is_partner: 1, business_name: "Bake & Bloom Studio" });
    expect(user(U.limited)).toMatchObject({ login_state: "limited" });
    expect(user(U.teen)).toMatchObject({ is_under_16: 1, is_under_18: 1, age_in_years: 15 });
    expect(user(U.mfa)).toMatchObject({ has_mfa_enabled: 1, mfa_secret: DEMO_MFA_SECRET });
    expect(DEMO_MFA_SECRET).toMatch(/^[A-Z2-7]{32}$/);
    expect(user(U.demo)).toMatchObject({ username: "demo", account_type: "personal", login_state: "full", has_mfa_enabled: 0 });
    expect(user(U.writeBanned)?.is_write_banned).toBe(1);
    expect(user(U.employee)?.is_employee).toBe(1);
    expect(standard.credentials.map((row) => row.userId)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(standard.credentials.every((row) => row.password === DEMO_PASSWORD)).toBe(true);
    expect(t.users.every((row) => row.password_hash === null)).toBe(true);
  });

  it("keeps the documented fixture ids", () => {
    const pin = (id: number) => t.pins.find((row) => row.id === id);
    const board = (id: number) => t.boards.find((row) => row.id === id);
    const P = FIXTURES.pins;
    const B = FIXTURES.boards;
    expect(pin(P.image)?.kind).toBe("image");
    expect(pin(P.video)?.kind).toBe("video");
    expect(pin(P.videoLandscape)?.kind).toBe("video");
    expect(pin(P.carousel)?.kind).toBe("carousel");
    expect(pin(P.story)?.kind).toBe("story");
    expect(pin(P.recipe)?.kind).toBe("recipe");
    expect(pin(P.article)?.kind).toBe("article");
    expect(pin(P.product)).toMatchObject({ kind: "product", is_oos_product: 0 });
    expect(pin(P.productOutOfStock)).toMatchObject({ kind: "product", is_oos_product: 1 });
    expect(pin(P.deleted)?.is_deleted).toBe(1);
    expect(pin(P.hidden)?.is_hidden).toBe(1);
    expect(pin(P.unsafe)?.is_unsafe).toBe(1);
    expect(pin(P.promoted)).toMatchObject({ is_promoted: 1, promoter_id: FIXTURES.users.business });
    expect(pin(P.commentsDisabled)).toMatchObject({ comments_disabled: 1, comment_count: 0 });
    expect(pin(P.attributed)?.media_attribution).not.toBeNull();
    expect(pin(P.attributed)?.closeup_attribution_user_id).not.toBeNull();
    expect(pin(P.linkOnly)).toMatchObject({ mobile_link: null, tracked_link: null });
    expect(pin(P.mobileLinkOnly)?.link).toBeNull();
    expect(pin(P.mobileLinkOnly)?.mobile_link).toMatch(/^https:/);
    expect(pin(P.javascriptLink)?.link).toMatch(/^javascript:/);
    expect(pin(P.blockedLink)?.domain).toBe(FIXTURES.domains.blocked);
    expect(pin(P.secret)).toMatchObject({ board_id: B.secret, pinner_id: FIXTURES.users.demo });
    expect(pin(P.secretByCollaborator)).toMatchObject({ board_id: B.secret, pinner_id: FIXTURES.users.friend });
    expect(pin(P.protected)?.board_id).toBe(B.protected);
    expect(board(B.secret)).toMatchObject({ name: SECRET_BOARD_NAME, privacy: "secret", owner_id: FIXTURES.users.demo, is_collaborative: 1 });
    expect(board(B.friendSecret)).toMatchObject({ privacy: "secret", owner_id: FIXTURES.users.friend });
    expect(board(B.protected)?.privacy).toBe("protected");
    expect(board(B.collaborative)).toMatchObject({ privacy: "public", is_collaborative: 1, collaborator_count: 2 });
    expect(t.board_collaborators.filter((row) => row.board_id === B.collaborative && row.status === "new").length).toBe(2);
    expect(board(B.archived)?.archived_at).not.toBeNull();
    expect(board(B.weeknight)?.section_count).toBe(3);
    for (const [name, id] of Object.entries(FIXTURES.sections)) expect(t.board_sections.find((row) => row.id === id), name).toBeDefined();
  });

  it("matches docs/demo-accounts.md", () => {
    const doc = readFileSync(new URL("../../docs/demo-accounts.md", import.meta.url), "utf8");
    const users = [...doc.matchAll(/^\| (\d+) \| `([^`]+)` \|(?: `([^`]+)` \|)?/gm)];
    expect(users.length).toBeGreaterThanOrEqual(13);
    for (const [, id, username, email] of users) {
      const user = t.users.find((row) => row.id === Number(id));
      expect(user?.username, `user ${id}`).toBe(username);
      if (email) expect(user?.email).toBe(email);
    }
    const boards = [...doc.matchAll(/^\| (\d{5}) \| \**([^|*(]+?)\**(?: \(`([^`]+)`\))? \| (public|secret|protected) \| (\d+) /gm)];
    expect(boards.length).toBe(12);
    for (const [, id, name, slug, privacy, owner] of boards) {
      expect(t.boards.find((row) => row.id === Number(id)), `board ${id}`).toMatchObject({ name, privacy, owner_id: Number(owner), ...(slug ? { slug } : {}) });
    }
    for (const [, id, title] of doc.matchAll(/^\| (1000\d\d) \| .*?"([^"]+)"/gm)) {
      expect(t.pins.find((row) => row.id === Number(id))?.title, `pin ${id}`).toBe(title);
    }
    expect(doc).toContain(DEMO_PASSWORD);
    expect(doc).toContain(DEMO_MFA_SECRET);
  });

  it("stays the same for any size at the fixed ids", () => {
    const fixedUsers = small.tables.users.slice(0, 7).map((row) => [row.id, row.username, row.email]);
    expect(standard.tables.users.slice(0, 7).map((row) => [row.id, row.username, row.email])).toEqual(fixedUsers);
    const fixedBoards = (world: World) => world.tables.boards.filter((row) => row.id <= 10012).map((row) => [row.id, row.name, row.privacy, row.owner_id]);
    expect(fixedBoards(standard)).toEqual(fixedBoards(small));
    const fixedPins = (world: World) => world.tables.pins.filter((row) => row.id <= 100025).map((row) => [row.id, row.kind, row.title, row.board_id]);
    expect(fixedPins(standard)).toEqual(fixedPins(small));
  });
});

describe("bench worlds", () => {
  const big = buildWorld({ pins: POOL_THRESHOLD + 500 });

  it("draws pin images from the shared pool and keeps only a few videos", () => {
    expect(big.pooled).toBe(true);
    expect(big.tables.pins.length).toBe(POOL_THRESHOLD + 500);
    const videos = big.tables.pins.filter((pin) => pin.kind === "video");
    expect(videos.length).toBeLessThanOrEqual(POOLED_VIDEO_LIMIT);
    const videoIds = new Set(videos.map((pin) => pin.id));
    for (const image of big.tables.pin_images) {
      if (videoIds.has(image.pin_id)) expect(image.url).toMatch(/^\/media\/pins\//);
      else expect(image.url).toMatch(/^\/media\/pool\/\d+\//);
    }
    const pooledJobs = big.media.images.filter((job) => job.outputs.some((output) => output.key.startsWith("pool/")));
    expect(pooledJobs.length).toBe(1000);
    const shared = new Set(big.media.images.map((job) => job.shareKey).filter(Boolean));
    expect(shared.size).toBeLessThanOrEqual(200);
  });

  it("points every user at one of POOLED_AVATARS avatar sets, each rendered once", () => {
    const keys = new Set(big.media.images.flatMap((job) => job.outputs.map((output) => output.key)));
    const sets = new Set(big.tables.users.map((user) => user.image_key));
    expect(sets.size).toBeLessThanOrEqual(POOLED_AVATARS);
    for (const set of sets) {
      expect(set).toMatch(/^users\/pool-\d+$/);
      for (const size of Object.keys(USER_IMAGE_SIZES)) expect(keys.has(`${set}/${size}.jpg`), `${set}/${size}.jpg`).toBe(true);
    }
    expect(big.media.images.filter((job) => job.outputs.some((output) => output.key.startsWith("users/"))).length).toBe(sets.size);
  });
});
