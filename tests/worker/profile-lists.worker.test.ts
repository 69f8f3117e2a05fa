// The profile's lists after saving and organising (spec 001 §4): an archived board leaves the
// profile's boards for everyone, its owner included (they find it in the archived list), and a
// boardless quick-save shows in its saver's saved pins, to the saver only.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { CAST, browserFor, seedCast } from "./roles-fixture.ts";
import { insertPin } from "./boards-helpers.ts";

type Feed = { resource_response: { data: { results: Array<{ id: string; name?: string }> } } };
const resource = (name: string, options: Record<string, unknown>) => `/resource/${name}/get/?data=${encodeURIComponent(JSON.stringify({ options }))}`;

describe("profile lists", () => {
  beforeAll(async () => {
    await seedCast();
    await env.DB.prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, created_at, updated_at) VALUES (2003, ?1, 'Old recipes', 'old-recipes', 'public', 0, 0)").bind(CAST.owner).run();
  });

  it("drops an archived board from the profile's boards, for its owner too", async () => {
    const owner = await browserFor("owner");
    const names = async () => ((await (await owner.fetch(resource("BoardsFeedResource", { username: "cast_owner" }))).json()) as Feed).resource_response.data.results.map((board) => board.name);
    expect(await names()).toContain("Old recipes");
    expect((await owner.resource("BoardResource", "update", { board_id: "2003", archived: true })).status).toBe(200);
    expect(await names()).not.toContain("Old recipes");
    expect(await names()).toContain("Cast corkboard");
    const stranger = await browserFor("stranger");
    expect(await (await stranger.fetch("/cast_owner/")).text()).not.toContain("Old recipes");
  });

  it("lists a quick-save in its saver's saved pins, for the saver only", async () => {
    const pinId = await insertPin(31_001, { pinner: CAST.stranger, boardId: null, title: "Quick-saved idea" });
    await env.DB.prepare("UPDATE users SET save_behavior = 1 WHERE id = ?1").bind(CAST.follower).run();
    const follower = await browserFor("follower");
    const saved = await follower.resource("RepinResource", "create", { pin_id: String(pinId) });
    expect(saved.status).toBe(200);
    const savedIds = async (who: "follower" | "stranger") =>
      ((await (await (await browserFor(who)).fetch(resource("UserPinsResource", { username: "cast_follower", feed: "saved" }))).json()) as Feed).resource_response.data.results.map((pin) => pin.id);
    expect(await savedIds("follower")).toContain(String(pinId));
    expect(await savedIds("stranger")).not.toContain(String(pinId));
  });
});
