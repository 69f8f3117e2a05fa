// A board page's Follow button for a signed-in visitor who is not its owner (policy action
// follow_board), with the board's follower count. It toggles the viewer's own follow of the
// board (state.followed_by_me here is that explicit follow): following the owner also makes
// the board followed_by_me on reads, but that is the profile's button to undo.
import { useStore } from "@nanostores/react";
import { useState } from "react";
import type { BoardFollowState } from "./follows.ts";
import { formatCount, type PluralForms } from "./plural.ts";
import { $boardFollows, seed, toggleBoardFollow } from "./store.ts";

export interface FollowBoardButtonProps {
  boardId: string;
  initial: BoardFollowState;
  language: string;
  labels: { follow: string; following: string; failed: string; followers: PluralForms };
}

export default function FollowBoardButton({ boardId, initial, language, labels }: FollowBoardButtonProps) {
  useState(() => seed($boardFollows, boardId, initial));
  const state = useStore($boardFollows)[boardId] ?? initial;
  return (
    <div className="social-follow-board" data-hydrated="true">
      <button
        type="button"
        className={state.followed_by_me ? "button" : "button primary"}
        aria-pressed={state.followed_by_me}
        onClick={() => void toggleBoardFollow(boardId, labels.failed)}
      >
        {state.followed_by_me ? labels.following : labels.follow}
      </button>
      <span className="social-count" aria-live="polite">
        {formatCount(labels.followers, language, state.follower_count)}
      </span>
    </div>
  );
}
