// Reactions on a pin (spec 001 §4 "Reactions, follows and did-it"): counts per type with a
// floor of 0, a zero count removes the type, reaction_by_me is the type after a reaction and 0
// after taking it back. Pure, shared by the close-up island's store and its tests.

/** Reaction types the server accepts (reactions.reaction_type CHECK). Type 1 is "like". */
export const REACTION_TYPES = { min: 1, max: 20, like: 1 } as const;

export interface ReactionCount {
  reaction_type: number;
  count: number;
}

export interface ReactionState {
  reaction_counts: ReactionCount[];
  /** The viewer's reaction type, 0 for none. */
  reaction_by_me: number;
}

export type ReactionEvent = { type: "react"; reaction_type: number } | { type: "unreact" };

/** Moves one type's count by delta, never below 0; a type whose count reaches 0 is removed. */
export function adjustCount(counts: readonly ReactionCount[], reactionType: number, delta: number): ReactionCount[] {
  const current = counts.find((entry) => entry.reaction_type === reactionType)?.count ?? 0;
  const next = Math.max(0, current + delta);
  const others = counts.filter((entry) => entry.reaction_type !== reactionType);
  const result = next > 0 ? [...others, { reaction_type: reactionType, count: next }] : others;
  return result.sort((a, b) => a.reaction_type - b.reaction_type);
}

export function reactionReducer(state: ReactionState, event: ReactionEvent): ReactionState {
  if (event.type === "unreact") {
    if (state.reaction_by_me === 0) return state;
    return { reaction_counts: adjustCount(state.reaction_counts, state.reaction_by_me, -1), reaction_by_me: 0 };
  }
  if (state.reaction_by_me === event.reaction_type) return state;
  // Changing one's reaction takes the old one back first: one reaction per person.
  const withoutOld = state.reaction_by_me === 0 ? state.reaction_counts : adjustCount(state.reaction_counts, state.reaction_by_me, -1);
  return { reaction_counts: adjustCount(withoutOld, event.reaction_type, 1), reaction_by_me: event.reaction_type };
}

/** The count shown beside one type's button. */
export function countOf(state: ReactionState, reactionType: number): number {
  return state.reaction_counts.find((entry) => entry.reaction_type === reactionType)?.count ?? 0;
}
