// Typo correction's choices, given what the index holds: the closest vocabulary terms to a
// word and, among them, the one the viewer sees the most pins of. Pure: typo.server.ts reads
// the vocabulary and the visible counts.
import { editDistance } from "./query.ts";

/** The closest of a word's vocabulary terms (by distance) whose visible pins are counted; the most visible one wins. */
const TYPO_CLOSEST = 5;

export interface TypoCandidate {
  term: string;
  distance: number;
}

/** The TYPO_CLOSEST terms within edit distance 2 of `token` (the token itself aside), nearest first, ties in vocabulary order. */
export function closestTerms(token: string, vocabulary: ReadonlyArray<{ term: string }>): TypoCandidate[] {
  return vocabulary
    .filter((candidate) => candidate.term !== token)
    .map((candidate) => ({ term: candidate.term, distance: editDistance(token, candidate.term, 2) }))
    .filter((candidate) => candidate.distance <= 2)
    .sort((a, b) => a.distance - b.distance)
    .slice(0, TYPO_CLOSEST);
}

/**
 * Each token swapped for its candidate with the most visible pins, when that is more than the
 * query `found` (ties: the nearer, then the alphabetically first); a token without one stays.
 * Null when no token changes.
 */
export function correctedWords(tokens: readonly string[], closest: ReadonlyArray<readonly TypoCandidate[]>, visible: ReadonlyMap<string, number>, found: number): string[] | null {
  let changed = false;
  const corrected = tokens.map((token, index) => {
    let best: { term: string; distance: number; visible: number } | null = null;
    for (const candidate of closest[index]!) {
      const count = visible.get(candidate.term) ?? 0;
      if (count <= found) continue;
      if (!best || count > best.visible || (count === best.visible && (candidate.distance < best.distance || (candidate.distance === best.distance && candidate.term < best.term)))) {
        best = { ...candidate, visible: count };
      }
    }
    if (!best) return token;
    changed = true;
    return best.term;
  });
  return changed ? corrected : null;
}
