// PinDraftResource and PinDraftsResource against the built Worker and real D1: defaults,
// validation that names the field and stores nothing, drafts private to their owner (404, as
// a missing one), boards chosen only where the person may save, paging, the per-person limit
// and CSRF on every change.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { CAST_BOARDS, CAST, browserFor, freshId, seedCast } from "./roles-fixture.ts";
import type { Browser } from "./accounts-helpers.ts";
import { call, ok, row, rows } from "./boards-helpers.ts";
import { SPEC_NEW_DRAFT } from "../unit/pin-draft-defaults.ts";

vi.setConfig({ testTimeout: 30_000 });

type Draft = Record<string, unknown> & { id: string; items: Array<Record<string, unknown>> };

let owner: Browser;
let stranger: Browser;
let writer: Browser;
let follower: Browser;
let signedOut: Browser;
/** A board the stranger owns and nobody else may save to, and a section on the owner's public board. */
let strangerBoard: number;
let ownerSection: number;
let strangerSection: number;

beforeAll(async () => {
  await seedCast();
  strangerBoard = freshId();
  ownerSection = freshId();
  strangerSection = freshId();
  await env.DB.batch([
    env.DB.prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, created_at, updated_at) VALUES (?1, ?2, 'Stranger things', 'stranger-things', 'public', 0, 0)").bind(strangerBoard, CAST.stranger),
    env.DB.prepare("INSERT INTO board_sections (id, board_id, title, slug, position, created_at) VALUES (?1, ?2, 'Ideas', 'ideas', 0, 0)").bind(ownerSection, CAST_BOARDS.public),
    env.DB.prepare("INSERT INTO board_sections (id, board_id, title, slug, position, created_at) VALUES (?1, ?2, 'Theirs', 'theirs', 0, 0)").bind(strangerSection, strangerBoard),
    env.DB.prepare("INSERT INTO link_domains (domain, is_blocked) VALUES ('spam-deals.example', 1), ('fair-shop.example', 0)"),
  ]);
  [owner, stranger, writer, follower, signedOut] = await Promise.all([
    browserFor("owner"),
    browserFor("stranger"),
    browserFor("collaborator_write"),
    browserFor("follower"),
    browserFor("signed_out"),
  ]);
});

const storedRow = (id: string) => row<{ draft: string; version: number; user_id: number }>("SELECT draft, version, user_id FROM pin_drafts WHERE id = ?1", Number(id));
const countOf = async (userId: number) => (await row<{ n: number }>("SELECT count(*) AS n FROM pin_drafts WHERE user_id = ?1", userId))!.n;
const image = (ref: string) => ({ type: "image", source: "uploaded", ref });

