// CloseupDetailQuery (spec 000 §7): the close-up's body. isAuth drops what signed-out visitors
// alone see (saves, creation date); isDesktop adds the first comments the desktop layout shows.
export const CLOSEUP_DETAIL_QUERY = `query CloseupDetailQuery($pinId: PinId!, $isAuth: Boolean!, $isDesktop: Boolean!) {
  pin(id: $pinId) {
    id
    kind
    title
    description
    altText
    dominantColor
    domain
    link
    createdAt @skip(if: $isAuth)
    saveCount @skip(if: $isAuth)
    commentCount
    commentsDisabled
    images { size url width height }
    pinner { id username fullName imageMediumUrl isVerifiedMerchant followerCount }
    board { id name url }
    reactionCounts { reactionType reactionCount }
    comments @include(if: $isDesktop) {
      id
      text
      createdAt
      replyCount
      likeCount
      highlighted
      author { username fullName imageSmallUrl }
    }
  }
}
`;
