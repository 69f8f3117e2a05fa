// Social calls (spec 001 §3, §4, §6; spec 000 §4, §7, §8): follows, blocks, reactions,
// did-its, topics, sponsorships and collaborators; bad input, exact counts, blocks, and the
// topic events.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { boardFollowState } from "~/social/follows.server.ts";
import { Browser } from "./accounts-helpers.ts";
import { countElements } from "./fixtures.ts";
import { CAST, CAST_BOARDS, seedCast } from "./roles-fixture.ts";
import { BOB_BOARD, PEOPLE, PINS, TOPICS, browserAs, call, scalar, seedSocial } from "./social-fixture.ts";

beforeAll(async () => {
  await seedCast();
  await seedSocial();
});

const followerCount = (id: number) => scalar("SELECT follower_count FROM users WHERE id = ?1", id);
const followingCount = (id: number) => scalar("SELECT following_count FROM users WHERE id = ?1", id);

describe("UserFollowResource", () => {
  it("follows once, counts once, and unfollows back to zero, never below", async () => {
    const alice = await browserAs(PEOPLE.alice);
    const first = await call(alice, "UserFollowResource", "create", { user_id: String(PEOPLE.bob) });
    expect(first.status).toBe(200);
    expect(first.body.resource_response.data).toEqual({ user_id: String(PEOPLE.bob), explicitly_followed_by_me: true, follower_count: 1 });
    expect((await call(alice, "UserFollowResource", "create", { user_id: String(PEOPLE.bob) })).body.resource_response.data.follower_count).toBe(1);
    expect(await followingCount(PEOPLE.alice)).toBe(1);
    const off = await call(alice, "UserFollowResource", "delete", { user_id: String(PEOPLE.bob) });
    expect(off.body.resource_response.data).toEqual({ user_id: String(PEOPLE.bob), explicitly_followed_by_me: false, follower_count: 0 });
    expect((await call(alice, "UserFollowResource", "delete", { user_id: String(PEOPLE.bob) })).body.resource_response.data.follower_count).toBe(0);
    expect(await followingCount(PEOPLE.alice)).toBe(0);
  });

  it("sets followed_by_me on the followed person's boards (computed on read)", async () => {
    const carol = await browserAs(PEOPLE.carol);
    expect((await boardFollowState(env.DB, PEOPLE.carol, BOB_BOARD))?.followed).toBe(false);
    await call(carol, "UserFollowResource", "create", { user_id: String(PEOPLE.bob) });
    expect(await boardFollowState(env.DB, PEOPLE.carol, BOB_BOARD)).toEqual({ followed: true, explicit: false, followerCount: 0 });
    await call(carol, "UserFollowResource", "delete", { user_id: String(PEOPLE.bob) });
    expect((await boardFollowState(env.DB, PEOPLE.carol, BOB_BOARD))?.followed).toBe(false);
  });

  it.each([
    ["yourself", () => String(PEOPLE.alice), 400, /^user_id: /],
    ["an unknown user", () => "999999", 404, null],
    ["a private profile", () => String(PEOPLE.hidden), 404, null],
    ["a limited-login account", () => String(PEOPLE.limited), 404, null],
    ["a malformed id", () => "12a", 400, /^options\.user_id: /],
    ["a number instead of a string", () => 302, 400, /^options\.user_id: /],
  ])("refuses %s, changing nothing", async (_, id, status, detail) => {
    const alice = await browserAs(PEOPLE.alice);
    const before = await followingCount(PEOPLE.alice);
    const answer = await call(alice, "UserFollowResource", "create", { user_id: id() });
    expect(answer.status).toBe(status);
    if (detail) expect(answer.body.resource_response.error?.message_detail).toMatch(detail);
    expect(await followingCount(PEOPLE.alice)).toBe(before);
  });

  it("asks a signed-out visitor to log in", async () => {
    expect((await call(new Browser(), "UserFollowResource", "create", { user_id: String(PEOPLE.bob) })).status).toBe(401);
  });
});

