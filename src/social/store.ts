// The social islands' state: one nanostore per feature, keyed by pin, user, board or topic id,
// moved only by the pure transitions beside them. Every action is optimistic (spec 001
// "Client state"): apply the transition, make the call, settle on the server's answer; on a
// refusal put the state back and say so in a toast, except a topic follow, which reverts
// silently (spec 000 §4, §8 "Topic follow failure: Silent revert").
import { map, type MapStore } from "nanostores";
import { resource } from "~/api/api.client.ts";
import { showToast } from "~/shell/toast-event.ts";
import { pinDidItReducer, type PinDidItState } from "./did-it.ts";
import { boardFollowReducer, topicReducer, userFollowReducer, type BoardFollowState, type TopicState, type UserFollowState } from "./follows.ts";
import { reactionReducer, type ReactionState } from "./reactions.ts";
import { sponsorshipViewReducer, type SponsorshipAction, type SponsorshipView } from "./sponsorship.ts";

type Send = (name: string, action: "create" | "update" | "delete", options: Record<string, unknown>) => Promise<unknown>;
type Notify = (message: string) => void;

export interface Io {
  send: Send;
  notify: Notify;
}

let toastCount = 0;
const browserIo = (): Io => ({
  send: (name, action, options) => resource(name, action, options),
  notify: (message) => showToast({ id: `social-${++toastCount}`, message }),
});

export interface Person {
  id: string;
  username: string;
  full_name: string;
  image_medium_url: string | null;
}

export const $reactions = map<Record<string, ReactionState>>({});
export const $userFollows = map<Record<string, UserFollowState>>({});
export const $boardFollows = map<Record<string, BoardFollowState>>({});
export const $topics = map<Record<string, TopicState>>({});
export const $pinDidIts = map<Record<string, PinDidItState>>({});
export const $sponsorships = map<Record<string, SponsorshipView<Person> | null>>({});

/**
 * Seeds a key from the island's props once, in the browser; a later island on the same page
 * keeps the live state. Never on the server: these stores are module state, shared by every
 * request an isolate serves, so server renders read the props alone.
 */
export function seed<T>(store: MapStore<Record<string, T>>, key: string, value: T): void {
  if (typeof window === "undefined") return;
  if (!(key in store.get())) store.setKey(key, value);
}

/**
 * Applies `next` at once, runs the call, then keeps the server's word (settle) or, on any
 * failure, restores what was there before and tells the person (unless silent).
 */
async function optimistic<T, A>(store: MapStore<Record<string, T>>, key: string, previous: T, next: T, run: () => Promise<A>, settle: (answer: A, current: T) => T, failure: string | null, io: Io): Promise<boolean> {
  store.setKey(key, next);
  try {
    const answer = await run();
    store.setKey(key, settle(answer, store.get()[key] as T));
    return true;
  } catch {
    store.setKey(key, previous);
    if (failure !== null) io.notify(failure);
    return false;
  }
}

interface ReactionAnswer {
  reaction_counts: ReactionState["reaction_counts"];
  reaction_by_me: number;
}

/** Reacts with `type`, or takes the reaction back when it is already the viewer's. */
export function toggleReaction(pinId: string, type: number, failed: string, io: Io = browserIo()): Promise<boolean> {
  const current = $reactions.get()[pinId] ?? { reaction_counts: [], reaction_by_me: 0 };
  const undo = current.reaction_by_me === type;
  return optimistic(
    $reactions,
    pinId,
    current,
    reactionReducer(current, undo ? { type: "unreact" } : { type: "react", reaction_type: type }),
    () => (undo ? io.send("PinReactionResource", "delete", { pin_id: pinId }) : io.send("PinReactionResource", "create", { pin_id: pinId, reaction_type: type })) as Promise<ReactionAnswer>,
    (answer) => ({ reaction_counts: answer.reaction_counts, reaction_by_me: answer.reaction_by_me }),
    failed,
    io,
  );
}

