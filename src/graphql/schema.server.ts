// The typed schema the persisted documents run against: a thin layer over the same server
// functions the pin page uses (getPin, listRelatedPins), so the same visibility rules hold. A
// pin the viewer may not see resolves to null with a NOT_FOUND error (spec 000 §7: "Response
// is data or an Error"), never a hint that it exists.
import {
  GraphQLBoolean,
  GraphQLError,
  GraphQLID,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLSchema,
  GraphQLString,
  Kind,
  type GraphQLNullableType,
  type GraphQLResolveInfo,
} from "graphql";
import { decodeTimeCursor } from "~/feeds/cursor.ts";
import { pinIdSchema } from "~/pins/pin.ts";
import { getPin, listRelatedPins, type FeedPage, type PinDetail, type PinLookup } from "~/pins/pins.server.ts";

export interface GraphqlContext {
  db: D1Database;
  viewerId: number | null;
  /** One getPin per pin per request, however many fields ask. */
  pins: Map<string, Promise<PinLookup>>;
  /** Related pages already read (relatedKey), e.g. by the page that embeds the answer. */
  related: Map<string, Promise<FeedPage | null>>;
}

export const relatedKey = (pinId: string, cursor: string | null | undefined) => `${pinId}:${cursor ?? ""}`;

/** Longest value a ShortString variable may carry (source names, a search query). */
const SHORT_STRING_MAX = 200;

function stringScalar(name: string, description: string, accept: (value: string) => boolean, reason: string) {
  const coerce = (value: unknown): string => {
    if (typeof value !== "string" || !accept(value)) throw new GraphQLError(`${name} ${reason}`);
    return value;
  };
  return new GraphQLScalarType<string, string>({
    name,
    description,
    coerceOutputValue: (value) => String(value),
    coerceInputValue: coerce,
    coerceInputLiteral: (node) => {
      if (node.kind !== Kind.STRING) throw new GraphQLError(`${name} must be a string`);
      return coerce(node.value);
    },
  });
}

const PinIdScalar = stringScalar("PinId", "A pin id: 1 to 19 digits.", (value) => pinIdSchema.safeParse(value).success, "must be 1 to 19 digits");
const CursorScalar = stringScalar("Cursor", "An endCursor this API wrote.", (value) => decodeTimeCursor(value) !== null, "is not a cursor this feed wrote");
const ShortStringScalar = stringScalar("ShortString", `A string of at most ${SHORT_STRING_MAX} characters.`, (value) => value.length <= SHORT_STRING_MAX, `must be at most ${SHORT_STRING_MAX} characters`);

const nonNull = <T extends GraphQLNullableType>(type: T) => new GraphQLNonNull(type);
const str = { type: nonNull(GraphQLString) };
const optionalStr = { type: GraphQLString };
const int = { type: nonNull(GraphQLInt) };
const bool = { type: nonNull(GraphQLBoolean) };

const NameType = new GraphQLObjectType({ name: "NamedUser", fields: { username: str, fullName: str } });

const UserType = new GraphQLObjectType({
  name: "User",
  fields: { id: { type: nonNull(GraphQLID) }, username: str, fullName: str, imageMediumUrl: optionalStr, isVerifiedMerchant: bool, followerCount: int },
});

const BoardType = new GraphQLObjectType({ name: "Board", fields: { id: { type: nonNull(GraphQLID) }, name: str, url: str } });

const ImageType = new GraphQLObjectType({
  name: "Image",
  fields: { size: optionalStr, url: str, width: int, height: int },
});

const ReactionCountType = new GraphQLObjectType({ name: "ReactionCount", fields: { reactionType: int, reactionCount: int } });

const CommentType = new GraphQLObjectType({
  name: "Comment",
  fields: {
    id: { type: nonNull(GraphQLID) },
    text: str,
    createdAt: str,
    replyCount: int,
    likeCount: int,
    highlighted: bool,
    /** Null when the viewer may not see the author's profile: the comment is shown without a name. */
    author: { type: new GraphQLObjectType({ name: "CommentAuthor", fields: { username: str, fullName: str, imageSmallUrl: optionalStr } }) },
  },
});