describe("UserBlockResource", () => {
  it("clears follows both ways (people and their boards) with exact counts, then refuses new follows either way until unblocked", async () => {
    const dave = await browserAs(PEOPLE.dave);
    const bob = await browserAs(PEOPLE.bob);
    await call(dave, "UserFollowResource", "create", { user_id: String(PEOPLE.bob) });
    await call(bob, "UserFollowResource", "create", { user_id: String(PEOPLE.dave) });
    await call(dave, "BoardFollowResource", "create", { board_id: String(BOB_BOARD) });
    const bobFollowers = (await followerCount(PEOPLE.bob))!;
    const boardFollowers = (await scalar<number>("SELECT follower_count FROM boards WHERE id = ?1", BOB_BOARD))!;

    const blocked = await call(dave, "UserBlockResource", "create", { user_id: String(PEOPLE.bob) });
    expect(blocked.status).toBe(200);
    expect(blocked.body.resource_response.data).toEqual({ user_id: String(PEOPLE.bob), blocked_by_me: true });
    expect(await scalar("SELECT count(*) FROM follows WHERE (follower_id = ?1 AND target_id IN (?2, ?3)) OR (follower_id = ?2 AND target_id = ?1)", PEOPLE.dave, PEOPLE.bob, BOB_BOARD)).toBe(0);
    expect(await followerCount(PEOPLE.bob)).toBe(bobFollowers - 1);
    expect(await followerCount(PEOPLE.dave)).toBe(0);
    expect(await followingCount(PEOPLE.dave)).toBe(0);
    expect(await scalar("SELECT follower_count FROM boards WHERE id = ?1", BOB_BOARD)).toBe(boardFollowers - 1);

    for (const [browser, id] of [[dave, PEOPLE.bob], [bob, PEOPLE.dave]] as const) {
      const refused = await call(browser, "UserFollowResource", "create", { user_id: String(id) });
      expect(refused.status).toBe(403);
      expect(refused.body.resource_response.error?.api_error_code).toBe(3);
    }
    expect((await call(dave, "BoardFollowResource", "create", { board_id: String(BOB_BOARD) })).status).toBe(403);
    expect(await followerCount(PEOPLE.bob)).toBe(bobFollowers - 1);

    // Blocking twice changes nothing; unblocking lets a follow through again.
    expect((await call(dave, "UserBlockResource", "create", { user_id: String(PEOPLE.bob) })).status).toBe(200);
    const lifted = await call(dave, "UserBlockResource", "delete", { user_id: String(PEOPLE.bob) });
    expect(lifted.body.resource_response.data).toEqual({ user_id: String(PEOPLE.bob), blocked_by_me: false });
    expect((await call(dave, "UserFollowResource", "create", { user_id: String(PEOPLE.bob) })).body.resource_response.data.follower_count).toBe(bobFollowers);
    await call(dave, "UserFollowResource", "delete", { user_id: String(PEOPLE.bob) });
  });

  it("refuses to block yourself (400) and an unknown user (404)", async () => {
    const dave = await browserAs(PEOPLE.dave);
    expect((await call(dave, "UserBlockResource", "create", { user_id: String(PEOPLE.dave) })).status).toBe(400);
    expect((await call(dave, "UserBlockResource", "create", { user_id: "424242" })).status).toBe(404);
  });
});

describe("BoardFollowResource", () => {
  it("follows a public board once and unfollows it, counts exact", async () => {
    const stranger = await browserAs(CAST.stranger);
    const on = await call(stranger, "BoardFollowResource", "create", { board_id: String(CAST_BOARDS.public) });
    expect(on.body.resource_response.data).toEqual({ board_id: String(CAST_BOARDS.public), followed_by_me: true, explicitly_followed_by_me: true, follower_count: 1 });
    expect((await call(stranger, "BoardFollowResource", "create", { board_id: String(CAST_BOARDS.public) })).body.resource_response.data.follower_count).toBe(1);
    const off = await call(stranger, "BoardFollowResource", "delete", { board_id: String(CAST_BOARDS.public) });
    expect(off.body.resource_response.data).toEqual({ board_id: String(CAST_BOARDS.public), followed_by_me: false, explicitly_followed_by_me: false, follower_count: 0 });
    expect((await call(stranger, "BoardFollowResource", "delete", { board_id: String(CAST_BOARDS.public) })).body.resource_response.data.follower_count).toBe(0);
  });

  it("a board followed through its owner stays followed_by_me, while its own follow comes and goes", async () => {
    const carol = await browserAs(PEOPLE.carol);
    await call(carol, "UserFollowResource", "create", { user_id: String(PEOPLE.bob) });
    const on = await call(carol, "BoardFollowResource", "create", { board_id: String(BOB_BOARD) });
    expect(on.body.resource_response.data).toMatchObject({ followed_by_me: true, explicitly_followed_by_me: true });
    const off = await call(carol, "BoardFollowResource", "delete", { board_id: String(BOB_BOARD) });
    expect(off.body.resource_response.data).toMatchObject({ followed_by_me: true, explicitly_followed_by_me: false });
    await call(carol, "UserFollowResource", "delete", { user_id: String(PEOPLE.bob) });
  });

  it("answers a secret board with 404, the owner with 403, an unknown board with 404", async () => {
    expect((await call(await browserAs(CAST.stranger), "BoardFollowResource", "create", { board_id: String(CAST_BOARDS.secret) })).status).toBe(404);
    expect((await call(await browserAs(CAST.owner), "BoardFollowResource", "create", { board_id: String(CAST_BOARDS.public) })).status).toBe(403);
    expect((await call(await browserAs(CAST.stranger), "BoardFollowResource", "create", { board_id: "888888" })).status).toBe(404);
    expect(await scalar("SELECT follower_count FROM boards WHERE id = ?1", CAST_BOARDS.secret)).toBe(0);
  });
});

