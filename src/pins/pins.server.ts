// Pin reads from D1. A pin page costs one round trip: every statement goes in one batch.
import type { PinImageSize } from "~/media/media.ts";
import {
  carouselDataSchema,
  choosePinLink,
  mediaAttributionSchema,
  parseJsonColumn,
  richMetadataSchema,
  storyPinDataSchema,
  type PinImages,
  type PinKind,
} from "./pin.ts";
import type { z } from "zod";
import { parseStoredTags } from "~/comments/comment.ts";
import { toSegments, type Segment } from "~/comments/segments.ts";
import { TAGGED_USERS_SQL, parseTaggedUsers } from "~/comments/tagged-users.ts";
import type { PinTableRow } from "./pin-row.ts";
import { isBlockedHost } from "~/comments/segments.ts";
import { userImageUrl } from "~/users/user.ts";
import { pinTagDots, pinTagsStatement, type PinTagDot } from "./pin-tags-read.server.ts";
import { factColumns, holdsFor, visibleFlagSql, visibleSql, type Aliases } from "~/visibility/visibility.server.ts";
import { encodeKeyset } from "~/feeds/cursor.ts";
import { storyStickersStatement, stickerTargetsOf } from "~/stories/story-stickers.server.ts";
import { resolveStickers } from "~/stories/story-stickers.ts";

interface UserSummary {
  id: string;
  username: string;
  fullName: string;
  imageMediumUrl: string | null;
  isVerifiedMerchant: boolean;
  followerCount: number;
}

interface BoardSummary {
  id: string;
  name: string;
  slug: string;
  url: string;
}

interface VideoFormat {
  format: string;
  url: string;
  mimeType: string;
  width: number;
  height: number;
  durationMs: number;
  thumbnail: string;
  captionsUrls: Record<string, string>;
}

interface CommentSummary {
  id: string;
  text: string;
  /** The text as src/comments/segments.ts renders it: text, profile mentions, safe links. */
  segments: Segment[];
  createdAt: string;
  replyCount: number;
  likeCount: number;
  highlighted: boolean;
  /** Null when the viewer may not see the author's profile: the comment shows under an anonymous name. */
  author: { username: string; fullName: string; imageSmallUrl: string | null } | null;
}

export interface FeedPage {
  pins: GridPin[];
  endCursor: string | null;
  hasNextPage: boolean;
}

export interface PinDetail {
  id: string;
  kind: PinKind;
  title: string;
  gridTitle: string;
  description: string;
  descriptionHtml: string;
  altText: string | null;
  dominantColor: string;
  domain: string | null;
  /** The outbound link chosen by the spec's rule; null when none is allowed. */
  link: string | null;
  createdAt: string;
  images: PinImages;
  videos: VideoFormat[];
  pinner: UserSummary;
  /** Only when the viewer may see it: a secret board never reaches a stranger. */
  board: BoardSummary | null;
  richMetadata: z.infer<typeof richMetadataSchema> | null;
  storyPinData: z.infer<typeof storyPinDataSchema> | null;
  carouselData: z.infer<typeof carouselDataSchema> | null;
  mediaAttribution: z.infer<typeof mediaAttributionSchema> | null;
  /** The pin's image signature (spec 000 §3 imageSignature): what "recently viewed" remembers. */
  imageSignature: string;
  seoTitle: string | null;
  seoDescription: string | null;
  seoNoindexReason: string | null;
  isHidden: boolean;
  isUnsafe: boolean;
  isDeleted: boolean;
  isPromoted: boolean;
  /** The advertiser paying for a promoted pin (its attribution pings name them); null otherwise. */
  promoterId?: string | null;
  isOosProduct: boolean;
  commentsDisabled: boolean;
  commentCount: number;
  /** Tried-it posts on the pin (pins.did_it_images_count). */
  didItCount: number;
  saveCount: number;
  reactionCounts: Array<{ reactionType: number; reactionCount: number }>;
  /** The domain's official account, when the domain has one. */
  domainOfficialUser: { username: string; fullName: string } | null;
  /** Who the close-up credits (closeupAttribution). */
  closeupAttribution: { username: string; fullName: string } | null;
  /** The newest top-level comments, for server HTML. */
  comments: CommentSummary[];
  /** First page of CloseupRelatedModulesFeedQuery. */
  related: FeedPage;
  /** Its pin tags with the tagged pins this viewer may see (src/pins/pin-tags-read.server.ts). */
  tags: PinTagDot[];
}

