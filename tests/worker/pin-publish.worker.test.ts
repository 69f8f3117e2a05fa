// Publishing a draft (PinResource create) against the built Worker and real D1: a pin made in
// one batch with its images, its place at the board's front after at most 2 leading stories,
// the profile's created pins and search; carousels; every refusal all or nothing; a draft of
// one person 404 to another; scheduled pins, invisible until the cron publishes them exactly
// once, even when two runs overlap.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { publishDueScheduledPins } from "~/builder/publish.server.ts";
import { newDraft, newItem } from "~/builder/drafts.ts";
import { addTag, createTag, setTaggedObjects } from "~/builder/pin-tags.ts";
import { sweepAbandonedUploads } from "~/media/uploads.server.ts";
import { CAST, CAST_BOARDS, browserFor, freshId, seedCast } from "./roles-fixture.ts";
import type { Browser } from "./accounts-helpers.ts";
import { call, insertPin, insertSave, ok, row, rows } from "./boards-helpers.ts";
import { storyUploadOf } from "./story-fixtures.ts";

vi.setConfig({ testTimeout: 30_000 });

type Draft = Record<string, unknown> & { id: string };
type Published = { status: string; draft_id: string; pin?: { id: string; url: string; type: string }; scheduled_pin?: { id: string; title: string; scheduled_ts: number } };

let owner: Browser;
let stranger: Browser;
let writer: Browser;
let signedOut: Browser;

beforeAll(async () => {
  await seedCast();
  [owner, stranger, writer, signedOut] = await Promise.all([browserFor("owner"), browserFor("stranger"), browserFor("collaborator_write"), browserFor("signed_out")]);
});

/** An upload row of `userId` with two sizes in R2 (the builder's POST makes these; its own test covers that path). */
async function uploadOf(userId: number, options: { kind?: "image" | "video"; poster?: boolean } = {}): Promise<string> {
  const id = crypto.randomUUID().replaceAll("-", "");
  const kind = options.kind ?? "image";
  const hasImages = kind === "image" || options.poster === true;
  const sizes = hasImages ? JSON.stringify({ "236x": [236, 354], orig: [600, 900] }) : null;
  await env.DB.prepare(
    `INSERT INTO media_uploads (id, user_id, kind, content_type, bytes, width, height, dominant_color, sizes, status, created_at)
     VALUES (?1, ?2, ?3, ?4, 1000, ?5, ?6, ?7, ?8, 'uploaded', ?9)`,
  )
    .bind(id, userId, kind, kind === "image" ? "image/jpeg" : "video/mp4", hasImages ? 600 : null, hasImages ? 900 : null, hasImages ? "#336699" : null, sizes, Date.now())
    .run();
  const folder = `uploads/${userId}/${id}`;
  if (hasImages) await Promise.all(["236x.jpg", "orig.jpg"].map((name) => env.MEDIA.put(`${folder}/${name}`, "bytes")));
  if (kind === "video") await env.MEDIA.put(`${folder}/video.mp4`, "video-bytes");
  return id;
}

const item = (upload: string, extra: Record<string, unknown> = {}) => ({ id: `i${upload.slice(0, 8)}`, media: { type: "image", source: "uploaded", ref: upload }, ...extra });

async function draftOf(browser: Browser, fields: Record<string, unknown>): Promise<Draft> {
  return ok<Draft>(browser, "PinDraftResource", "create", fields);
}

/** A fresh public board of the owner, with two story pins and an image pin at its front. */
async function boardWithStories(): Promise<{ boardId: number; stories: [number, number]; image: number }> {
  const boardId = freshId();
  await env.DB.prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, category, created_at, updated_at) VALUES (?1, ?2, 'Made here', ?3, 'public', 'food', 0, 0)").bind(boardId, CAST.owner, `made-${boardId}`).run();
  const [first, second, image] = [freshId(), freshId(), freshId()];
  await insertPin(first, { boardId, kind: "story" });
  await insertPin(second, { boardId, kind: "story" });
  await insertPin(image, { boardId });
  await insertSave(boardId, first, 0);
  await insertSave(boardId, second, 1);
  await insertSave(boardId, image, 2);
  return { boardId, stories: [first, second], image };
}

/** Every row a publish may write, for "nothing changed". */
async function footprint(userId: number) {
  return {
    pins: (await row<{ n: number }>("SELECT count(*) AS n FROM pins WHERE pinner_id = ?1", userId))!.n,
    drafts: (await row<{ n: number }>("SELECT count(*) AS n FROM pin_drafts WHERE user_id = ?1", userId))!.n,
    taken: (await row<{ n: number }>("SELECT count(*) AS n FROM media_uploads WHERE user_id = ?1 AND pin_id IS NOT NULL", userId))!.n,
    scheduled: (await row<{ n: number }>("SELECT count(*) AS n FROM scheduled_pins WHERE user_id = ?1", userId))!.n,
    saves: (await row<{ n: number }>("SELECT count(*) AS n FROM board_pins WHERE saved_by = ?1", userId))!.n,
  };
}