describe("PinDraftResource create", () => {
  it("stores a new draft with spec 001's defaults", async () => {
    const before = Date.now();
    const draft = await ok<Draft>(owner, "PinDraftResource", "create", {});
    expect(draft).toMatchObject(SPEC_NEW_DRAFT);
    expect(draft.id).toMatch(/^\d+$/);
    expect(draft.lastSavedTime).toBeGreaterThanOrEqual(before);
    expect(draft.lastEditedTime).toBe(draft.lastSavedTime);
    expect((await storedRow(draft.id))?.user_id).toBe(CAST.owner);
    expect(await ok<Draft>(owner, "PinDraftResource", "get", { id: draft.id })).toEqual(draft);
  });

  it("takes initial fields; two items make it a carousel with the second selected", async () => {
    const draft = await ok<Draft>(owner, "PinDraftResource", "create", {
      title: "Lemon cake",
      boardId: String(CAST_BOARDS.public),
      sectionId: String(ownerSection),
      items: [{ id: "a", media: image("up-1") }, { id: "b", media: image("up-2") }],
      pinItemIndex: 1,
    });
    expect(draft).toMatchObject({ type: "carousel", title: "Lemon cake", boardId: String(CAST_BOARDS.public), sectionId: String(ownerSection), pinItemIndex: 1 });
    expect(draft.items.map((item) => item.id)).toEqual(["a", "b"]);
  });

  it("lets a write collaborator choose the shared secret board", async () => {
    const draft = await ok<Draft>(writer, "PinDraftResource", "create", { boardId: String(CAST_BOARDS.secret) });
    expect(draft.boardId).toBe(String(CAST_BOARDS.secret));
  });

  it.each([
    ["a 101-character title", { title: "t".repeat(101) }, "title: Titles can be up to 100 characters"],
    ["a 501-character description", { description: "d".repeat(501) }, "description: Descriptions can be up to 500 characters"],
    ["a javascript: link", { websiteLink: "javascript:alert(1)" }, "websiteLink: Enter a web address that starts with http:// or https://"],
    ["a 2,049-character link", { websiteLink: `https://fair-shop.example/${"x".repeat(2049 - 26)}` }, "websiteLink: Links can be up to 2048 characters"],
    ["a link to a blocked host", { websiteLink: "https://cheap.spam-deals.example/deal" }, "websiteLink: Links to this site can't be added to Pins"],
    ["a board of someone else", { boardId: "BOARD_STRANGER" }, "boardId: Choose one of your boards or a board you collaborate on"],
    ["a board that does not exist", { boardId: "999999" }, "boardId: Choose one of your boards or a board you collaborate on"],
    ["a section of another board", { boardId: String(CAST_BOARDS.public), sectionId: "SECTION_STRANGER" }, "sectionId: Choose a section of the chosen board"],
    ["a sixth carousel item", { items: ["a", "b", "c", "d", "e", "f"].map((id) => ({ id, media: image(id) })) }, "items: You can add up to 5 images or videos"],
    ["a tag placed off the image", { items: [{ id: "a", media: image("a"), pinTagIds: ["t1"] }], pinTags: [{ id: "t1", pinTagKey: "t1", x: 1.5, y: 0.5 }] }, "pinTags.0.x: Place the tag on the image"],
    [
      "a tag linking to a blocked host",
      { items: [{ id: "a", media: image("a"), pinTagIds: ["t1"] }], pinTags: [{ id: "t1", pinTagKey: "t1", x: 0.5, y: 0.5, link: "https://cheap.spam-deals.example/deal" }] },
      "pinTags.0.link: Links to this site can't be added to Pins",
    ],
    [
      "a tag on an item whose pin has a link",
      { websiteLink: "https://fair-shop.example/", items: [{ id: "a", media: image("a"), pinTagIds: ["t1"] }], pinTags: [{ id: "t1", pinTagKey: "t1", x: 0.5, y: 0.5 }] },
      "items.0.pinTagIds: Tags need an image or an uploaded video, and no link on the Pin",
    ],
    ["a tag naming a pin by something else than its id", { pinTags: [{ id: "t1", pinTagKey: "t1", taggedObjectIds: ["pin-7"] }] }, "pinTags.0.taggedObjectIds.0"],
    ["an unknown field", { colour: "red" }, "colour"],
    ["a server-owned field", { publishingStatus: "succeeded" }, "publishingStatus"],
  ])("refuses %s with 400 naming the field, storing nothing", async (_name, options, detail) => {
    const resolved = JSON.parse(JSON.stringify(options).replace("BOARD_STRANGER", String(strangerBoard)).replace("SECTION_STRANGER", String(strangerSection))) as Record<string, unknown>;
    const before = await countOf(CAST.owner);
    const answer = await call(owner, "PinDraftResource", "create", resolved);
    expect(answer.status).toBe(400);
    expect(answer.error?.message_detail).toContain(detail);
    expect(await countOf(CAST.owner)).toBe(before);
  });

  it("gives the same answer for a secret board the person cannot see as for a missing one", async () => {
    const secret = await call(stranger, "PinDraftResource", "create", { boardId: String(CAST_BOARDS.secret) });
    const missing = await call(stranger, "PinDraftResource", "create", { boardId: "999998" });
    expect(secret.status).toBe(400);
    expect(secret.error).toEqual(missing.error);
  });

  it("does not let a follower choose the board they follow", async () => {
    expect((await call(follower, "PinDraftResource", "create", { boardId: String(CAST_BOARDS.public) })).status).toBe(400);
  });

  it("asks a signed-out visitor to log in", async () => {
    expect((await call(signedOut, "PinDraftResource", "create", {})).status).toBe(401);
    expect((await call(signedOut, "PinDraftsResource", "get", {})).status).toBe(401);
  });
});