export interface GridPin {
  id: string;
  kind: PinKind;
  title: string;
  altText: string | null;
  dominantColor: string;
  image: { url: string; width: number; height: number };
  /** The 474x rendition for 2x screens. */
  image2x: string | null;
}

/** A pins row joined with its pinner and board (PIN_SELECT), and the visibility facts it selects. */
interface PinRow extends PinTableRow {
  pinner_username: string;
  pinner_full_name: string;
  pinner_image_key: string | null;
  pinner_is_verified_merchant: number;
  pinner_follower_count: number;
  board_name: string | null;
  board_slug: string | null;
  board_owner_username: string | null;
  /** 1 when the viewer may open the pin's board's page (the boardPage rule). */
  board_page_visible: number;
}

/** The aliases PIN_SELECT and the related feed give the pin, its own board and its pinner. */
const PIN_ALIASES: Aliases = { pin: "p", board: "b", pinner: "u" };

const PIN_SELECT = `
  SELECT p.*, u.username AS pinner_username, u.full_name AS pinner_full_name, u.image_key AS pinner_image_key,
         u.is_verified_merchant AS pinner_is_verified_merchant, u.follower_count AS pinner_follower_count,
         b.name AS board_name, b.slug AS board_slug, bo.username AS board_owner_username,
         ${factColumns("pinExists", PIN_ALIASES, "?2")},
         ${visibleFlagSql("boardPage", { board: "b", owner: "bo" }, "?2")} AS board_page_visible
  FROM pins p
  JOIN users u ON u.id = p.pinner_id
  LEFT JOIN boards b ON b.id = p.board_id
  LEFT JOIN users bo ON bo.id = b.owner_id
  WHERE p.id = ?1`;

/** A story's pages with each sticker as this reader may see it now (story-stickers.ts). */
function resolvedStory(story: z.infer<typeof storyPinDataSchema> | null, stickerRows: readonly unknown[]): z.infer<typeof storyPinDataSchema> | null {
  return story && { ...story, pages: resolveStickers(story.pages, stickerTargetsOf(stickerRows)) };
}

/** The pin's board as a link, only when the viewer may open that board's page. */
function visibleBoard(row: PinRow): BoardSummary | null {
  if (row.board_id === null || row.board_name === null || row.board_slug === null || row.board_page_visible !== 1) return null;
  return { id: String(row.board_id), name: row.board_name, slug: row.board_slug, url: `/${row.board_owner_username}/${row.board_slug}/` };
}

/** Related feed page size (spec 000 §9). */
const RELATED_PAGE_SIZE = 12;
const FIRST_COMMENTS = 5;

/** What a grid cell shows, for a query naming pins `p` and joining GRID_IMAGE_JOINS. */
export const GRID_CELL_COLUMNS = `p.id, p.kind, p.title, p.grid_title, p.alt_text, p.auto_alt_text, p.dominant_color,
              i.url, i.width, i.height, i2.url AS url_2x`;
/** The 236x image of a cell and its 474x for 2x screens. */
export const GRID_IMAGE_JOINS = `JOIN pin_images i ON i.pin_id = p.id AND i.size = '236x'
       LEFT JOIN pin_images i2 ON i2.pin_id = p.id AND i2.size = '474x'`;
export const GRID_COLUMNS = `${GRID_CELL_COLUMNS}, p.created_at`;
export const GRID_JOINS = `${GRID_IMAGE_JOINS}
       LEFT JOIN boards b ON b.id = p.board_id
       JOIN users pu ON pu.id = p.pinner_id`;
/** Pins anyone may see in a shared feed (the feedPin rule), for a query joining GRID_JOINS. */
export const VISIBLE_IN_FEEDS = visibleSql("feedPin", { pin: "p", board: "b", pinner: "pu" }, null);