describe("publishing a draft now", () => {
  let board: Awaited<ReturnType<typeof boardWithStories>>;
  let published: Published;
  let upload: string;
  const title = "Quince paste on rye crackers";

  beforeAll(async () => {
    board = await boardWithStories();
    upload = await uploadOf(CAST.owner);
    const draft = await draftOf(owner, {
      title,
      description: "Slow-cooked for four hours <b>not bold</b>",
      altText: "A dark amber square of quince paste on a cracker",
      websiteLink: "https://fair-shop.example/quince",
      boardId: String(board.boardId),
      items: [item(upload)],
      isCommentsAllowed: false,
    });
    published = await ok<Published>(owner, "PinResource", "create", { draft_id: draft.id });
  });

  it("answers the new pin and ends the draft", async () => {
    expect(published.status).toBe("succeeded");
    expect(published.pin).toMatchObject({ type: "image", url: `/pin/${published.pin!.id}/` });
    expect(published.pin!.id).toMatch(/^\d{16}$/);
    expect(await row("SELECT id FROM pin_drafts WHERE id = ?1", Number(published.draft_id))).toBeNull();
  });

  it("stores the pin with the draft's fields, its images and its upload taken", async () => {
    const pin = await row<Record<string, unknown>>("SELECT * FROM pins WHERE id = ?1", Number(published.pin!.id));
    expect(pin).toMatchObject({
      pinner_id: CAST.owner,
      native_creator_id: CAST.owner,
      board_id: board.boardId,
      kind: "image",
      title,
      description: "Slow-cooked for four hours <b>not bold</b>",
      description_html: "Slow-cooked for four hours &lt;b&gt;not bold&lt;/b&gt;",
      alt_text: "A dark amber square of quince paste on a cracker",
      link: "https://fair-shop.example/quince",
      domain: "fair-shop.example",
      dominant_color: "#336699",
      comments_disabled: 1,
      image_signature: upload,
      // Its board's category, which related pins go by.
      category: "food",
    });
    expect(await rows("SELECT size, url, width, height FROM pin_images WHERE pin_id = ?1 ORDER BY size", Number(published.pin!.id))).toEqual([
      { size: "236x", url: `/media/uploads/${CAST.owner}/${upload}/236x.jpg`, width: 236, height: 354 },
      { size: "orig", url: `/media/uploads/${CAST.owner}/${upload}/orig.jpg`, width: 600, height: 900 },
    ]);
    expect(await row("SELECT status, pin_id FROM media_uploads WHERE id = ?1", upload)).toEqual({ status: "published", pin_id: Number(published.pin!.id) });
  });

  it("puts it at the board's front, after the 2 leading stories", async () => {
    const order = await rows<{ pin_id: number }>("SELECT pin_id FROM board_pins WHERE board_id = ?1 ORDER BY position, pin_id", board.boardId);
    expect(order.map((each) => each.pin_id)).toEqual([board.stories[0], board.stories[1], Number(published.pin!.id), board.image]);
    expect((await row<{ pin_count: number }>("SELECT pin_count FROM boards WHERE id = ?1", board.boardId))!.pin_count).toBe(4);
  });

  it("shows it at once on its close-up (alt text, link), in the profile's created pins and in search, to a stranger", async () => {
    const page = await signedOut.fetch(published.pin!.url, { headers: { "user-agent": "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36" } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('alt="A dark amber square of quince paste on a cracker"');
    expect(html).toContain('href="https://fair-shop.example/quince"');
    const created = await ok<{ items?: Array<{ id: string }>; data?: Array<{ id: string }> } | Array<{ id: string }>>(stranger, "UserPinsResource", "get", { username: "cast_owner", feed: "created" });
    expect(JSON.stringify(created)).toContain(published.pin!.id);
    const found = await call(stranger, "BaseSearchResource", "get", { query: "quince paste rye" });
    expect(found.status).toBe(200);
    expect(JSON.stringify(found.data)).toContain(published.pin!.id);
  });

  it("lets a stranger read its image once it is public", async () => {
    expect((await stranger.fetch(`/media/uploads/${CAST.owner}/${upload}/236x.jpg`)).status).toBe(200);
  });
});

describe("a re-cut upload's published bytes", () => {
  it("are its current cut only: an older cut left behind stays its owner's", async () => {
    const upload = await uploadOf(CAST.owner);
    // A crop switched the row to revision ab12cd34; deleting the old cut's objects failed.
    await env.DB.prepare("UPDATE media_uploads SET revision = 'ab12cd34' WHERE id = ?1").bind(upload).run();
    await Promise.all(["ab12cd34-236x.jpg", "ab12cd34-orig.jpg"].map((name) => env.MEDIA.put(`uploads/${CAST.owner}/${upload}/${name}`, "bytes")));
    const draft = await draftOf(owner, { boardId: String(CAST_BOARDS.public), items: [item(upload)] });
    await ok(owner, "PinResource", "create", { draft_id: draft.id });
    expect((await stranger.fetch(`/media/uploads/${CAST.owner}/${upload}/ab12cd34-236x.jpg`)).status).toBe(200);
    expect((await stranger.fetch(`/media/uploads/${CAST.owner}/${upload}/orig.jpg`)).status).toBe(404);
    expect((await owner.fetch(`/media/uploads/${CAST.owner}/${upload}/orig.jpg`)).status).toBe(200);
  });
});

describe("publishing a carousel", () => {
  it("makes one carousel pin whose slots keep each item's own title and link", async () => {
    const uploads = [await uploadOf(CAST.owner), await uploadOf(CAST.owner), await uploadOf(CAST.owner)];
    const draft = await draftOf(owner, {
      title: "Three ways with figs",
      websiteLink: "https://fair-shop.example/figs",
      boardId: String(CAST_BOARDS.public),
      items: [item(uploads[0]!, { title: "Roasted" }), item(uploads[1]!, { link: "https://fair-shop.example/figs/jam" }), item(uploads[2]!)],
    });
    expect(draft.type).toBe("carousel");
    const published = await ok<Published>(owner, "PinResource", "create", { draft_id: draft.id });
    expect(published.pin!.type).toBe("carousel");
    const pin = await row<{ kind: string; carousel_data: string }>("SELECT kind, carousel_data FROM pins WHERE id = ?1", Number(published.pin!.id));
    const slots = (JSON.parse(pin!.carousel_data) as { slots: Array<{ title: string | null; link: string | null; images: Record<string, { url: string }> }> }).slots;
    expect(slots.map((slot) => [slot.title, slot.link])).toEqual([
      ["Roasted", "https://fair-shop.example/figs"],
      [null, "https://fair-shop.example/figs/jam"],
      [null, "https://fair-shop.example/figs"],
    ]);
    expect(slots[2]!.images["236x"]!.url).toBe(`/media/uploads/${CAST.owner}/${uploads[2]}/236x.jpg`);
    expect((await row<{ n: number }>("SELECT count(*) AS n FROM media_uploads WHERE pin_id = ?1", Number(published.pin!.id)))!.n).toBe(3);
  });
});

describe("publishing a tagged image", () => {
  it("stores its placed tags with the pin, and its close-up shows them as links", async () => {
    const product = await insertPin(freshId(), { kind: "product", title: "Walnut serving board" });
    const upload = await uploadOf(CAST.owner);
    let draft = { ...newDraft(), items: [newItem("tagged", { type: "image", source: "uploaded", ref: upload, width: 600, height: 900 })] };
    draft = addTag(draft, 0, setTaggedObjects(createTag("t1", { x: 0.25, y: 0.75 }), [{ id: String(product), type: "product", title: "Walnut serving board", media: null }]));
    const made = await draftOf(owner, { title: "Cheese night", boardId: String(CAST_BOARDS.public), items: draft.items, pinTags: draft.pinTags });
    const published = await ok<Published>(owner, "PinResource", "create", { draft_id: made.id });
    expect(await rows("SELECT x, y, tagged_pin_id FROM pin_tags WHERE pin_id = ?1", Number(published.pin!.id))).toEqual([{ x: 0.25, y: 0.75, tagged_pin_id: product }]);
    const html = await (await signedOut.fetch(published.pin!.url)).text();
    expect(html).toContain(`href="/pin/${product}/"`);
  });

  it("refuses a tag on a pin the publisher cannot see, and stores nothing", async () => {
    const secret = freshId();
    await env.DB.prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, created_at, updated_at) VALUES (?1, ?2, 'Hush', ?3, 'secret', 0, 0)").bind(secret, CAST.stranger, `hush-${secret}`).run();
    const hidden = await insertPin(freshId(), { pinner: CAST.stranger, boardId: secret });
    const upload = await uploadOf(CAST.owner);
    let draft = { ...newDraft(), items: [newItem("tagged", { type: "image", source: "uploaded", ref: upload, width: 600, height: 900 })] };
    draft = addTag(draft, 0, setTaggedObjects(createTag("t1", { x: 0.5, y: 0.5 }), [{ id: String(hidden), type: "pin", title: "Hidden", media: null }]));
    const made = await draftOf(owner, { boardId: String(CAST_BOARDS.public), items: draft.items, pinTags: draft.pinTags });
    const before = await footprint(CAST.owner);
    const answer = await call(owner, "PinResource", "create", { draft_id: made.id });
    expect(answer.status).toBe(400);
    expect(answer.error?.message_detail).toContain("pinTags.0");
    expect(await footprint(CAST.owner)).toEqual(before);
  });
});

describe("refused publishes change nothing", () => {
  it.each([
    ["no board chosen", async () => ({ items: [item(await uploadOf(CAST.owner))] }), "boardId"],
    ["no media", async () => ({ boardId: String(CAST_BOARDS.public) }), "items"],
    ["another person's upload", async () => ({ boardId: String(CAST_BOARDS.public), items: [item(await uploadOf(CAST.stranger))] }), "items.0.media"],
    ["a video without its poster yet", async () => ({ boardId: String(CAST_BOARDS.public), items: [{ id: "v", media: { type: "video", source: "uploaded", ref: await uploadOf(CAST.owner, { kind: "video" }) } }] }), "items.0.media"],
  ])("%s: 400 naming %s", async (_, fields, field) => {
    const draft = await draftOf(owner, await fields());
    const before = await footprint(CAST.owner);
    const answer = await call(owner, "PinResource", "create", { draft_id: draft.id });
    expect(answer.status).toBe(400);
    expect(answer.error?.message_detail ?? "").toContain(field);
    expect(await footprint(CAST.owner)).toEqual(before);
  });

  it("refuses a board the person may not save to, as one they cannot see", async () => {
    const strangerBoard = freshId();
    await env.DB.prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, created_at, updated_at) VALUES (?1, ?2, 'Theirs', ?3, 'public', 0, 0)").bind(strangerBoard, CAST.stranger, `theirs-${strangerBoard}`).run();
    const draft = await draftOf(owner, { boardId: String(CAST_BOARDS.public), items: [item(await uploadOf(CAST.owner))] });
    // The board was the owner's to choose when chosen; the stranger's board is written straight into the row.
    await env.DB.prepare("UPDATE pin_drafts SET draft = json_set(draft, '$.boardId', ?2) WHERE id = ?1").bind(Number(draft.id), String(strangerBoard)).run();
    const before = await footprint(CAST.owner);
    const answer = await call(owner, "PinResource", "create", { draft_id: draft.id });
    expect(answer.status).toBe(400);
    expect(answer.error?.message_detail).toContain("boardId");
    expect(await footprint(CAST.owner)).toEqual(before);
  });

  it("answers another person's draft as missing, and a signed-out call as unauthorized", async () => {
    const draft = await draftOf(owner, { boardId: String(CAST_BOARDS.public), items: [item(await uploadOf(CAST.owner))] });
    expect((await call(stranger, "PinResource", "create", { draft_id: draft.id })).status).toBe(404);
    expect((await call(signedOut, "PinResource", "create", { draft_id: draft.id })).status).toBe(401);
    expect(await row("SELECT id FROM pin_drafts WHERE id = ?1", Number(draft.id))).not.toBeNull();
  });

  it("publishes a draft once when it is sent twice at the same time", async () => {
    const draft = await draftOf(owner, { boardId: String(CAST_BOARDS.public), items: [item(await uploadOf(CAST.owner))] });
    const before = await footprint(CAST.owner);
    const answers = await Promise.all([call(owner, "PinResource", "create", { draft_id: draft.id }), call(owner, "PinResource", "create", { draft_id: draft.id })]);
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect((await footprint(CAST.owner)).pins).toBe(before.pins + 1);
  });

  it("lets a write collaborator publish to the shared board, and never to a board they only follow", async () => {
    const draft = await draftOf(writer, { boardId: String(CAST_BOARDS.public), items: [item(await uploadOf(CAST.collaborator_write))] });
    const published = await ok<Published>(writer, "PinResource", "create", { draft_id: draft.id });
    expect(await row("SELECT pinner_id, board_id FROM pins WHERE id = ?1", Number(published.pin!.id))).toEqual({ pinner_id: CAST.collaborator_write, board_id: CAST_BOARDS.public });
  });
});

