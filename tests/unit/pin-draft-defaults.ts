// A new pin draft's fields as spec 001 §3 and §9 give them, written out by hand: the expected
// answer both the rules' unit tests and the draft API's Worker tests hold the code to.
export const SPEC_NEW_DRAFT = {
  type: "single",
  status: "created",
  mode: "create",
  view: "upload",
  publishOption: "publish-immediately",
  publishingStatus: "notAttempted",
  scheduledDate: null,
  scheduledTime: null,
  // Not in the spec: the time zone scheduling reads the date and time in, unknown until then.
  timeZone: null,
  title: "",
  description: "",
  altText: "",
  websiteLink: "",
  interestTags: [],
  isCommentsAllowed: true,
  isShoppingRecAllowed: true,
  pinItemShareable: true,
  boardId: null,
  sectionId: null,
  items: [],
  pinTags: [],
  pinItemIndex: 0,
  /** Only a story draft has pages. */
  story: null,
} as const;