/** The columns of GRID_CELL_COLUMNS. */
export interface GridCellRow {
  id: number;
  kind: PinKind;
  title: string;
  grid_title: string;
  alt_text: string | null;
  auto_alt_text: string | null;
  dominant_color: string;
  url: string;
  width: number;
  height: number;
  url_2x: string | null;
}

/** A feed row: a cell and its time, for keyset paging. */
export interface GridRow extends GridCellRow {
  created_at: number;
}

export function gridPin(row: GridCellRow): GridPin {
  return {
    id: String(row.id),
    kind: row.kind,
    title: row.grid_title || row.title,
    altText: row.alt_text ?? row.auto_alt_text,
    dominantColor: row.dominant_color,
    image: { url: row.url, width: row.width, height: row.height },
    image2x: row.url_2x,
  };
}

/**
 * Related pins: the same category as the pin, newest first, paged by keyset cursor.
 * Fetches one row more than the page to know whether another page exists.
 */
function relatedPinsStatement(db: D1Database, pinId: string, cursor: { createdAt: number; id: number } | null, size = RELATED_PAGE_SIZE) {
  return db
    .prepare(
      `SELECT ${GRID_COLUMNS}
       FROM pins p
       ${GRID_JOINS}
       WHERE ${VISIBLE_IN_FEEDS}
         AND p.id != ?1
         AND p.category IS (SELECT category FROM pins WHERE id = ?1)
         AND (?2 IS NULL OR p.created_at < ?2 OR (p.created_at = ?2 AND p.id < ?3))
       ORDER BY p.created_at DESC, p.id DESC
       LIMIT ?4`,
    )
    .bind(pinId, cursor?.createdAt ?? null, cursor?.id ?? null, size + 1);
}

/** A page of a keyset-paged feed: the first `size` rows, and a cursor when more exist. */
function keysetPage(rows: GridRow[], size: number): FeedPage {
  const page = rows.slice(0, size);
  const last = page.at(-1);
  return {
    pins: page.map(gridPin),
    hasNextPage: rows.length > size,
    endCursor: rows.length > size && last ? encodeKeyset(last.created_at, last.id) : null,
  };
}

/**
 * One page of CloseupRelatedModulesFeedQuery (RelatedPinsFeedResource), or null when the pin
 * itself is missing, deleted or not visible to the viewer (the pin page's rule, checked again
 * on every page so a bookmark never outlives the pin's visibility).
 */
export async function listRelatedPins(
  db: D1Database,
  pinId: string,
  cursor: { createdAt: number; id: number } | null,
  viewerId: number | null,
): Promise<FeedPage | null> {
  const [pinResult, relatedResult] = await db.batch([
    db
      .prepare(
        `SELECT 1 AS visible FROM pins p
         JOIN users u ON u.id = p.pinner_id
         LEFT JOIN boards b ON b.id = p.board_id
         WHERE p.id = ?1 AND ${visibleSql("pin", PIN_ALIASES, "?2")}`,
      )
      .bind(pinId, viewerId),
    relatedPinsStatement(db, pinId, cursor),
  ]);
  if (!pinResult?.results?.length) return null;
  return keysetPage((relatedResult?.results ?? []) as GridRow[], RELATED_PAGE_SIZE);
}

/** blockedHosts: link hosts never linked to, loaded in the same batch for the page's own rules. */
export type PinLookup = { status: "found"; pin: PinDetail; blockedHosts: ReadonlySet<string> } | { status: "missing" } | { status: "deleted" };

/**
 * What a caller that does not render the whole page may leave out of getPin's batch (GraphQL:
 * its Pin type has no videos and no related feed, and only CloseupDetailQuery on desktop asks
 * for the comments). A part left out reads as empty in the answer.
 */
export interface PinParts {
  videos: boolean;
  comments: boolean;
  related: boolean;
  tags: boolean;
  /** A story's mention and product stickers resolved for the reader (left out, every sticker reads as removed). */
  stickers: boolean;
}
const ALL_PARTS: PinParts = { videos: true, comments: true, related: true, tags: true, stickers: true };
const EMPTY_PAGE: FeedPage = { pins: [], endCursor: null, hasNextPage: false };

