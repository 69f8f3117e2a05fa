// CloseupPageQuery (spec 000 §7): what the pin page's frame needs (head, flags, attribution).
export const CLOSEUP_PAGE_QUERY = `query CloseupPageQuery($pinId: PinId!, $isAuth: Boolean!) {
  pin(id: $pinId) {
    id
    title
    seoTitle
    seoDescription
    seoNoindexReason
    isHidden
    isUnsafe
    isPromoted
    isOosProduct
    createdAt @skip(if: $isAuth)
    domainOfficialUser { username fullName }
    closeupAttribution { username fullName }
  }
}
`;