describe("creating pins switched off", () => {
  it("answers 403 with the message and publishes nothing", async () => {
    const draft = await draftOf(owner, { boardId: String(CAST_BOARDS.public), items: [item(await uploadOf(CAST.owner))] });
    const before = await footprint(CAST.owner);
    const switchable = env as unknown as { PIN_CREATION_DISABLED: string };
    switchable.PIN_CREATION_DISABLED = "true";
    try {
      const answer = await call(owner, "PinResource", "create", { draft_id: draft.id });
      expect(answer.status).toBe(403);
      expect(answer.error?.message).toBe("Creating Pins is paused for now. Your drafts are safe: try again later.");
    } finally {
      switchable.PIN_CREATION_DISABLED = "false";
    }
    expect(await footprint(CAST.owner)).toEqual(before);
  });
});

describe("scheduled pins", () => {
  /** A date and time in Paris at least an hour ahead, as a person would pick them. */
  function parisAhead(hours: number): { scheduledDate: string; scheduledTime: string } {
    const at = new Date(Date.now() + hours * 3_600_000);
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Paris", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23" })
        .formatToParts(at)
        .map((part) => [part.type, part.value]),
    );
    return { scheduledDate: `${parts.year}-${parts.month}-${parts.day}`, scheduledTime: `${parts.hour}:${parts.minute}` };
  }

  async function schedule(browser: Browser, userId: number, title: string, hours: number): Promise<Published> {
    const draft = await draftOf(browser, { title, boardId: String(CAST_BOARDS.public), items: [item(await uploadOf(userId))], publishOption: "schedule", timeZone: "Europe/Paris", ...parisAhead(hours) });
    return ok<Published>(browser, "PinResource", "create", { draft_id: draft.id });
  }

  it("refuses a time too soon, by its field, and stores nothing", async () => {
    const draft = await draftOf(owner, { boardId: String(CAST_BOARDS.public), items: [item(await uploadOf(CAST.owner))], publishOption: "schedule", timeZone: "Europe/Paris", ...parisAhead(0.05) });
    const before = await footprint(CAST.owner);
    const answer = await call(owner, "PinResource", "create", { draft_id: draft.id });
    expect(answer.status).toBe(400);
    expect(answer.error?.message_detail).toContain("scheduledTime");
    expect(await footprint(CAST.owner)).toEqual(before);
  });

  it("are listed soonest first, invisible to everyone else, and counted on the person", async () => {
    const later = await schedule(writer, CAST.collaborator_write, "Later", 48);
    const sooner = await schedule(writer, CAST.collaborator_write, "Sooner", 2);
    expect(sooner.status).toBe("scheduled");
    const listed = await ok<Array<{ id: string; title: string; scheduled_ts: number }>>(writer, "ScheduledPinsResource", "get", {});
    expect(listed.map((each) => each.title)).toEqual(["Sooner", "Later"]);
    expect(listed[0]!.scheduled_ts).toBe(sooner.scheduled_pin!.scheduled_ts);
    expect((await row<{ scheduled_pin_count: number }>("SELECT scheduled_pin_count FROM users WHERE id = ?1", CAST.collaborator_write))!.scheduled_pin_count).toBe(2);
    // Not a pin anywhere, and its upload stays its owner's.
    const pinId = (await row<{ pin_id: number }>("SELECT pin_id FROM scheduled_pins WHERE id = ?1", Number(later.scheduled_pin!.id)))!.pin_id;
    expect(await row("SELECT id FROM pins WHERE id = ?1", pinId)).toBeNull();
    expect((await owner.fetch(`/pin/${pinId}/`)).status).toBe(404);
    expect(await ok<unknown[]>(owner, "ScheduledPinsResource", "get", {})).toEqual([]);
    const upload = (await row<{ id: string }>("SELECT id FROM media_uploads WHERE pin_id = ?1", pinId))!.id;
    expect((await owner.fetch(`/media/uploads/${CAST.collaborator_write}/${upload}/236x.jpg`)).status).toBe(404);
  });

  it("keep their uploads through the sweep of abandoned ones, however long they wait", async () => {
    const reserved = await rows<{ id: string }>("SELECT id FROM media_uploads WHERE user_id = ?1 AND pin_id IS NOT NULL AND status = 'uploaded' ORDER BY id", CAST.collaborator_write);
    expect(reserved.length).toBeGreaterThan(0);
    await env.DB.prepare("UPDATE media_uploads SET created_at = 0 WHERE user_id = ?1").bind(CAST.collaborator_write).run();
    await sweepAbandonedUploads(env.DB, env.MEDIA);
    expect(await rows("SELECT id FROM media_uploads WHERE user_id = ?1 AND pin_id IS NOT NULL AND status = 'uploaded' ORDER BY id", CAST.collaborator_write)).toEqual(reserved);
  });

  it("moves to its new place when its time changes, and is the owner's alone to move or cancel", async () => {
    const listed = await ok<Array<{ id: string; title: string }>>(writer, "ScheduledPinsResource", "get", {});
    const later = listed.find((each) => each.title === "Later")!;
    const when = parisAhead(1);
    expect((await call(owner, "ScheduledPinsResource", "update", { id: later.id, scheduled_date: when.scheduledDate, scheduled_time: when.scheduledTime, time_zone: "Europe/Paris" })).status).toBe(404);
    await ok(writer, "ScheduledPinsResource", "update", { id: later.id, scheduled_date: when.scheduledDate, scheduled_time: when.scheduledTime, time_zone: "Europe/Paris" });
    expect((await ok<Array<{ title: string }>>(writer, "ScheduledPinsResource", "get", {})).map((each) => each.title)).toEqual(["Later", "Sooner"]);
    expect((await call(owner, "ScheduledPinsResource", "delete", { id: later.id })).status).toBe(404);
    await ok(writer, "ScheduledPinsResource", "delete", { id: later.id });
    expect((await ok<Array<{ title: string }>>(writer, "ScheduledPinsResource", "get", {})).map((each) => each.title)).toEqual(["Sooner"]);
    expect((await row<{ scheduled_pin_count: number }>("SELECT scheduled_pin_count FROM users WHERE id = ?1", CAST.collaborator_write))!.scheduled_pin_count).toBe(1);
  });

  it("publishes exactly once when two cron runs overlap", async () => {
    const scheduled = await row<{ id: number; pin_id: number; scheduled_ts: number }>("SELECT id, pin_id, scheduled_ts FROM scheduled_pins WHERE user_id = ?1", CAST.collaborator_write);
    const due = scheduled!.scheduled_ts + 1;
    const runs = await Promise.all([publishDueScheduledPins(env.DB, due), publishDueScheduledPins(env.DB, due)]);
    expect(runs.reduce((sum, run) => sum + run.published, 0)).toBe(1);
    expect(runs.reduce((sum, run) => sum + run.failed, 0)).toBe(0);
    expect(await rows("SELECT id, title, pinner_id FROM pins WHERE id = ?1", scheduled!.pin_id)).toEqual([{ id: scheduled!.pin_id, title: "Sooner", pinner_id: CAST.collaborator_write }]);
    expect(await row("SELECT id FROM scheduled_pins WHERE id = ?1", scheduled!.id)).toBeNull();
    expect((await row<{ scheduled_pin_count: number }>("SELECT scheduled_pin_count FROM users WHERE id = ?1", CAST.collaborator_write))!.scheduled_pin_count).toBe(0);
    expect((await owner.fetch(`/pin/${scheduled!.pin_id}/`)).status).toBe(200);
    // A third run finds nothing due.
    expect(await publishDueScheduledPins(env.DB, due)).toEqual({ published: 0, returned: 0, skipped: 0, failed: 0 });
  });

  it("refuse a 101st scheduled pin with a 409, storing nothing", async () => {
    const person = CAST.follower;
    const follower = await browserFor("follower");
    const boardId = freshId();
    await env.DB.prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, created_at, updated_at) VALUES (?1, ?2, 'Many', ?3, 'public', 0, 0)").bind(boardId, person, `many-${boardId}`).run();
    await env.DB.batch(
      Array.from({ length: 100 }, (_, at) =>
        env.DB.prepare("INSERT INTO scheduled_pins (user_id, pin_id, board_id, title, draft, scheduled_ts, created_at) VALUES (?1, ?2, ?3, 'Queued', '{}', ?4, 0)").bind(person, 7_000_000 + at, boardId, Date.now() + 86_400_000),
      ),
    );
    const draft = await draftOf(follower, { boardId: String(boardId), items: [item(await uploadOf(person))], publishOption: "schedule", timeZone: "Europe/Paris", ...parisAhead(5) });
    const before = await footprint(person);
    const answer = await call(follower, "PinResource", "create", { draft_id: draft.id });
    expect(answer.status).toBe(409);
    expect(answer.error?.message).toBe("You can keep up to 100 scheduled Pins. Publish or cancel one to schedule another.");
    expect(await footprint(person)).toEqual(before);
    await env.DB.prepare("DELETE FROM scheduled_pins WHERE user_id = ?1").bind(person).run();
  });

  it("wait while pin creation is switched off, and go back to the drafts of an account that may no longer write", async () => {
    const draft = await draftOf(writer, { title: "Banned meanwhile", boardId: String(CAST_BOARDS.public), items: [item(await uploadOf(CAST.collaborator_write))], publishOption: "schedule", timeZone: "Europe/Paris", ...parisAhead(4) });
    await ok(writer, "PinResource", "create", { draft_id: draft.id });
    const scheduled = (await row<{ id: number; scheduled_ts: number; pin_id: number }>("SELECT id, scheduled_ts, pin_id FROM scheduled_pins WHERE user_id = ?1", CAST.collaborator_write))!;
    expect(await publishDueScheduledPins(env.DB, scheduled.scheduled_ts + 1, { creationDisabled: true })).toEqual({ published: 0, returned: 0, skipped: 0, failed: 0 });
    expect(await row("SELECT id FROM scheduled_pins WHERE id = ?1", scheduled.id)).not.toBeNull();
    await env.DB.prepare("UPDATE users SET is_write_banned = 1 WHERE id = ?1").bind(CAST.collaborator_write).run();
    try {
      expect(await publishDueScheduledPins(env.DB, scheduled.scheduled_ts + 1)).toEqual({ published: 0, returned: 1, skipped: 0, failed: 0 });
    } finally {
      await env.DB.prepare("UPDATE users SET is_write_banned = 0 WHERE id = ?1").bind(CAST.collaborator_write).run();
    }
    expect(await row("SELECT id FROM pins WHERE id = ?1", scheduled.pin_id)).toBeNull();
  });

  it("returns a pin whose board went to the person's drafts instead of losing it", async () => {
    const boardId = freshId();
    await env.DB.prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, created_at, updated_at) VALUES (?1, ?2, 'Short-lived', ?3, 'public', 0, 0)").bind(boardId, CAST.stranger, `short-${boardId}`).run();
    const draft = await draftOf(stranger, { title: "Orphan", boardId: String(boardId), items: [item(await uploadOf(CAST.stranger))], publishOption: "schedule", timeZone: "Europe/Paris", ...parisAhead(3) });
    await ok(stranger, "PinResource", "create", { draft_id: draft.id });
    const scheduled = (await row<{ scheduled_ts: number; pin_id: number }>("SELECT scheduled_ts, pin_id FROM scheduled_pins WHERE user_id = ?1", CAST.stranger))!;
    // The board's deletion takes its scheduled pins with it (ON DELETE CASCADE); a board the
    // person lost the right to save to is the case the cron meets.
    await env.DB.prepare("UPDATE boards SET owner_id = ?2 WHERE id = ?1").bind(boardId, CAST.owner).run();
    const run = await publishDueScheduledPins(env.DB, scheduled.scheduled_ts + 1);
    expect(run).toEqual({ published: 0, returned: 1, skipped: 0, failed: 0 });
    expect(await row("SELECT id FROM pins WHERE id = ?1", scheduled.pin_id)).toBeNull();
    const drafts = await ok<{ data: Array<{ title: string; status: string; publishingStatus: string }> } | Array<{ title: string }>>(stranger, "PinDraftsResource", "get", {});
    expect(JSON.stringify(drafts)).toContain('"title":"Orphan"');
    expect(await row("SELECT pin_id FROM media_uploads WHERE user_id = ?1 AND pin_id = ?2", CAST.stranger, scheduled.pin_id)).toBeNull();
  });
});

