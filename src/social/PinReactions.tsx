// The close-up's Like (reaction type 1) and "I tried this" toggles for a signed-in viewer,
// each with its count (spec 001 §4 "Reactions, follows and did-it").
import { useStore } from "@nanostores/react";
import { useState } from "react";
import type { PinDidItState } from "./did-it.ts";
import { formatCount, type PluralForms } from "./plural.ts";
import { REACTION_TYPES, countOf, type ReactionState } from "./reactions.ts";
import { $pinDidIts, $reactions, seed, toggleDidIt, toggleReaction } from "./store.ts";
import { perViewer } from "~/member-page/viewer-values.ts";

interface PinReactionsProps {
  pinId: string;
  reactions: ReactionState;
  didIt: PinDidItState;
  language: string;
  labels: {
    like: string;
    liked: string;
    reactionCount: PluralForms;
    reactionFailed: string;
    tried: string;
    triedCount: PluralForms;
    didItFailed: string;
  };
}

function PinReactions({ pinId, reactions, didIt, language, labels }: PinReactionsProps) {
  useState(() => {
    seed($reactions, pinId, reactions);
    seed($pinDidIts, pinId, didIt);
  });
  const reaction = useStore($reactions)[pinId] ?? reactions;
  const done = useStore($pinDidIts)[pinId] ?? didIt;
  const liked = reaction.reaction_by_me === REACTION_TYPES.like;
  const total = reaction.reaction_counts.reduce((sum, entry) => sum + entry.count, 0);
  return (
    <div className="social-reactions" data-hydrated="true">
      <button type="button" className="button" aria-pressed={liked} onClick={() => void toggleReaction(pinId, REACTION_TYPES.like, labels.reactionFailed)}>
        {liked ? labels.liked : labels.like}
        <span className="social-badge" aria-hidden="true">
          {countOf(reaction, REACTION_TYPES.like)}
        </span>
      </button>
      <button type="button" className="button" aria-pressed={done.done_by_me} onClick={() => void toggleDidIt(pinId, labels.didItFailed)}>
        {labels.tried}
      </button>
      <p className="social-counts" aria-live="polite">
        <span>{formatCount(labels.reactionCount, language, total)}</span>
        <span aria-hidden="true"> · </span>
        <span>{formatCount(labels.triedCount, language, done.images_count)}</span>
      </p>
    </div>
  );
}

/** The island as pages mount it: on a member page, its slot's values over its props. */
export default perViewer(PinReactions);
