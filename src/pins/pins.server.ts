// Pin reads from D1. A pin page costs one round trip: every statement goes in one batch.
import { mediaUrl, type PinImageSize } from "../media/media.ts";
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
import type { PinTableRow } from "./pin-row.ts";

export interface UserSummary {
  id: string;
  username: string;
  fullName: string;
  imageMediumUrl: string | null;
  isVerifiedMerchant: boolean;
  followerCount: number;
}

export interface BoardSummary {
  id: string;
  name: string;
  slug: string;
  url: string;
}

export interface VideoFormat {
  format: string;
  url: string;
  mimeType: string;
  width: number;
  height: number;
  durationMs: number;
  thumbnail: string;
  captionsUrls: Record<string, string>;
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
  seoTitle: string | null;
  seoDescription: string | null;
  seoNoindexReason: string | null;
  isHidden: boolean;
  isUnsafe: boolean;
  isDeleted: boolean;
  isPromoted: boolean;
  commentsDisabled: boolean;
  commentCount: number;
  saveCount: number;
  reactionCounts: Array<{ reactionType: number; reactionCount: number }>;
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

/** A pins row joined with its pinner and board (PIN_SELECT). */
interface PinRow extends PinTableRow {
  pinner_username: string;
  pinner_full_name: string;
  pinner_image_key: string | null;
  pinner_is_verified_merchant: number;
  pinner_follower_count: number;
  board_name: string | null;
  board_slug: string | null;
  board_privacy: string | null;
}

export function userImageUrl(imageKey: string | null, size: "small" | "medium" | "large" | "xlarge"): string | null {
  return imageKey ? mediaUrl(`${imageKey}/${size}.jpg`) : null;
}

const PIN_SELECT = `
  SELECT p.*, u.username AS pinner_username, u.full_name AS pinner_full_name, u.image_key AS pinner_image_key,
         u.is_verified_merchant AS pinner_is_verified_merchant, u.follower_count AS pinner_follower_count,
         b.name AS board_name, b.slug AS board_slug, b.privacy AS board_privacy
  FROM pins p
  JOIN users u ON u.id = p.pinner_id
  LEFT JOIN boards b ON b.id = p.board_id
  WHERE p.id = ?1`;

/**
 * Who may see a pin at all: anyone when it sits on a public board (or on no board, the
 * profile's boardless pins), otherwise only its pinner. Collaborators join with issue 5.
 */
function visibleTo(row: PinRow, viewerId: number | null): boolean {
  return row.board_id === null || row.board_privacy === "public" || row.pinner_id === viewerId;
}

export type PinLookup = { status: "found"; pin: PinDetail } | { status: "missing" } | { status: "deleted" };

export async function getPin(db: D1Database, pinId: string, viewerId: number | null = null): Promise<PinLookup> {
  const [pinResult, imageResult, videoResult, reactionResult, blockedResult] = await db.batch([
    db.prepare(PIN_SELECT).bind(pinId),
    db.prepare("SELECT size, url, width, height, dominant_color FROM pin_images WHERE pin_id = ?1").bind(pinId),
    db.prepare("SELECT * FROM pin_video_formats WHERE pin_id = ?1 ORDER BY format").bind(pinId),
    db.prepare("SELECT reaction_type, count FROM pin_reaction_counts WHERE pin_id = ?1 ORDER BY reaction_type").bind(pinId),
    db.prepare("SELECT domain FROM link_domains WHERE is_blocked = 1"),
  ]);
  const row = (pinResult?.results as PinRow[] | undefined)?.[0];
  if (!row || !visibleTo(row, viewerId)) return { status: "missing" };
  if (row.is_deleted) return { status: "deleted" };

  const images: PinImages = {};
  for (const image of (imageResult?.results ?? []) as Array<{ size: PinImageSize; url: string; width: number; height: number; dominant_color: string }>) {
    images[image.size] = { url: image.url, width: image.width, height: image.height, dominantColor: image.dominant_color };
  }
  const blockedHosts = new Set(((blockedResult?.results ?? []) as Array<{ domain: string }>).map((r) => r.domain.toLowerCase()));
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
  const showBoard = row.board_id !== null && row.board_privacy === "public" && row.board_name !== null;
  return {
    status: "found",
    pin: {
      id: String(row.id),
      kind: row.kind,
      title: row.title,
      gridTitle: row.grid_title,
      description: row.description,
      descriptionHtml: row.description_html,
      altText: row.alt_text ?? row.auto_alt_text,
      dominantColor: row.dominant_color,
      domain: row.domain,
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
      board: showBoard
        ? { id: String(row.board_id), name: row.board_name!, slug: row.board_slug!, url: `/${row.pinner_username}/${row.board_slug}/` }
        : null,
      richMetadata: parseJsonColumn(richMetadataSchema, row.rich_metadata),
      storyPinData: parseJsonColumn(storyPinDataSchema, row.story_pin_data),
      carouselData: parseJsonColumn(carouselDataSchema, row.carousel_data),
      mediaAttribution: parseJsonColumn(mediaAttributionSchema, row.media_attribution),
      seoTitle: row.seo_title,
      seoDescription: row.seo_description,
      seoNoindexReason: row.seo_noindex_reason,
      isHidden: row.is_hidden === 1,
      isUnsafe: row.is_unsafe === 1,
      isDeleted: row.is_deleted === 1,
      isPromoted: row.is_promoted === 1,
      commentsDisabled: row.comments_disabled === 1,
      commentCount: row.comment_count,
      saveCount: row.save_count,
      reactionCounts: ((reactionResult?.results ?? []) as Array<{ reaction_type: number; count: number }>).map((r) => ({
        reactionType: r.reaction_type,
        reactionCount: r.count,
      })),
    },
  };
}

export const HOME_PAGE_SIZE = 50;

/** Newest visible pins on public boards, for the home grid. */
export async function listHomePins(db: D1Database, limit = HOME_PAGE_SIZE): Promise<GridPin[]> {
  const { results } = await db
    .prepare(
      `SELECT p.id, p.kind, p.title, p.grid_title, p.alt_text, p.auto_alt_text, p.dominant_color,
              i.url, i.width, i.height, i2.url AS url_2x
       FROM pins p
       JOIN pin_images i ON i.pin_id = p.id AND i.size = '236x'
       LEFT JOIN pin_images i2 ON i2.pin_id = p.id AND i2.size = '474x'
       LEFT JOIN boards b ON b.id = p.board_id
       WHERE p.is_deleted = 0 AND p.is_hidden = 0 AND (p.board_id IS NULL OR b.privacy = 'public')
       ORDER BY p.created_at DESC, p.id DESC
       LIMIT ?1`,
    )
    .bind(Math.min(Math.max(limit, 1), 100))
    .all<{
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
    }>();
  return results.map((row) => ({
    id: String(row.id),
    kind: row.kind,
    title: row.grid_title || row.title,
    altText: row.alt_text ?? row.auto_alt_text,
    dominantColor: row.dominant_color,
    image: { url: row.url, width: row.width, height: row.height },
    image2x: row.url_2x,
  }));
}