// --- Story pins ----------------------------------------------------------------------------------

const storyMedia = (ref: string) => ({ type: "image", source: "uploaded", ref });
type StoryDraftAnswer = { id: string; story: { pages: unknown[] } };
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

/** A three-page story of the owner: a heading on an image page, a paragraph in the serif font with a product sticker, an image block and a link block. */
async function threePageStory(boardId: number, product: number, fields: Record<string, unknown> = {}) {
  const uploads = [await storyUploadOf(CAST.owner), await storyUploadOf(CAST.owner, 1080, 1920), await storyUploadOf(CAST.owner), await storyUploadOf(CAST.owner, 800, 800)] as const;
  const draft = await ok<StoryDraftAnswer>(owner, "StoryPinDraftsResource", "create", {
    boardId: String(boardId),
    story: {
      pages: [
        { id: "p1", media: storyMedia(uploads[0]), blocks: [{ id: "b1", type: "heading", text: "Blood orange tart" }] },
        {
          id: "p2",
          backgroundColor: "#f4e1c1",
          media: storyMedia(uploads[1]),
          blocks: [
            { id: "b2", type: "paragraph", text: "Blind-bake the shell for twelve minutes.", fontId: "serif" },
            { id: "b3", type: "product_sticker", pinId: String(product) },
          ],
        },
        {
          id: "p3",
          media: storyMedia(uploads[2]),
          blocks: [
            { id: "b4", type: "image", media: storyMedia(uploads[3]) },
            { id: "b5", type: "link", linkBlock: { text: "The full recipe", srcUrl: "https://fair-shop.example/blood-orange" } },
          ],
        },
      ],
    },
    ...fields,
  });
  return { draft, uploads };
}