const PinType = new GraphQLObjectType<PinDetail, GraphqlContext>({
  name: "Pin",
  fields: {
    id: { type: nonNull(GraphQLID) },
    kind: str,
    title: str,
    description: str,
    altText: optionalStr,
    dominantColor: str,
    domain: optionalStr,
    link: optionalStr,
    createdAt: str,
    saveCount: int,
    commentCount: int,
    commentsDisabled: bool,
    isHidden: bool,
    isUnsafe: bool,
    isPromoted: bool,
    isOosProduct: bool,
    seoTitle: optionalStr,
    seoDescription: optionalStr,
    seoNoindexReason: optionalStr,
    images: {
      type: nonNull(new GraphQLList(nonNull(ImageType))),
      resolve: (pin) => Object.entries(pin.images).map(([size, image]) => ({ size, ...image })),
    },
    pinner: { type: nonNull(UserType) },
    board: { type: BoardType },
    reactionCounts: { type: nonNull(new GraphQLList(nonNull(ReactionCountType))) },
    /** The first page of top-level comments (FIRST_COMMENTS), as the page renders them. */
    comments: { type: nonNull(new GraphQLList(nonNull(CommentType))) },
    domainOfficialUser: { type: NameType },
    closeupAttribution: { type: NameType },
  },
});

const GridImageType = new GraphQLObjectType({ name: "GridImage", fields: { url: str, width: int, height: int } });

const GridPinType = new GraphQLObjectType({
  name: "GridPin",
  fields: { id: { type: nonNull(GraphQLID) }, kind: str, title: str, altText: optionalStr, dominantColor: str, image: { type: nonNull(GridImageType) }, image2x: optionalStr },
});

const RelatedPageType = new GraphQLObjectType<FeedPage>({
  name: "RelatedPinsPage",
  fields: { pins: { type: nonNull(new GraphQLList(nonNull(GridPinType))) }, endCursor: optionalStr, hasNextPage: bool },
});

const notFoundError = () => new GraphQLError("Pin not found", { extensions: { code: "NOT_FOUND" } });

/**
 * Whether the pin field's selection may ask for `comments`: a field of that name in it, or a
 * fragment (not looked into: assumed to). @include/@skip are not evaluated, so a document
 * that names comments always reads them.
 */
function mayAskComments(info: GraphQLResolveInfo): boolean {
  return info.fieldNodes.some((node) => (node.selectionSet?.selections ?? []).some((selection) => selection.kind !== Kind.FIELD || selection.name.value === "comments"));
}

/** Key of a lookup made without the comments (context.pins holds full lookups by the pin id). */
const liteKey = (pinId: string) => `${pinId}:lite`;

/**
 * The pin for this request: a full lookup already made (the page's) when there is one; else
 * getPin without what no GraphQL field reads (videos, the related feed) and without the
 * comments when the query does not name them.
 */
function lookupPin(context: GraphqlContext, pinId: string, info: GraphQLResolveInfo): Promise<PinLookup> {
  const comments = mayAskComments(info);
  const key = comments ? pinId : liteKey(pinId);
  let lookup = context.pins.get(pinId) ?? context.pins.get(key);
  if (!lookup) {
    lookup = getPin(context.db, pinId, context.viewerId, null, { videos: false, related: false, comments, tags: false, stickers: false });
    context.pins.set(key, lookup);
  }
  return lookup;
}

const QueryType = new GraphQLObjectType<unknown, GraphqlContext>({
  name: "Query",
  fields: {
    pin: {
      type: PinType,
      args: { id: { type: nonNull(PinIdScalar) } },
      async resolve(_root, args: { id: string }, context, info) {
        const lookup = await lookupPin(context, args.id, info);
        // Deleted pins are as absent as invisible ones: the page's 410 has no data to give.
        if (lookup.status !== "found") throw notFoundError();
        return lookup.pin;
      },
    },
    relatedPins: {
      type: RelatedPageType,
      args: {
        pinId: { type: nonNull(PinIdScalar) },
        after: { type: CursorScalar },
        homefeedSourceSig: { type: ShortStringScalar },
        searchQuery: { type: ShortStringScalar },
        source: { type: ShortStringScalar },
        topLevelSource: { type: ShortStringScalar },
        topLevelSourceDepth: { type: GraphQLInt },
      },
      async resolve(_root, args: { pinId: string; after?: string | null }, context) {
        const key = relatedKey(args.pinId, args.after);
        let read = context.related.get(key);
        if (!read) {
          read = listRelatedPins(context.db, args.pinId, args.after ? decodeTimeCursor(args.after) : null, context.viewerId);
          context.related.set(key, read);
        }
        const page = await read;
        if (!page) throw notFoundError();
        return page;
      },
    },
  },
});

export const schema = new GraphQLSchema({ query: QueryType });