/** A close-up's first comments (?1 the pin, ?2 how many, ?3 the viewer): the same text for every read, so written once. */
const FIRST_COMMENTS_SQL = `SELECT c.id, c.text, c.tags, c.created_at, c.reply_count, c.like_count, c.highlighted_by_pin_owner,
              u.username, u.full_name, u.image_key, ${visibleFlagSql("profile", { user: "u" }, "?3")} AS author_visible,
              ${TAGGED_USERS_SQL} AS tagged_users
       FROM comments c JOIN users u ON u.id = c.user_id
       WHERE c.pin_id = ?1 AND c.parent_id IS NULL AND c.is_hidden = 0
         AND NOT EXISTS (SELECT 1 FROM blocks k WHERE (k.blocker_id = c.user_id AND k.blocked_id = ?3) OR (k.blocker_id = ?3 AND k.blocked_id = c.user_id))
       ORDER BY c.highlighted_by_pin_owner DESC, c.created_at DESC, c.id DESC
       LIMIT ?2`;

/** `relatedCursor` starts the related feed after a cursor (its crawlable next-page link). */
export async function getPin(
  db: D1Database,
  pinId: string,
  viewerId: number | null = null,
  relatedCursor: { createdAt: number; id: number } | null = null,
  parts: PinParts = ALL_PARTS,
): Promise<PinLookup> {
  return (await getPinBeside(db, pinId, viewerId, relatedCursor, null, parts))[0];
}

/**
 * A caller's own statement about the pin, read in getPin's batch (one round trip for the page,
 * not two), and how its result is read. Its result is read whatever the pin's status.
 */
export interface BesidePin<T> {
  statement: D1PreparedStatement;
  read: (result: D1Result | undefined) => T;
}