describe("PinDraftResource update", () => {
  it("applies the change and moves lastSavedTime; new media clears the item's tags", async () => {
    const draft = await ok<Draft>(owner, "PinDraftResource", "create", {
      items: [{ id: "a", media: image("up-1"), pinTagIds: ["t1"], selectedPinTagId: "t1" }],
      pinTags: [{ id: "t1", pinTagKey: "t1", x: 0.5, y: 0.5 }],
    });
    expect(draft.items[0]).toMatchObject({ pinTagIds: ["t1"], selectedPinTagId: "t1" });
    const updated = await ok<Draft>(owner, "PinDraftResource", "update", {
      id: draft.id,
      title: "Weeknight noodles",
      websiteLink: "https://fair-shop.example/noodles",
      items: [{ id: "a", media: image("up-9"), pinTagIds: ["t1"], selectedPinTagId: "t1" }],
    });
    expect(updated).toMatchObject({ id: draft.id, title: "Weeknight noodles", websiteLink: "https://fair-shop.example/noodles", type: "single" });
    expect(updated.items[0]).toMatchObject({ media: { ref: "up-9" }, pinTagIds: [], selectedPinTagId: null });
    expect(updated.pinTags).toEqual([]);
    expect(updated.lastSavedTime as number).toBeGreaterThanOrEqual(draft.lastSavedTime as number);
    expect((await storedRow(draft.id))?.version).toBe(2);
  });

  it("removing down to one item makes a carousel single again", async () => {
    const draft = await ok<Draft>(owner, "PinDraftResource", "create", { items: [{ id: "a", media: image("1") }, { id: "b", media: image("2") }, { id: "c", media: image("3") }], pinItemIndex: 2 });
    expect(draft.type).toBe("carousel");
    const updated = await ok<Draft>(owner, "PinDraftResource", "update", { id: draft.id, items: [{ id: "a", media: image("1") }] });
    expect(updated).toMatchObject({ type: "single", pinItemIndex: 0 });
  });

  it("refuses a change with bad fields as a whole: 400 naming each, nothing applied", async () => {
    const draft = await ok<Draft>(owner, "PinDraftResource", "create", { title: "Before" });
    const stored = await storedRow(draft.id);
    const answer = await call(owner, "PinDraftResource", "update", { id: draft.id, title: "Fine title", description: "d".repeat(501), websiteLink: "ftp://files.example/x" });
    expect(answer.status).toBe(400);
    expect(answer.error?.message_detail).toBe("description: Descriptions can be up to 500 characters; websiteLink: Enter a web address that starts with http:// or https://");
    expect(await storedRow(draft.id)).toEqual(stored);
  });

  it("answers in the person's language", async () => {
    const draft = await ok<Draft>(owner, "PinDraftResource", "create", {});
    const response = await owner.fetch("/resource/PinDraftResource/update/", {
      method: "POST",
      body: JSON.stringify({ options: { id: draft.id, title: "t".repeat(101) } }),
      headers: { "content-type": "application/json", "accept-language": "fr" },
    });
    const body = await response.json<{ resource_response: { error: { message_detail: string } } }>();
    expect(response.status).toBe(400);
    expect(body.resource_response.error.message_detail).toBe("title: Les titres peuvent compter jusqu'à 100 caractères");
  });
});

describe("another person's draft", () => {
  it("is 404 for get, update and delete, exactly as a missing one, and stays unchanged", async () => {
    const draft = await ok<Draft>(owner, "PinDraftResource", "create", { title: "Mine" });
    const stored = await storedRow(draft.id);
    const missingId = "999999";
    for (const [action, options] of [
      ["get", { id: draft.id }],
      ["update", { id: draft.id, title: "Theirs now" }],
      ["delete", { id: draft.id }],
    ] as const) {
      const theirs = await call(stranger, "PinDraftResource", action, options);
      const missing = await call(stranger, "PinDraftResource", action, { ...options, id: missingId });
      expect(theirs.status, action).toBe(404);
      expect(theirs.error, action).toEqual(missing.error);
      expect(theirs.error?.message).toBe("Draft not found");
    }
    expect(await storedRow(draft.id)).toEqual(stored);
  });

  it("is never listed to anyone else", async () => {
    const mine = await ok<Draft>(owner, "PinDraftResource", "create", { title: "Only mine" });
    const theirs = await ok<{ results: Draft[] }>(stranger, "PinDraftsResource", "get", { page_size: 50 });
    expect(theirs.results.map((draft) => draft.id)).not.toContain(mine.id);
  });
});