describe("InterestFollowResource (spec 000 §7)", () => {
  it("follows with an interest list and logs event 601; unfollows and logs 602", async () => {
    const alice = await browserAs(PEOPLE.alice);
    const on = await call(alice, "InterestFollowResource", "create", { interest_id: String(TOPICS.food), interest_list: "favorited" });
    expect(on.status).toBe(200);
    expect(on.body.resource_response.data).toEqual({ interest_id: String(TOPICS.food), is_followed: true });
    expect(await scalar("SELECT count(*) FROM follows WHERE follower_id = ?1 AND target_type = 'interest' AND target_id = ?2", PEOPLE.alice, TOPICS.food)).toBe(1);
    const follow = await env.DB.prepare("SELECT object_id_str, user_id, aux_data FROM events WHERE event_type = 601").first<{ object_id_str: string; user_id: number; aux_data: string }>();
    expect(follow).toEqual({ object_id_str: String(TOPICS.food), user_id: PEOPLE.alice, aux_data: JSON.stringify({ interest_list: "favorited" }) });

    const off = await call(alice, "InterestFollowResource", "delete", { interest_id: String(TOPICS.food) });
    expect(off.body.resource_response.data).toEqual({ interest_id: String(TOPICS.food), is_followed: false });
    expect(await scalar("SELECT count(*) FROM follows WHERE follower_id = ?1 AND target_type = 'interest'", PEOPLE.alice)).toBe(0);
    expect(await scalar("SELECT count(*) FROM events WHERE event_type = 602 AND user_id = ?1 AND object_id_str = ?2", PEOPLE.alice, String(TOPICS.food))).toBe(1);
  });

  it.each([
    ["an unknown topic", { interest_id: "777" }, 404],
    ["a malformed interest list", { interest_id: String(TOPICS.food), interest_list: "Not A List!" }, 400],
    ["an unknown option", { interest_id: String(TOPICS.food), color: "red" }, 400],
  ])("refuses %s and logs nothing", async (_, options, status) => {
    const before = await scalar("SELECT count(*) FROM events");
    expect((await call(await browserAs(PEOPLE.alice), "InterestFollowResource", "create", options)).status).toBe(status);
    expect(await scalar("SELECT count(*) FROM events")).toBe(before);
  });

  it("asks a signed-out visitor to log in", async () => {
    expect((await call(new Browser(), "InterestFollowResource", "create", { interest_id: String(TOPICS.food) })).status).toBe(401);
  });
});

type Reactions = { pin_id: string; reaction_counts: Array<{ reaction_type: number; count: number }>; reaction_by_me: number };

