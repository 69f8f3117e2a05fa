// Spec 001 §4 "Reactions, follows and did-it" and "Board"; spec 000 §4 "Topic follow", §8.
import { describe, expect, it } from "vitest";
import {
  applyOwnerFollow,
  boardFollowReducer,
  topicReducer,
  userFollowReducer,
  type BoardFollowEvent,
  type BoardFollowState,
  type UserFollowEvent,
  type UserFollowState,
} from "./follows.ts";

const user = (followed: boolean, count: number, blocked = false): UserFollowState => ({ explicitly_followed_by_me: followed, follower_count: count, blocked_by_me: blocked });

describe("userFollowReducer", () => {
  it.each<[string, UserFollowState, UserFollowEvent, UserFollowState]>([
    ["follow sets explicitly_followed_by_me and adds 1", user(false, 10), { type: "follow" }, user(true, 11)],
    ["unfollow clears it and subtracts 1", user(true, 11), { type: "unfollow" }, user(false, 10)],
    ["unfollow never takes the count below 0", user(true, 0), { type: "unfollow" }, user(false, 0)],
    ["following twice counts once", user(true, 11), { type: "follow" }, user(true, 11)],
    ["unfollowing someone not followed changes nothing", user(false, 3), { type: "unfollow" }, user(false, 3)],
    ["block sets blocked_by_me and clears following (count -1)", user(true, 11), { type: "block" }, user(false, 10, true)],
    ["block without a follow keeps the count", user(false, 4), { type: "block" }, user(false, 4, true)],
    ["a blocked person cannot be followed", user(false, 4, true), { type: "follow" }, user(false, 4, true)],
    ["unblock clears blocked_by_me and does not follow again", user(false, 4, true), { type: "unblock" }, user(false, 4)],
  ])("%s", (_, before, event, after) => {
    expect(userFollowReducer(before, event)).toEqual(after);
  });
});

describe("boardFollowReducer", () => {
  it.each<[string, BoardFollowState, BoardFollowEvent, BoardFollowState]>([
    ["follow sets followed_by_me and adds 1", { followed_by_me: false, follower_count: 2 }, { type: "follow" }, { followed_by_me: true, follower_count: 3 }],
    ["unfollow clears it and subtracts 1", { followed_by_me: true, follower_count: 3 }, { type: "unfollow" }, { followed_by_me: false, follower_count: 2 }],
    ["the count never falls below 0", { followed_by_me: true, follower_count: 0 }, { type: "unfollow" }, { followed_by_me: false, follower_count: 0 }],
    ["following twice counts once", { followed_by_me: true, follower_count: 3 }, { type: "follow" }, { followed_by_me: true, follower_count: 3 }],
  ])("%s", (_, before, event, after) => {
    expect(boardFollowReducer(before, event)).toEqual(after);
  });
});

describe("applyOwnerFollow: following a user sets followed_by_me on the boards that user owns", () => {
  const boards = [
    { id: "1", owner_id: "7", followed_by_me: false },
    { id: "2", owner_id: "7", followed_by_me: false },
    { id: "3", owner_id: "8", followed_by_me: false },
  ];
  it("follow marks only the owner's boards", () => {
    expect(applyOwnerFollow(boards, "7", true).map((b) => b.followed_by_me)).toEqual([true, true, false]);
  });
  it("block (or unfollow) clears them, keeping boards followed on their own", () => {
    const followed = applyOwnerFollow(boards, "7", true);
    expect(applyOwnerFollow(followed, "7", false, new Set(["2"])).map((b) => b.followed_by_me)).toEqual([false, true, false]);
  });
});

describe("topicReducer: optimistic, silent revert", () => {
  it.each([
    ["follow sets is_followed", { id: "4", is_followed: false }, { type: "follow" } as const, { id: "4", is_followed: true }],
    ["unfollow clears it", { id: "4", is_followed: true }, { type: "unfollow" } as const, { id: "4", is_followed: false }],
    ["a failed call puts back the state from before", { id: "4", is_followed: true }, { type: "revert", previous: { id: "4", is_followed: false } } as const, { id: "4", is_followed: false }],
  ])("%s", (_, before, event, after) => {
    expect(topicReducer(before, event)).toEqual(after);
  });
});