describe("publishing a story draft", () => {
  let board: Awaited<ReturnType<typeof boardWithStories>>;
  let published: Published;
  let uploads: readonly [string, string, string, string];
  let product: number;

  beforeAll(async () => {
    board = await boardWithStories();
    product = await insertPin(freshId(), { pinner: CAST.stranger, kind: "product", title: "Enamel pie dish" });
    const made = await threePageStory(board.boardId, product);
    uploads = made.uploads;
    const reopened = await ok<StoryDraftAnswer>(owner, "StoryPinDraftsResource", "get", { id: made.draft.id });
    expect(reopened.story.pages).toHaveLength(3);
    published = await ok<Published>(owner, "PinResource", "create", { draft_id: made.draft.id });
  });

  it("makes a story pin and ends the draft", async () => {
    expect(published).toMatchObject({ status: "succeeded", pin: { type: "story" } });
    expect(await row("SELECT id FROM pin_drafts WHERE id = ?1", Number(published.draft_id))).toBeNull();
  });

  it("stores story_pin_data with every page at its upload's sizes, the blocks and the totals; its grid image is the cover's", async () => {
    const pinId = Number(published.pin!.id);
    const pin = await row<{ kind: string; title: string; image_signature: string; story_pin_data: string }>("SELECT kind, title, image_signature, story_pin_data FROM pins WHERE id = ?1", pinId);
    expect([pin!.kind, pin!.title, pin!.image_signature]).toEqual(["story", "Blood orange tart", uploads[0]]);
    const data = JSON.parse(pin!.story_pin_data) as {
      pinTitle: string;
      totalVideoDuration: number;
      staticPageCount: number;
      hasProductPins: boolean;
      metadata: Record<string, unknown>;
      pages: Array<{ id: string; backgroundColor: string; image: { url: string; width: number; height: number }; images: Record<string, unknown>; blocks: Array<Record<string, unknown>> }>;
    };
    expect([data.pinTitle, data.totalVideoDuration, data.staticPageCount, data.hasProductPins]).toEqual(["Blood orange tart", 0, 3, true]);
    expect(data.metadata).toMatchObject({ coverPageId: "p1" });
    expect(data.pages.map((page) => [page.id, page.backgroundColor, page.image])).toEqual([
      ["p1", "#ffffff", { url: `/media/uploads/${CAST.owner}/${uploads[0]}/736x.jpg`, width: 736, height: 1308 }],
      ["p2", "#f4e1c1", { url: `/media/uploads/${CAST.owner}/${uploads[1]}/736x.jpg`, width: 736, height: 1308 }],
      ["p3", "#ffffff", { url: `/media/uploads/${CAST.owner}/${uploads[2]}/736x.jpg`, width: 736, height: 1308 }],
    ]);
    expect(data.pages[1]!.images).toEqual({
      "236x": { url: `/media/uploads/${CAST.owner}/${uploads[1]}/236x.jpg`, width: 236, height: 420 },
      "736x": { url: `/media/uploads/${CAST.owner}/${uploads[1]}/736x.jpg`, width: 736, height: 1308 },
      orig: { url: `/media/uploads/${CAST.owner}/${uploads[1]}/orig.jpg`, width: 1080, height: 1920 },
    });
    expect(data.pages.map((page) => page.blocks.map((block) => block.type))).toEqual([["heading"], ["paragraph", "product_sticker"], ["image", "link"]]);
    expect(data.pages[1]!.blocks[0]).toMatchObject({ text: "Blind-bake the shell for twelve minutes.", font_id: "serif", style: { alignment: 1, color: "#333333", size: 28, letterSpacing: -0.4, lineHeight: 1.25 } });
    expect(data.pages[1]!.blocks[1]).toMatchObject({ pin_id: String(product), is_removed: false });
    expect(data.pages[2]!.blocks[0]).toMatchObject({ image: { url: `/media/uploads/${CAST.owner}/${uploads[3]}/736x.jpg`, width: 736, height: 736 } });
    expect(data.pages[2]!.blocks[1]).toMatchObject({ text: "The full recipe", url: "https://fair-shop.example/blood-orange" });
    expect(await rows("SELECT size, url FROM pin_images WHERE pin_id = ?1 ORDER BY size", pinId)).toEqual([
      { size: "236x", url: `/media/uploads/${CAST.owner}/${uploads[0]}/236x.jpg` },
      { size: "736x", url: `/media/uploads/${CAST.owner}/${uploads[0]}/736x.jpg` },
      { size: "orig", url: `/media/uploads/${CAST.owner}/${uploads[0]}/orig.jpg` },
    ]);
  });

  it("takes every upload the story shows, in the same batch", async () => {
    const taken = await rows<{ id: string; pin_id: number; status: string }>("SELECT id, pin_id, status FROM media_uploads WHERE id IN (?1, ?2, ?3, ?4) ORDER BY id", ...uploads);
    expect(taken).toHaveLength(4);
    expect(new Set(taken.map((each) => `${each.pin_id}:${each.status}`))).toEqual(new Set([`${published.pin!.id}:published`]));
  });

  it("lands at the board's front after the 2 leading stories", async () => {
    const order = await rows<{ pin_id: number }>("SELECT pin_id FROM board_pins WHERE board_id = ?1 ORDER BY position, pin_id", board.boardId);
    expect(order.map((each) => each.pin_id)).toEqual([board.stories[0], board.stories[1], Number(published.pin!.id), board.image]);
  });

  it("shows a crawler every page's text and images in its HTML, without script", async () => {
    const page = await signedOut.fetch(published.pin!.url, { headers: { "user-agent": GOOGLEBOT } });
    expect(page.status).toBe(200);
    const html = (await page.text()).replace(/<script\b[\s\S]*?<\/script>/gi, "");
    for (const text of ["Blood orange tart", "Blind-bake the shell for twelve minutes.", "The full recipe"]) expect(html).toContain(text);
    for (const upload of uploads) expect(html).toContain(`src="/media/uploads/${CAST.owner}/${upload}/736x.jpg"`);
  });

  it("is found among the idea pins of search", async () => {
    const found = await call(stranger, "BaseSearchResource", "get", { query: "blood orange tart", scope: "idea_pins" });
    expect(found.status).toBe(200);
    expect(JSON.stringify(found.data)).toContain(published.pin!.id);
  });
});

