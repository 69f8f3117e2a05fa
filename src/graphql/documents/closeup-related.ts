// CloseupRelatedModulesFeedQuery (spec 000 §7, §9): one page of the close-up's related feed,
// RELATED_PAGE_SIZE (12) pins, paged by the endCursor of the page before ($cursor). The
// attribution variables (where the visitor came from) are accepted and bounded; the built-in
// origin's ranking does not use them, an upstream origin may.
export const CLOSEUP_RELATED_MODULES_FEED_QUERY = `query CloseupRelatedModulesFeedQuery(
  $pinId: PinId!
  $homefeedSourceSig: ShortString
  $searchQuery: ShortString
  $source: ShortString
  $topLevelSource: ShortString
  $topLevelSourceDepth: Int
  $cursor: Cursor
) {
  relatedPins(
    pinId: $pinId
    after: $cursor
    homefeedSourceSig: $homefeedSourceSig
    searchQuery: $searchQuery
    source: $source
    topLevelSource: $topLevelSource
    topLevelSourceDepth: $topLevelSourceDepth
  ) {
    pins {
      id
      kind
      title
      altText
      dominantColor
      image { url width height }
      image2x
    }
    endCursor
    hasNextPage
  }
}
`;