/** getPin, with `beside` read in the same batch; its value is null when there is none. */
export async function getPinBeside<T>(
  db: D1Database,
  pinId: string,
  viewerId: number | null,
  relatedCursor: { createdAt: number; id: number } | null,
  beside: BesidePin<T> | null,
  parts: PinParts = ALL_PARTS,
): Promise<[PinLookup, T | null]> {
  const comments = db.prepare(FIRST_COMMENTS_SQL).bind(pinId, FIRST_COMMENTS, viewerId);
  // A part left out is a statement that reads nothing, so every result keeps its place.
  const nothing = () => db.prepare("SELECT 1 WHERE 0");
  const [pinResult, imageResult, videoResult, reactionResult, blockedResult, officialResult, attributionResult, commentResult, relatedResult, tagResult, goneResult, stickerResult, besideResult] = await db.batch([
    db.prepare(PIN_SELECT).bind(pinId, viewerId),
    db.prepare("SELECT size, url, width, height, dominant_color FROM pin_images WHERE pin_id = ?1").bind(pinId),
    parts.videos ? db.prepare("SELECT * FROM pin_video_formats WHERE pin_id = ?1 ORDER BY format").bind(pinId) : nothing(),
    db.prepare("SELECT reaction_type, count FROM pin_reaction_counts WHERE pin_id = ?1 ORDER BY reaction_type").bind(pinId),
    db.prepare("SELECT domain FROM link_domains WHERE is_blocked = 1"),
    db
      .prepare(
        `SELECT u.username, u.full_name FROM pins p
         JOIN link_domains d ON d.domain = p.domain JOIN users u ON u.id = d.official_user_id
         WHERE p.id = ?1`,
      )
      .bind(pinId),
    db
      .prepare("SELECT u.username, u.full_name FROM pins p JOIN users u ON u.id = p.closeup_attribution_user_id WHERE p.id = ?1")
      .bind(pinId),
    parts.comments ? comments : nothing(),
    parts.related ? relatedPinsStatement(db, pinId, relatedCursor) : nothing(),
    parts.tags ? pinTagsStatement(db, pinId, viewerId) : nothing(),
    // A pin of a deleted account left only its id behind: gone (410), not missing.
    db.prepare("SELECT 1 AS gone FROM gone_pins WHERE pin_id = ?1").bind(pinId),
    // A story's stickers, resolved for this reader now (nothing for any other kind of pin).
    parts.stickers ? storyStickersStatement(db, pinId, viewerId) : nothing(),
    ...(beside ? [beside.statement] : []),
  ]);
  const besideValue = beside ? beside.read(besideResult) : null;
  const row = (pinResult?.results as PinRow[] | undefined)?.[0];
  if (!row) return [(goneResult?.results.length ?? 0) > 0 ? { status: "deleted" } : { status: "missing" }, besideValue];
  if (!holdsFor("pinExists", row as unknown as Record<string, unknown>, viewerId)) return [{ status: "missing" }, besideValue];
  if (row.is_deleted) return [{ status: "deleted" }, besideValue];

  const images: PinImages = {};
  for (const image of (imageResult?.results ?? []) as Array<{ size: PinImageSize; url: string; width: number; height: number; dominant_color: string }>) {
    images[image.size] = { url: image.url, width: image.width, height: image.height, dominantColor: image.dominant_color };
  }
  const blockedHosts = new Set(((blockedResult?.results ?? []) as Array<{ domain: string }>).map((r) => r.domain.toLowerCase()));
  const domainShown = row.domain !== null && !isBlockedHost(row.domain, blockedHosts) ? row.domain : null;
  const videos = ((videoResult?.results ?? []) as Array<Record<string, unknown>>).map(
    (video): VideoFormat => ({
      format: String(video.format),
      url: String(video.url),
      mimeType: String(video.mime_type),
      width: Number(video.width),
      height: Number(video.height),
      durationMs: Number(video.duration_ms),
      thumbnail: String(video.thumbnail),
      captionsUrls: JSON.parse(String(video.captions_urls ?? "{}")) as Record<string, string>,
    }),
  );
  const lookup: PinLookup = {
    status: "found",
    blockedHosts,
    pin: {
      id: String(row.id),
      kind: row.kind,
      title: row.title,
      gridTitle: row.grid_title,
      description: row.description,
      descriptionHtml: row.description_html,
      altText: row.alt_text ?? row.auto_alt_text,
      dominantColor: row.dominant_color,
      // A blocked host's name is never published, though the pin stays (its link is dropped above).
      domain: domainShown,
      link: choosePinLink(
        { mobileLink: row.mobile_link, trackedLink: row.tracked_link, link: row.link, originalImageUrl: images.orig?.url ?? null },
        blockedHosts,
      ),
      createdAt: new Date(row.created_at).toISOString(),
      images,
      videos,
      pinner: {
        id: String(row.pinner_id),
        username: row.pinner_username,
        fullName: row.pinner_full_name,
        imageMediumUrl: userImageUrl(row.pinner_image_key, "medium"),
        isVerifiedMerchant: row.pinner_is_verified_merchant === 1,
        followerCount: row.pinner_follower_count,
      },
      board: visibleBoard(row),
      richMetadata: parseJsonColumn(richMetadataSchema, row.rich_metadata),
      storyPinData: resolvedStory(parseJsonColumn(storyPinDataSchema, row.story_pin_data), stickerResult?.results ?? []),
      carouselData: parseJsonColumn(carouselDataSchema, row.carousel_data),
      mediaAttribution: parseJsonColumn(mediaAttributionSchema, row.media_attribution),
      imageSignature: row.image_signature,
      seoTitle: row.seo_title,
      seoDescription: row.seo_description,
      seoNoindexReason: row.seo_noindex_reason,
      isHidden: row.is_hidden === 1,
      isUnsafe: row.is_unsafe === 1,
      isDeleted: row.is_deleted === 1,
      isPromoted: row.is_promoted === 1,
      promoterId: row.is_promoted === 1 && row.promoter_id !== null ? String(row.promoter_id) : null,
      isOosProduct: row.is_oos_product === 1,
      commentsDisabled: row.comments_disabled === 1,
      commentCount: row.comment_count,
      didItCount: row.did_it_images_count,
      saveCount: row.save_count,
      reactionCounts: ((reactionResult?.results ?? []) as Array<{ reaction_type: number; count: number }>).map((r) => ({
        reactionType: r.reaction_type,
        reactionCount: r.count,
      })),
      domainOfficialUser: domainShown === null ? null : nameOf(officialResult?.results?.[0]),
      closeupAttribution: nameOf(attributionResult?.results?.[0]),
      comments: ((commentResult?.results ?? []) as Array<Record<string, unknown>>).map(
        (comment): CommentSummary => ({
          id: String(comment.id),
          text: String(comment.text),
          segments: toSegments(String(comment.text), parseStoredTags(String(comment.tags)), parseTaggedUsers(comment.tagged_users as string | null), blockedHosts),
          createdAt: new Date(Number(comment.created_at)).toISOString(),
          replyCount: Number(comment.reply_count),
          likeCount: Number(comment.like_count),
          highlighted: comment.highlighted_by_pin_owner === 1,
          author:
            comment.author_visible === 1
              ? { username: String(comment.username), fullName: String(comment.full_name), imageSmallUrl: userImageUrl((comment.image_key as string | null) ?? null, "small") }
              : null,
        }),
      ),
      related: parts.related ? keysetPage((relatedResult?.results ?? []) as GridRow[], RELATED_PAGE_SIZE) : EMPTY_PAGE,
      tags: pinTagDots(tagResult?.results ?? [], viewerId, blockedHosts),
    },
  };
  return [lookup, besideValue];
}