describe("a story draft that cannot publish", () => {
  it.each([
    ["a cover page without media", (pages: Array<Record<string, unknown>>) => [{ ...pages[0], media: null }, ...pages.slice(1)], "story.pages.0.media"],
    ["a mention without its person", (pages: Array<Record<string, unknown>>) => [...pages, { id: "p4", blocks: [{ id: "m1", type: "mention_sticker" }] }], "story.pages.1.blocks.0.userId"],
  ])("refuses %s with a 400 naming the field, changing nothing", async (_, change, field) => {
    const upload = await storyUploadOf(CAST.owner);
    const pages = change([{ id: "p1", media: storyMedia(upload), blocks: [{ id: "h1", type: "heading", text: "Unfinished" }] }]);
    const draft = await ok<StoryDraftAnswer>(owner, "StoryPinDraftsResource", "create", { boardId: String(CAST_BOARDS.public), story: { pages } });
    const before = await footprint(CAST.owner);
    const answer = await call(owner, "PinResource", "create", { draft_id: draft.id });
    expect(answer.status).toBe(400);
    expect(answer.error?.message_detail).toContain(`${field}:`);
    expect(await footprint(CAST.owner)).toEqual(before);
  });

  it("refuses another person's story draft as missing", async () => {
    const { draft } = await threePageStory(CAST_BOARDS.public, await insertPin(freshId(), { pinner: CAST.stranger, kind: "product" }));
    expect((await call(stranger, "PinResource", "create", { draft_id: draft.id })).status).toBe(404);
    expect(await row("SELECT id FROM pin_drafts WHERE id = ?1", Number(draft.id))).not.toBeNull();
  });
});

