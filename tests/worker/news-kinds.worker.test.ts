// The news a join request, a tried-it post and a bulk copy record: each in the act's own batch,
// told once to the person it concerns (the board's owner, the pin's pinner, each copied pin's
// pinner), obeying their settings, and shown only while it still holds.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { CAST, browserFor, freshId, seedCast } from "./roles-fixture.ts";
import type { Browser } from "./accounts-helpers.ts";
import { freshCastBoard, ok } from "./boards-helpers.ts";

vi.setConfig({ testTimeout: 30_000 });

interface Item {
  type: string;
  text: string;
  url: string | null;
}

let owner: Browser;
let stranger: Browser;
let follower: Browser;

beforeAll(async () => {
  await seedCast();
  [owner, stranger, follower] = await Promise.all([browserFor("owner"), browserFor("stranger"), browserFor("follower")]);
});

const ownersNews = async (kind: string) => (await ok<{ results: Item[] }>(owner, "NewsHubDetailsResource", "get", {})).results.filter((item) => item.type === kind).map((item) => [item.text, item.url]);

describe("a request to join a board", () => {
  it("tells the board's owner once, and leaves their news when it is no longer pending", async () => {
    const { boardId } = await freshCastBoard(false);
    await ok(stranger, "BoardCollaboratorResource", "create", { board_id: String(boardId), request: true });
    await ok(stranger, "BoardCollaboratorResource", "create", { board_id: String(boardId), request: true });
    expect(await ownersNews("join_request")).toEqual([[`cast_stranger asked to join your board Board ${boardId}`, `/cast_owner/board-${boardId}/`]]);
    await env.DB.prepare("DELETE FROM board_collaborators WHERE board_id = ?1 AND user_id = ?2").bind(boardId, CAST.stranger).run();
    expect(await ownersNews("join_request")).toEqual([]);
  });
});

describe("a tried-it post", () => {
  it("tells the pin's pinner of a new post once (a rewrite tells no one again), unless they turned comment news off", async () => {
    const { pins } = await freshCastBoard(false);
    await ok(follower, "DidItActivityResource", "create", { pin_id: String(pins[0]), details: "Made it for Sunday lunch" });
    await ok(follower, "DidItActivityResource", "create", { pin_id: String(pins[0]), details: "And again, with pears" });
    expect(await ownersNews("did_it")).toEqual([["cast_follower tried your pin", `/pin/${pins[0]}/`]]);

    await env.DB.prepare("UPDATE users SET settings = ?2 WHERE id = ?1").bind(CAST.owner, JSON.stringify({ news: { comments: false } })).run();
    await ok(follower, "DidItActivityResource", "create", { pin_id: String(pins[1]), details: "Too sweet for me" });
    await env.DB.prepare("UPDATE users SET settings = '{}' WHERE id = ?1").bind(CAST.owner).run();
    expect(await ownersNews("did_it")).toHaveLength(1);
  });
});

describe("a bulk copy of pins to a board", () => {
  it("tells each pinner whose pins were copied once, naming the board", async () => {
    const { boardId, pins } = await freshCastBoard(false);
    const target = freshId();
    await env.DB.prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, created_at, updated_at) VALUES (?1, ?2, 'Copied finds', ?3, 'public', 0, 0)").bind(target, CAST.stranger, `copied-${target}`).run();
    const answer = await ok<{ copied: number }>(stranger, "BoardBulkResource", "update", { board_id: String(boardId), action: "bulkCopy", pin_ids: pins.map(String), target_board_id: String(target) });
    expect(answer.copied).toBe(2);
    expect(await ownersNews("board_copy")).toEqual([["cast_stranger saved your pins to Copied finds", `/cast_stranger/copied-${target}/`]]);
    const stored = await env.DB.prepare("SELECT count(*) AS n FROM news_items WHERE user_id = ?1 AND kind = 'board_copy'").bind(CAST.owner).first<{ n: number }>();
    expect(stored?.n).toBe(1);
  });
});