function nameOf(row: unknown): { username: string; fullName: string } | null {
  const value = row as { username?: string; full_name?: string } | undefined;
  return value?.username ? { username: value.username, fullName: value.full_name ?? value.username } : null;
}

/** The home feed's page size, server-rendered and by HomefeedResource (spec 000 §4). */
export const HOME_FEED_PAGE_SIZE = 25;

export interface HomePinsPage {
  pins: GridPin[];
  /** The cursor of the next page; null at the end. */
  nextCursor: string | null;
}

/**
 * One page of the home feed: visible pins newest first (VISIBLE_IN_FEEDS), paged by keyset
 * cursor (after `cursor`, newest first). Fetches one row more than the page to know whether
 * another page exists.
 */
export async function listHomePinsPage(
  db: D1Database,
  cursor: { createdAt: number; id: number } | null,
  size = HOME_FEED_PAGE_SIZE,
): Promise<HomePinsPage> {
  const limit = Math.min(Math.max(Math.trunc(size), 1), 50);
  const { results } = await db
    .prepare(
      `SELECT ${GRID_COLUMNS}
       FROM pins p
       ${GRID_JOINS}
       WHERE ${VISIBLE_IN_FEEDS}
         AND (?1 IS NULL OR p.created_at < ?1 OR (p.created_at = ?1 AND p.id < ?2))
       ORDER BY p.created_at DESC, p.id DESC
       LIMIT ?3`,
    )
    .bind(cursor?.createdAt ?? null, cursor?.id ?? null, limit + 1)
    .all<GridRow>();
  const page = keysetPage(results, limit);
  return { pins: page.pins, nextCursor: page.endCursor };
}

/** A page's share image: one pin's rendition at a stored size. */
export interface CoverImage {
  url: string;
  width: number;
  height: number;
}

/**
 * The share image of the first pin `pinsSql` returns (a SELECT with an `id` column, already
 * filtered by the viewer's visibility rule): its 600x315 rendition, Open Graph's landscape
 * shape, or the nearest stored one. One statement, so it joins the page's batch.
 */
export function coverImageSql(pinsSql: string): string {
  return `SELECT c.url, c.width, c.height FROM pin_images c
          WHERE c.pin_id = (SELECT id FROM (${pinsSql}) LIMIT 1) AND c.size IN ('600x315', '736x', '564x', '474x')
          ORDER BY CASE c.size WHEN '600x315' THEN 0 WHEN '736x' THEN 1 WHEN '564x' THEN 2 ELSE 3 END
          LIMIT 1`;
}

/** The cover a coverImageSql statement found, or null. */
export function coverImageOf(result: D1Result | undefined): CoverImage | null {
  const row = (result?.results as CoverImage[] | undefined)?.[0];
  return row ? { url: row.url, width: row.width, height: row.height } : null;
}