describe("PinReactionResource and ReactionsResource", () => {
  it("counts per type, floor 0, zero rows deleted, reaction_by_me the type or 0", async () => {
    const alice = await browserAs(PEOPLE.alice);
    const carol = await browserAs(PEOPLE.carol);
    const pin = String(PINS.public);
    const like = await call<Reactions>(alice, "PinReactionResource", "create", { pin_id: pin, reaction_type: 1 });
    expect(like.body.resource_response.data).toEqual({ pin_id: pin, reaction_counts: [{ reaction_type: 1, count: 1 }], reaction_by_me: 1 });
    expect((await call<Reactions>(alice, "PinReactionResource", "create", { pin_id: pin, reaction_type: 1 })).body.resource_response.data.reaction_counts).toEqual([{ reaction_type: 1, count: 1 }]);
    expect((await call<Reactions>(carol, "PinReactionResource", "create", { pin_id: pin, reaction_type: 1 })).body.resource_response.data.reaction_counts).toEqual([{ reaction_type: 1, count: 2 }]);
    const changed = await call<Reactions>(alice, "PinReactionResource", "create", { pin_id: pin, reaction_type: 5 });
    expect(changed.body.resource_response.data).toEqual({ pin_id: pin, reaction_counts: [{ reaction_type: 1, count: 1 }, { reaction_type: 5, count: 1 }], reaction_by_me: 5 });
    const undone = await call<Reactions>(alice, "PinReactionResource", "delete", { pin_id: pin });
    expect(undone.body.resource_response.data).toEqual({ pin_id: pin, reaction_counts: [{ reaction_type: 1, count: 1 }], reaction_by_me: 0 });
    expect((await call<Reactions>(alice, "PinReactionResource", "delete", { pin_id: pin })).body.resource_response.data.reaction_counts).toEqual([{ reaction_type: 1, count: 1 }]);
    expect(await scalar("SELECT count(*) FROM pin_reaction_counts WHERE pin_id = ?1 AND reaction_type = 5", PINS.public)).toBe(0);

    const list = await call<{ results: Array<{ id: string; reaction_type: number; user: { username: string } }>; bookmark: string | null }>(alice, "ReactionsResource", "get", { pin_id: pin });
    expect(list.body.resource_response.data.results.map((r) => [r.user.username, r.reaction_type, r.id])).toEqual([["carol", 1, `${pin}-${PEOPLE.carol}-1`]]);
    expect(list.body.resource_response.data.bookmark).toBeNull();
    await call(carol, "PinReactionResource", "delete", { pin_id: pin });
    expect(await scalar("SELECT count(*) FROM pin_reaction_counts WHERE pin_id = ?1", PINS.public)).toBe(0);
  });

  it("reacts to a pin without a board", async () => {
    const answer = await call<Reactions>(await browserAs(PEOPLE.alice), "PinReactionResource", "create", { pin_id: String(PINS.boardless), reaction_type: 1 });
    expect(answer.body.resource_response.data.reaction_by_me).toBe(1);
  });

  it.each([
    ["type 0", { pin_id: String(PINS.public), reaction_type: 0 }, 400],
    ["type 21", { pin_id: String(PINS.public), reaction_type: 21 }, 400],
    ["a fractional type", { pin_id: String(PINS.public), reaction_type: 1.5 }, 400],
    ["no pin", { reaction_type: 1 }, 400],
    ["a pin on a secret board", { pin_id: String(PINS.secret), reaction_type: 1 }, 404],
    ["a deleted pin", { pin_id: String(PINS.deleted), reaction_type: 1 }, 404],
    ["an unknown pin", { pin_id: "5555555", reaction_type: 1 }, 404],
  ])("refuses %s, changing nothing", async (_, options, status) => {
    const before = await scalar("SELECT count(*) FROM reactions");
    expect((await call(await browserAs(CAST.stranger), "PinReactionResource", "create", options)).status).toBe(status);
    expect(await scalar("SELECT count(*) FROM reactions")).toBe(before);
  });

  it("lists nothing for a pin the viewer cannot see (404) and refuses a bad bookmark (400)", async () => {
    expect((await call(await browserAs(CAST.stranger), "ReactionsResource", "get", { pin_id: String(PINS.secret) })).status).toBe(404);
    expect((await call(new Browser(), "ReactionsResource", "get", { pin_id: String(PINS.public), bookmark: "x" })).status).toBe(400);
  });
});

type DidIt = { pin_id: string; done_by_me: boolean; images_count: number; did_it_id: string | null };
type DidItData = { id: string; like_count: number; liked_by_me: boolean; helpful_count: number; marked_helpful_by_me: boolean; comment_count: number };