export function toggleUserFollow(userId: string, failed: string, io: Io = browserIo()): Promise<boolean> {
  const current = $userFollows.get()[userId] ?? { explicitly_followed_by_me: false, follower_count: 0, blocked_by_me: false };
  const follow = !current.explicitly_followed_by_me;
  return optimistic(
    $userFollows,
    userId,
    current,
    userFollowReducer(current, { type: follow ? "follow" : "unfollow" }),
    () => io.send("UserFollowResource", follow ? "create" : "delete", { user_id: userId }) as Promise<{ explicitly_followed_by_me: boolean; follower_count: number }>,
    (answer, now) => ({ ...now, explicitly_followed_by_me: answer.explicitly_followed_by_me, follower_count: answer.follower_count }),
    failed,
    io,
  );
}

export function toggleBlock(userId: string, failed: string, io: Io = browserIo()): Promise<boolean> {
  const current = $userFollows.get()[userId] ?? { explicitly_followed_by_me: false, follower_count: 0, blocked_by_me: false };
  const block = !current.blocked_by_me;
  return optimistic(
    $userFollows,
    userId,
    current,
    userFollowReducer(current, { type: block ? "block" : "unblock" }),
    () => io.send("UserBlockResource", block ? "create" : "delete", { user_id: userId }) as Promise<{ blocked_by_me: boolean }>,
    (answer, now) => ({ ...now, blocked_by_me: answer.blocked_by_me }),
    failed,
    io,
  );
}

export function toggleBoardFollow(boardId: string, failed: string, io: Io = browserIo()): Promise<boolean> {
  const current = $boardFollows.get()[boardId] ?? { followed_by_me: false, follower_count: 0 };
  const follow = !current.followed_by_me;
  return optimistic(
    $boardFollows,
    boardId,
    current,
    boardFollowReducer(current, { type: follow ? "follow" : "unfollow" }),
    () => io.send("BoardFollowResource", follow ? "create" : "delete", { board_id: boardId }) as Promise<{ explicitly_followed_by_me: boolean; follower_count: number }>,
    // The button is the viewer's own follow of the board; following its owner is another button.
    (answer) => ({ followed_by_me: answer.explicitly_followed_by_me, follower_count: answer.follower_count }),
    failed,
    io,
  );
}

/** Topic follow: optimistic, and a failure reverts without a word (spec 000 §8). */
export function toggleTopic(interestId: string, io: Io = browserIo()): Promise<boolean> {
  const current = $topics.get()[interestId] ?? { id: interestId, is_followed: false };
  const follow = !current.is_followed;
  return optimistic(
    $topics,
    interestId,
    current,
    topicReducer(current, { type: follow ? "follow" : "unfollow" }),
    () =>
      (follow
        ? io.send("InterestFollowResource", "create", { interest_id: interestId, interest_list: "favorited" })
        : io.send("InterestFollowResource", "delete", { interest_id: interestId })) as Promise<{ is_followed: boolean }>,
    (answer, now) => ({ ...now, is_followed: answer.is_followed }),
    null,
    io,
  );
}

export function toggleDidIt(pinId: string, failed: string, io: Io = browserIo()): Promise<boolean> {
  const current = $pinDidIts.get()[pinId] ?? { done_by_me: false, images_count: 0, did_it_id: null };
  const done = !current.done_by_me;
  return optimistic(
    $pinDidIts,
    pinId,
    current,
    pinDidItReducer(current, done ? { type: "done", did_it_id: null } : { type: "undone" }),
    () => io.send("DidItResource", done ? "create" : "delete", { pin_id: pinId }) as Promise<PinDidItState>,
    (answer) => ({ done_by_me: answer.done_by_me, images_count: answer.images_count, did_it_id: answer.did_it_id }),
    failed,
    io,
  );
}

export function actOnSponsorship(pinId: string, action: SponsorshipAction, failed: string, io: Io = browserIo()): Promise<boolean> {
  const current = $sponsorships.get()[pinId] ?? null;
  return optimistic(
    $sponsorships,
    pinId,
    current,
    sponsorshipViewReducer(current, action),
    () => io.send("SponsorshipResource", "update", { pin_id: pinId, action }) as Promise<{ sponsorship: SponsorshipView<Person> | null }>,
    (answer) => answer.sponsorship,
    failed,
    io,
  );
}
