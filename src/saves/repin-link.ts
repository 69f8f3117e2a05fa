// The repost deep link's hand-over (spec 000 §2 "Pin repost deep links"): /pin/{id}/repin/
// answers with the close-up at #repin, and the close-up's Save island opens the board picker
// once for it. A fragment, not a query: the close-up's address, and so its cached renders, stay
// the pin's own, and the server never sees which visitor came through the link.

export const REPIN_FRAGMENT = "repin";

/** Whether this location came through the repost link (its fragment is exactly #repin). */
export function isRepinLink(hash: string): boolean {
  return hash === `#${REPIN_FRAGMENT}`;
}