describe("DidItResource, DidItLikeResource, DidItHelpfulResource", () => {
  it("toggles done_by_me with images_count ±1 and like/helpful counts by one", async () => {
    const alice = await browserAs(PEOPLE.alice);
    const carol = await browserAs(PEOPLE.carol);
    const pin = String(PINS.plain);
    const done = await call<DidIt>(alice, "DidItResource", "create", { pin_id: pin });
    expect(done.body.resource_response.data).toMatchObject({ pin_id: pin, done_by_me: true, images_count: 1 });
    const didItId = done.body.resource_response.data.did_it_id!;
    expect(didItId).toMatch(/^\d+$/);
    expect((await call<DidIt>(alice, "DidItResource", "create", { pin_id: pin })).body.resource_response.data.images_count).toBe(1);

    const liked = await call<DidItData>(carol, "DidItLikeResource", "create", { did_it_id: didItId });
    expect(liked.body.resource_response.data).toEqual({ id: didItId, comment_count: 0, like_count: 1, liked_by_me: true, helpful_count: 0, marked_helpful_by_me: false });
    expect((await call<DidItData>(carol, "DidItLikeResource", "create", { did_it_id: didItId })).body.resource_response.data.like_count).toBe(1);
    const helpful = await call<DidItData>(carol, "DidItHelpfulResource", "create", { did_it_id: didItId });
    expect(helpful.body.resource_response.data).toMatchObject({ helpful_count: 1, marked_helpful_by_me: true, like_count: 1 });
    expect((await call<DidItData>(carol, "DidItLikeResource", "delete", { did_it_id: didItId })).body.resource_response.data).toMatchObject({ like_count: 0, liked_by_me: false, helpful_count: 1 });
    expect((await call<DidItData>(carol, "DidItLikeResource", "delete", { did_it_id: didItId })).body.resource_response.data.like_count).toBe(0);
    expect((await call<DidItData>(carol, "DidItHelpfulResource", "delete", { did_it_id: didItId })).body.resource_response.data.helpful_count).toBe(0);

    const undone = await call<DidIt>(alice, "DidItResource", "delete", { pin_id: pin });
    expect(undone.body.resource_response.data).toEqual({ pin_id: pin, done_by_me: false, images_count: 0, did_it_id: null });
    expect((await call<DidIt>(alice, "DidItResource", "delete", { pin_id: pin })).body.resource_response.data.images_count).toBe(0);
    expect(await scalar("SELECT did_it_images_count FROM pins WHERE id = ?1", PINS.plain)).toBe(0);
    expect((await call(carol, "DidItLikeResource", "create", { did_it_id: didItId })).status).toBe(404);
  });

  it("hides did-its on pins the viewer cannot see (404) and refuses bad ids (400)", async () => {
    const owner = await browserAs(CAST.owner);
    const done = await call<DidIt>(owner, "DidItResource", "create", { pin_id: String(PINS.secret) });
    expect(done.status).toBe(200);
    const stranger = await browserAs(CAST.stranger);
    expect((await call(stranger, "DidItResource", "create", { pin_id: String(PINS.secret) })).status).toBe(404);
    expect((await call(stranger, "DidItLikeResource", "create", { did_it_id: done.body.resource_response.data.did_it_id })).status).toBe(404);
    expect((await call(stranger, "DidItHelpfulResource", "create", { did_it_id: "-1" })).status).toBe(400);
    expect(await scalar("SELECT like_count FROM did_its WHERE pin_id = ?1", PINS.secret)).toBe(0);
  });
});

type Sponsorship = { pin_id: string; sponsorship: { creator: { id: string }; sponsor: { id: string } | null; status: number } | null };

describe("SponsorshipResource (spec 001 §4 Pin sponsorship)", () => {
  it("approve keeps the sponsor (1), decline clears it (2), and then only the creator may act; delete_creator removes it", async () => {
    const creator = await browserAs(CAST.owner);
    const sponsor = await browserAs(CAST.collaborator_write);
    const pin = String(PINS.sponsored);
    const approved = await call<Sponsorship>(sponsor, "SponsorshipResource", "update", { pin_id: pin, action: "approve" });
    expect(approved.body.resource_response.data.sponsorship).toMatchObject({ creator: { id: String(CAST.owner) }, sponsor: { id: String(CAST.collaborator_write) }, status: 1 });
    const declined = await call<Sponsorship>(sponsor, "SponsorshipResource", "update", { pin_id: pin, action: "decline" });
    expect(declined.body.resource_response.data.sponsorship).toMatchObject({ sponsor: null, status: 2 });
    expect((await call(sponsor, "SponsorshipResource", "update", { pin_id: pin, action: "approve" })).status).toBe(403);
    const removed = await call<Sponsorship>(creator, "SponsorshipResource", "update", { pin_id: pin, action: "delete_creator" });
    expect(removed.body.resource_response.data).toEqual({ pin_id: pin, sponsorship: null });
    expect(await scalar("SELECT sponsorship FROM pins WHERE id = ?1", PINS.sponsored)).toBeNull();
    expect((await call(creator, "SponsorshipResource", "update", { pin_id: pin, action: "approve" })).status).toBe(404);
  });

  it("refuses an unknown action (400) and a pin the viewer cannot see (404)", async () => {
    expect((await call(await browserAs(CAST.owner), "SponsorshipResource", "update", { pin_id: String(PINS.public), action: "promote" })).status).toBe(400);
    expect((await call(await browserAs(CAST.stranger), "SponsorshipResource", "update", { pin_id: String(PINS.secret), action: "approve" })).status).toBe(404);
  });
});