describe("PinDraftResource delete", () => {
  it("deletes the owner's draft; a second delete is 404", async () => {
    const draft = await ok<Draft>(owner, "PinDraftResource", "create", {});
    expect(await ok(owner, "PinDraftResource", "delete", { id: draft.id })).toEqual({ id: draft.id });
    expect(await storedRow(draft.id)).toBeNull();
    expect((await call(owner, "PinDraftResource", "delete", { id: draft.id })).status).toBe(404);
  });
});

describe("PinDraftsResource and the per-person limit", () => {
  it("pages the person's drafts newest first by bookmark, each once, up to the limit of 100", async () => {
    const person = await browserFor("follower");
    const made: string[] = [];
    // Fill to the limit directly, then make the last through the API.
    const start = await countOf(CAST.follower);
    const rowsToAdd = 100 - start - 1;
    const statements = Array.from({ length: rowsToAdd }, (_, at) =>
      env.DB.prepare("INSERT INTO pin_drafts (user_id, draft, version, created_at, updated_at) VALUES (?1, ?2, 1, ?3, ?3)").bind(CAST.follower, JSON.stringify({ title: `Draft ${at}` }), 1_700_000_000_000 + at),
    );
    await env.DB.batch(statements);
    made.push((await ok<Draft>(person, "PinDraftResource", "create", { title: "The hundredth" })).id);
    expect(await countOf(CAST.follower)).toBe(100);

    const full = await call(person, "PinDraftResource", "create", {});
    expect(full.status).toBe(409);
    expect(full.error?.message).toBe("You have 100 drafts already. Publish or delete one to start another.");
    expect(await countOf(CAST.follower)).toBe(100);

    const seen: string[] = [];
    let bookmark: string | undefined;
    for (let page = 0; page < 10; page++) {
      const answer = await ok<{ results: Draft[]; bookmark: string }>(person, "PinDraftsResource", "get", bookmark ? { bookmark, page_size: 30 } : { page_size: 30 });
      seen.push(...answer.results.map((draft) => draft.id));
      if (answer.bookmark === "-end-") break;
      bookmark = answer.bookmark;
    }
    expect(seen).toHaveLength(100);
    expect(new Set(seen).size).toBe(100);
    expect(seen[0]).toBe(made[0]);
    const ids = (await rows<{ id: number }>("SELECT id FROM pin_drafts WHERE user_id = ?1 ORDER BY id DESC", CAST.follower)).map((r) => String(r.id));
    expect(seen).toEqual(ids);

    // Deleting one makes room again.
    await ok(person, "PinDraftResource", "delete", { id: made[0] });
    expect((await call(person, "PinDraftResource", "create", {})).status).toBe(200);
  });

  it("refuses a page size over 50 and a bookmark it did not write", async () => {
    expect((await call(owner, "PinDraftsResource", "get", { page_size: 51 })).status).toBe(400);
    expect((await call(owner, "PinDraftsResource", "get", { bookmark: "not-ours!" })).status).toBe(400);
  });
});

describe("CSRF", () => {
  it.each(["create", "update", "delete"] as const)("refuses %s without the CSRF token, changing nothing", async (action) => {
    const draft = await ok<Draft>(owner, "PinDraftResource", "create", { title: "Guarded" });
    const stored = await storedRow(draft.id);
    const before = await countOf(CAST.owner);
    const options = action === "create" ? {} : action === "update" ? { id: draft.id, title: "Forged" } : { id: draft.id };
    const response = await owner.fetch(`/resource/PinDraftResource/${action}/`, {
      method: "POST",
      body: JSON.stringify({ options }),
      headers: { "content-type": "application/json", "x-csrftoken": "d".repeat(64) },
    });
    expect(response.status).toBe(403);
    expect(await countOf(CAST.owner)).toBe(before);
    expect(await storedRow(draft.id)).toEqual(stored);
  });
});
