// The stores apply each transition at once, keep the server's answer, and on a refusal put
// the state back: with a toast, except a topic follow (spec 000 §4, §8: silent revert).
import { beforeEach, describe, expect, it } from "vitest";
import { $boardFollows, $pinDidIts, $reactions, $sponsorships, $topics, $userFollows, actOnSponsorship, toggleBlock, toggleBoardFollow, toggleDidIt, toggleReaction, toggleTopic, toggleUserFollow, type Io } from "./store.ts";

function fakeIo(answer: unknown | Error): Io & { calls: unknown[][]; toasts: string[]; seen: unknown[] } {
  const io = {
    calls: [] as unknown[][],
    toasts: [] as string[],
    seen: [] as unknown[],
    send: (name: string, action: string, options: Record<string, unknown>) => {
      io.calls.push([name, action, options]);
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
    },
    notify: (message: string) => void io.toasts.push(message),
  };
  return io;
}

beforeEach(() => {
  for (const store of [$reactions, $userFollows, $boardFollows, $topics, $pinDidIts, $sponsorships]) store.set({});
});

describe("toggleReaction", () => {
  it("applies the like at once and keeps the server's counts", async () => {
    $reactions.setKey("1", { reaction_counts: [{ reaction_type: 1, count: 2 }], reaction_by_me: 0 });
    const io = fakeIo({ reaction_counts: [{ reaction_type: 1, count: 5 }], reaction_by_me: 1 });
    const pending = toggleReaction("1", 1, "failed", io);
    expect($reactions.get()["1"]).toEqual({ reaction_counts: [{ reaction_type: 1, count: 3 }], reaction_by_me: 1 });
    expect(await pending).toBe(true);
    expect($reactions.get()["1"]!.reaction_counts).toEqual([{ reaction_type: 1, count: 5 }]);
    expect(io.calls).toEqual([["PinReactionResource", "create", { pin_id: "1", reaction_type: 1 }]]);
  });
  it("a second press takes the like back (delete); a refusal reverts and toasts", async () => {
    $reactions.setKey("1", { reaction_counts: [{ reaction_type: 1, count: 1 }], reaction_by_me: 1 });
    const io = fakeIo(new Error("403"));
    expect(await toggleReaction("1", 1, "Couldn't save", io)).toBe(false);
    expect(io.calls[0]).toEqual(["PinReactionResource", "delete", { pin_id: "1" }]);
    expect($reactions.get()["1"]).toEqual({ reaction_counts: [{ reaction_type: 1, count: 1 }], reaction_by_me: 1 });
    expect(io.toasts).toEqual(["Couldn't save"]);
  });
});

describe("toggleTopic: optimistic, silent revert", () => {
  it("a failed follow puts is_followed back with no toast", async () => {
    const io = fakeIo(new Error("offline"));
    const pending = toggleTopic("4", io);
    expect($topics.get()["4"]!.is_followed).toBe(true);
    expect(await pending).toBe(false);
    expect($topics.get()["4"]).toEqual({ id: "4", is_followed: false });
    expect(io.toasts).toEqual([]);
    expect(io.calls[0]).toEqual(["InterestFollowResource", "create", { interest_id: "4", interest_list: "favorited" }]);
  });
});

describe("follows, blocks, did-it and sponsorship", () => {
  it("follow then block: block clears following", async () => {
    await toggleUserFollow("7", "x", fakeIo({ explicitly_followed_by_me: true, follower_count: 1 }));
    expect($userFollows.get()["7"]).toEqual({ explicitly_followed_by_me: true, follower_count: 1, blocked_by_me: false });
    await toggleBlock("7", "x", fakeIo({ blocked_by_me: true }));
    expect($userFollows.get()["7"]).toEqual({ explicitly_followed_by_me: false, follower_count: 0, blocked_by_me: true });
  });
  it("board follow refused: reverted with a toast", async () => {
    $boardFollows.setKey("9", { followed_by_me: false, follower_count: 3 });
    const io = fakeIo(new Error("403"));
    await toggleBoardFollow("9", "nope", io);
    expect($boardFollows.get()["9"]).toEqual({ followed_by_me: false, follower_count: 3 });
    expect(io.toasts).toEqual(["nope"]);
  });
  it("did-it keeps the server's did-it id", async () => {
    await toggleDidIt("5", "x", fakeIo({ pin_id: "5", done_by_me: true, images_count: 8, did_it_id: "33" }));
    expect($pinDidIts.get()["5"]).toEqual({ done_by_me: true, images_count: 8, did_it_id: "33" });
  });
  it("declining clears the sponsor at once", async () => {
    const person = (id: string) => ({ id, username: `u${id}`, full_name: "", image_medium_url: null });
    $sponsorships.setKey("2", { creator: person("3"), sponsor: person("2"), status: 0 });
    const pending = actOnSponsorship("2", "decline", "x", fakeIo({ sponsorship: { creator: person("3"), sponsor: null, status: 2 } }));
    expect($sponsorships.get()["2"]).toEqual({ creator: person("3"), sponsor: null, status: 2 });
    await pending;
    expect($sponsorships.get()["2"]!.status).toBe(2);
  });
});