type Change = { board_id: string; user_id: string; status: string; collaborator_count: number; is_collaborative: boolean };
const collaboratorCount = (board: number) => scalar("SELECT collaborator_count FROM boards WHERE id = ?1", board);

describe("BoardCollaboratorResource and BoardCollaboratorsResource (spec 001 §4 Collaborator invite status)", () => {
  it("invites (status new, access write,delete), skipping anyone not not_invited, unknown users and the owner", async () => {
    const owner = await browserAs(CAST.owner);
    const ids = [PEOPLE.alice, PEOPLE.bob, CAST.collaborator_write, 999999, CAST.owner, PEOPLE.alice].map(String);
    const answer = await call<{ invited: string[]; skipped: string[] }>(owner, "BoardCollaboratorResource", "create", { board_id: String(CAST_BOARDS.public), user_ids: ids });
    expect(answer.body.resource_response.data).toEqual({ invited: [String(PEOPLE.alice), String(PEOPLE.bob)], skipped: [String(CAST.collaborator_write), "999999", String(CAST.owner)] });
    const row = await env.DB.prepare("SELECT status, access, type, invited_by FROM board_collaborators WHERE board_id = ?1 AND user_id = ?2").bind(CAST_BOARDS.public, PEOPLE.alice).first();
    expect(row).toEqual({ status: "new", access: "write,delete", type: "invite", invited_by: CAST.owner });
    expect(await collaboratorCount(CAST_BOARDS.public)).toBe(2);
    const again = await call<{ invited: string[]; skipped: string[] }>(owner, "BoardCollaboratorResource", "create", { board_id: String(CAST_BOARDS.public), user_ids: [String(PEOPLE.alice)] });
    expect(again.body.resource_response.data).toEqual({ invited: [], skipped: [String(PEOPLE.alice)] });
  });

  it("accept is the invited person's own: accepted, collaborative, count +1; without a pending invite 404", async () => {
    const alice = await browserAs(PEOPLE.alice);
    expect((await call(alice, "BoardCollaboratorResource", "update", { board_id: String(CAST_BOARDS.public), user_id: String(PEOPLE.bob), action: "accept" })).status).toBe(400);
    const accepted = await call<Change>(alice, "BoardCollaboratorResource", "update", { board_id: String(CAST_BOARDS.public), user_id: String(PEOPLE.alice), action: "accept" });
    expect(accepted.body.resource_response.data).toEqual({ board_id: String(CAST_BOARDS.public), user_id: String(PEOPLE.alice), status: "accepted", collaborator_count: 3, is_collaborative: true });
    expect((await call(alice, "BoardCollaboratorResource", "update", { board_id: String(CAST_BOARDS.public), user_id: String(PEOPLE.alice), action: "accept" })).status).toBe(404);
    expect(await collaboratorCount(CAST_BOARDS.public)).toBe(3);
    const carol = await browserAs(PEOPLE.carol);
    expect((await call(carol, "BoardCollaboratorResource", "update", { board_id: String(CAST_BOARDS.secret), user_id: String(PEOPLE.carol), action: "accept" })).status).toBe(404);
  });

  it("an invite to a secret board can be accepted by the invitee, who then sees it", async () => {
    const owner = await browserAs(CAST.owner);
    await call(owner, "BoardCollaboratorResource", "create", { board_id: String(CAST_BOARDS.secret), user_ids: [String(PEOPLE.carol)] });
    const carol = await browserAs(PEOPLE.carol);
    const accepted = await call<Change>(carol, "BoardCollaboratorResource", "update", { board_id: String(CAST_BOARDS.secret), user_id: String(PEOPLE.carol), action: "accept" });
    expect(accepted.body.resource_response.data.status).toBe("accepted");
    expect((await call(carol, "BoardCollaboratorsResource", "get", { board_id: String(CAST_BOARDS.secret) })).status).toBe(200);
    const left = await call<Change>(carol, "BoardCollaboratorResource", "delete", { board_id: String(CAST_BOARDS.secret), user_id: String(PEOPLE.carol) });
    expect(left.body.resource_response.data).toMatchObject({ status: "not_invited", collaborator_count: 2 });
  });

  it("request to join, approve (accepted for a request, an invite stays new), deny (removed)", async () => {
    const dave = await browserAs(PEOPLE.dave);
    expect((await call(dave, "BoardCollaboratorResource", "create", { board_id: String(CAST_BOARDS.public), request: true })).body.resource_response.data).toEqual({ requested: true });
    expect((await call(dave, "BoardCollaboratorResource", "create", { board_id: String(CAST_BOARDS.public), request: true })).status).toBe(200);
    const owner = await browserAs(CAST.owner);
    const approved = await call<Change>(owner, "BoardCollaboratorResource", "update", { board_id: String(CAST_BOARDS.public), user_id: String(PEOPLE.dave), action: "approve" });
    expect(approved.body.resource_response.data).toMatchObject({ status: "accepted", collaborator_count: 4 });
    const invite = await call<Change>(owner, "BoardCollaboratorResource", "update", { board_id: String(CAST_BOARDS.public), user_id: String(PEOPLE.bob), action: "approve" });
    expect(invite.body.resource_response.data).toMatchObject({ status: "new", collaborator_count: 4 });
    const denied = await call<Change>(owner, "BoardCollaboratorResource", "update", { board_id: String(CAST_BOARDS.public), user_id: String(PEOPLE.bob), action: "deny" });
    expect(denied.body.resource_response.data).toMatchObject({ status: "not_invited", collaborator_count: 4 });
    expect((await call(owner, "BoardCollaboratorResource", "update", { board_id: String(CAST_BOARDS.public), user_id: String(PEOPLE.bob), action: "deny" })).status).toBe(404);
  });

  it("lists records for the owner and collaborators", async () => {
    const list = await call<{ results: Array<{ user: { id: string }; status: string; access: string[]; type: string; invited_by_user_id: string | null }> }>(await browserAs(CAST.collaborator_write), "BoardCollaboratorsResource", "get", { board_id: String(CAST_BOARDS.public) });
    const byId = Object.fromEntries(list.body.resource_response.data.results.map((item) => [item.user.id, item]));
    expect(byId[String(PEOPLE.alice)]).toMatchObject({ status: "accepted", access: ["write", "delete"], type: "invite", invited_by_user_id: String(CAST.owner) });
    expect(byId[String(PEOPLE.dave)]).toMatchObject({ status: "accepted", type: "request", invited_by_user_id: null });
    expect(byId[String(CAST.collaborator_write)]).toMatchObject({ access: ["write"] });
  });

  it("remove sets not_invited with count -1, never below 0", async () => {
    const owner = await browserAs(CAST.owner);
    for (const id of [PEOPLE.alice, PEOPLE.dave]) {
      const removed = await call<Change>(owner, "BoardCollaboratorResource", "delete", { board_id: String(CAST_BOARDS.public), user_id: String(id) });
      expect(removed.body.resource_response.data.status).toBe("not_invited");
    }
    expect(await collaboratorCount(CAST_BOARDS.public)).toBe(2);
    expect((await call(owner, "BoardCollaboratorResource", "delete", { board_id: String(CAST_BOARDS.public), user_id: String(PEOPLE.alice) })).status).toBe(404);
    expect(await collaboratorCount(CAST_BOARDS.public)).toBe(2);
  });

  it.each([
    ["51 users", { board_id: String(CAST_BOARDS.public), user_ids: Array.from({ length: 51 }, (_, i) => String(400 + i)) }, /^options\.user_ids: /],
    ["both user_ids and request", { board_id: String(CAST_BOARDS.public), user_ids: [String(PEOPLE.carol)], request: true }, /^user_ids: /],
    ["neither", { board_id: String(CAST_BOARDS.public) }, /^user_ids: /],
    ["request: false", { board_id: String(CAST_BOARDS.public), request: false }, /^options\.request: /],
    ["an empty list", { board_id: String(CAST_BOARDS.public), user_ids: [] }, /^options\.user_ids: /],
  ])("refuses %s with a 400 naming the field, writing nothing", async (_, options, detail) => {
    const before = await scalar("SELECT count(*) FROM board_collaborators");
    const answer = await call(await browserAs(CAST.owner), "BoardCollaboratorResource", "create", options);
    expect(answer.status).toBe(400);
    expect(answer.body.resource_response.error?.message_detail).toMatch(detail);
    expect(await scalar("SELECT count(*) FROM board_collaborators")).toBe(before);
  });
});