describe("scheduling a story draft", () => {
  it("keeps its pages until the cron publishes it as a story pin", async () => {
    const at = new Date(Date.now() + 1.5 * 3_600_000);
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23" })
        .formatToParts(at)
        .map((part) => [part.type, part.value]),
    );
    const product = await insertPin(freshId(), { pinner: CAST.stranger, kind: "product" });
    const { draft } = await threePageStory(CAST_BOARDS.public, product, { publishOption: "schedule", timeZone: "UTC", scheduledDate: `${parts.year}-${parts.month}-${parts.day}`, scheduledTime: `${parts.hour}:${parts.minute}` });
    const scheduled = await ok<Published>(owner, "PinResource", "create", { draft_id: draft.id });
    expect(scheduled.status).toBe("scheduled");
    const reserved = (await row<{ pin_id: number; scheduled_ts: number }>("SELECT pin_id, scheduled_ts FROM scheduled_pins WHERE id = ?1", Number(scheduled.scheduled_pin!.id)))!;
    expect(await row("SELECT id FROM pins WHERE id = ?1", reserved.pin_id)).toBeNull();
    await publishDueScheduledPins(env.DB, reserved.scheduled_ts + 1);
    const pin = await row<{ kind: string; story_pin_data: string }>("SELECT kind, story_pin_data FROM pins WHERE id = ?1", reserved.pin_id);
    expect(pin!.kind).toBe("story");
    expect((JSON.parse(pin!.story_pin_data) as { pages: unknown[] }).pages).toHaveLength(3);
  });
});
