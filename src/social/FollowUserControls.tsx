// A profile's Follow and Block controls for a signed-in visitor (spec 001 §4 "Reactions,
// follows and did-it"). Both are toggle buttons (aria-pressed); the outcome is announced in a
// live region. Blocking clears the follow, and a blocked person cannot be followed.
import { useStore } from "@nanostores/react";
import { useState } from "react";
import type { UserFollowState } from "./follows.ts";
import { $userFollows, seed, toggleBlock, toggleUserFollow } from "./store.ts";

export interface FollowUserControlsProps {
  userId: string;
  initial: UserFollowState;
  labels: {
    follow: string;
    following: string;
    followName: string;
    unfollowName: string;
    block: string;
    unblock: string;
    blockName: string;
    unblockName: string;
    blocked: string;
    followFailed: string;
    blockFailed: string;
  };
}

export default function FollowUserControls({ userId, initial, labels }: FollowUserControlsProps) {
  useState(() => seed($userFollows, userId, initial));
  const state = useStore($userFollows)[userId] ?? initial;
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<boolean>) => {
    setBusy(true);
    await action();
    setBusy(false);
  };
  return (
    <div className="social-follow-user" data-hydrated="true">
      {!state.blocked_by_me && (
        <button
          type="button"
          className={state.explicitly_followed_by_me ? "button" : "button primary"}
          aria-pressed={state.explicitly_followed_by_me}
          aria-label={state.explicitly_followed_by_me ? labels.unfollowName : labels.followName}
          disabled={busy}
          onClick={() => void run(() => toggleUserFollow(userId, labels.followFailed))}
        >
          {state.explicitly_followed_by_me ? labels.following : labels.follow}
        </button>
      )}
      <button
        type="button"
        className="button"
        aria-pressed={state.blocked_by_me}
        aria-label={state.blocked_by_me ? labels.unblockName : labels.blockName}
        disabled={busy}
        onClick={() => void run(() => toggleBlock(userId, labels.blockFailed))}
      >
        {state.blocked_by_me ? labels.unblock : labels.block}
      </button>
      <p role="status" className="social-status">
        {state.blocked_by_me ? labels.blocked : ""}
      </p>
    </div>
  );
}