describe("the social islands on pages", () => {
  const page = async (path: string, browser: Browser) => (await browser.fetch(path)).text();
  const island = (name: string) => `astro-island[component-url*="${name}"]`;

  it("the close-up gives a signed-in viewer Like / I tried this and topic follows; signed out, counts only", async () => {
    const signedIn = await page(`/pin/${PINS.public}/`, await browserAs(PEOPLE.alice));
    expect(await countElements(signedIn, island("PinReactions"))).toBe(1);
    expect(await countElements(signedIn, island("TopicFollowList"))).toBe(1);
    expect(await countElements(signedIn, island("SponsorshipControls"))).toBe(0);
    const signedOut = await page(`/pin/${PINS.public}/`, new Browser());
    expect(await countElements(signedOut, island("PinReactions"))).toBe(0);
    expect(await countElements(signedOut, "[data-social-block] .social-counts")).toBe(1);
    expect(signedOut).toContain("Recipes");
  });

  it("shows sponsorship controls to the creator and the sponsor only", async () => {
    const id = 7100;
    await env.DB.prepare("INSERT INTO pins (id, pinner_id, board_id, kind, title, image_signature, sponsorship, created_at, updated_at) VALUES (?1, ?2, ?3, 'image', 'Sponsored page', 'sig', ?4, 0, 0)")
      .bind(id, CAST.owner, CAST_BOARDS.public, JSON.stringify({ creatorId: String(CAST.owner), sponsorId: String(CAST.collaborator_write), status: 0 }))
      .run();
    for (const [userId, count] of [[CAST.owner, 1], [CAST.collaborator_write, 1], [CAST.stranger, 0]] as const) {
      expect(await countElements(await page(`/pin/${id}/`, await browserAs(userId)), island("SponsorshipControls")), `user ${userId}`).toBe(count);
    }
  });

  it("a profile gives a signed-in visitor Follow and Block, nothing on their own profile, a log-in trigger signed out", async () => {
    expect(await countElements(await page("/bob/", await browserAs(PEOPLE.alice)), island("FollowUserControls"))).toBe(1);
    expect(await countElements(await page("/bob/", await browserAs(PEOPLE.bob)), island("FollowUserControls"))).toBe(0);
    const signedOut = await page("/bob/", new Browser());
    expect(await countElements(signedOut, island("FollowUserControls"))).toBe(0);
    // Named by what it shows, "Follow" (a name that differs from the visible label fails axe);
    // it opens the log-in dialog.
    expect(await countElements(signedOut, 'a[data-auth-trigger="login"][aria-haspopup="dialog"]:not([aria-label])')).toBeGreaterThanOrEqual(1);
    expect(signedOut).toMatch(/<a [^>]*data-auth-trigger="login"[^>]*>Follow<\/a>/);
  });

  it("a board page gives a visitor who may follow it the Follow button, not its owner", async () => {
    expect(await countElements(await page("/bob/bob-board/", await browserAs(PEOPLE.alice)), island("FollowBoardButton"))).toBe(1);
    expect(await countElements(await page("/bob/bob-board/", await browserAs(PEOPLE.bob)), island("FollowBoardButton"))).toBe(0);
  });
});

describe("writes purge the signed-out pages they change", () => {
  const cacheStatus = async (path: string) => (await new Browser().fetch(path)).headers.get("x-pinloom-cache");

  it.each([
    ["a follow, the followed profile", "/carol/", async () => call(await browserAs(PEOPLE.alice), "UserFollowResource", "create", { user_id: String(PEOPLE.carol) })],
    ["a reaction, the pin page", `/pin/${PINS.plain}/`, async () => call(await browserAs(PEOPLE.alice), "PinReactionResource", "create", { pin_id: String(PINS.plain), reaction_type: 1 })],
    ["a did-it, the pin page", `/pin/${PINS.plain}/`, async () => call(await browserAs(PEOPLE.bob), "DidItResource", "create", { pin_id: String(PINS.plain) })],
  ])("%s", async (_, path, write) => {
    await cacheStatus(path);
    expect(await cacheStatus(path)).toBe("HIT");
    expect((await write()).status).toBe(200);
    // The purge runs after the write answers; it lands within moments, never later.
    await expect.poll(() => cacheStatus(path), { timeout: 10_000, interval: 50 }).not.toBe("HIT");
  });
});
