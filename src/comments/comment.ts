// The comment shapes of the API (spec 000 §3 "Aggregated comment"): what a client may send,
// and the Comment JSON every call answers with.
// Pure: shared by the server (src/comments/*.server.ts) and the island.
import { z } from "zod";

export const COMMENT_TEXT_MAX = 500;
export const COMMENT_TAGS_MAX = 20;
/** Raw input is refused past this before trimming, so no parse ever walks a huge string. */
const COMMENT_RAW_MAX = 5000;
export const DID_IT_DETAILS_MAX = 500;

const idString = z.string().regex(/^\d{1,18}$/, "ids are 1 to 18 digits");

/** Why a text is refused, as an i18n key suffix the server and the island both translate. */
export type TextProblem = "empty" | "tooLong";

/** The problem with a comment's text after trimming, or null when it may be posted. */
export function textProblem(raw: string, max = COMMENT_TEXT_MAX): TextProblem | null {
  const text = raw.trim();
  if (text.length === 0) return "empty";
  return text.length > max ? "tooLong" : null;
}

/** Plain text, trimmed, 1..500 characters. Messages are the TextProblem names. */
export const commentTextSchema = z
  .string()
  .max(COMMENT_RAW_MAX)
  .trim()
  .min(1, "empty")
  .max(COMMENT_TEXT_MAX, "tooLong");

const tagSchema = z.strictObject({
  user_id: idString,
  offset: z.number().int().min(0).max(COMMENT_RAW_MAX),
  length: z.number().int().min(1).max(COMMENT_RAW_MAX),
});
export type Tag = z.infer<typeof tagSchema>;

export const tagsSchema = z.array(tagSchema).max(COMMENT_TAGS_MAX);

/**
 * Tags count UTF-16 code units in the text AS SENT. The server trims the text; this moves each
 * tag by the leading whitespace removed and answers null when any tag falls outside the
 * trimmed text or two tags overlap (then the whole request is refused, nothing half-applied).
 */
export function alignTags(raw: string, tags: readonly Tag[]): Tag[] | null {
  const lead = raw.length - raw.trimStart().length;
  const length = raw.trim().length;
  const moved = tags.map((tag) => ({ ...tag, offset: tag.offset - lead })).sort((a, b) => a.offset - b.offset);
  let end = 0;
  for (const tag of moved) {
    if (tag.offset < end || tag.offset + tag.length > length) return null;
    end = tag.offset + tag.length;
  }
  return moved;
}

/** The stored tags (0001_core.sql writes `userId`; older rows may say `user_id`). */
export function parseStoredTags(json: string): Tag[] {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return [];
  }
  if (!Array.isArray(value)) return [];
  const tags: Tag[] = [];
  for (const item of value.slice(0, 20) as Array<Record<string, unknown>>) {
    const userId = item?.userId ?? item?.user_id;
    if (typeof item?.offset !== "number" || typeof item.length !== "number") continue;
    if ((typeof userId !== "string" && typeof userId !== "number") || !/^\d{1,18}$/.test(String(userId))) continue;
    tags.push({ user_id: String(userId), offset: item.offset, length: item.length });
  }
  return tags;
}

export const storedTags = (tags: readonly Tag[]) => JSON.stringify(tags.map((tag) => ({ userId: tag.user_id, offset: tag.offset, length: tag.length })));

const userRefSchema = z.object({
  id: idString,
  username: z.string(),
  full_name: z.string(),
  image_medium_url: z.string().nullable(),
});

/**
 * The author of a comment or tried-it post whose profile the viewer may not see (a private,
 * under-16 or limited account): the text stays, the person is not named, linked or shown.
 */
export const ANONYMOUS_USER = Object.freeze({ id: "0", username: "", full_name: "", image_medium_url: null });
export const isAnonymous = (user: { id: string }) => user.id === ANONYMOUS_USER.id;

const taggedUserSchema = z.object({ id: idString, username: z.string(), full_name: z.string() });
export type TaggedUser = z.infer<typeof taggedUserSchema>;

/**
 * The Comment JSON answered by every comment call. Times are epoch milliseconds.
 * @public the answer's contract, kept as a schema so a client or test can check an answer against it
 */
export const commentSchema = z.object({
  id: idString,
  pin_id: idString,
  parent_id: idString.nullable(),
  user: userRefSchema,
  text: z.string(),
  tags: z.array(tagSchema),
  tagged_users: z.array(taggedUserSchema),
  reaction_counts: z.record(z.string(), z.number().int().min(0)),
  reaction_by_me: z.union([z.literal(0), z.literal(1)]),
  helpful_count: z.number().int().min(0),
  marked_helpful_by_me: z.boolean(),
  highlighted_by_pin_owner: z.boolean(),
  comment_count: z.number().int().min(0),
  created_at: z.number().int(),
  updated_at: z.number().int(),
  can_edit: z.boolean(),
  can_delete: z.boolean(),
  can_highlight: z.boolean(),
});
export type Comment = z.infer<typeof commentSchema>;

/**
 * A tried-it post, as every tried-it call answers it.
 * @public the answer's contract, kept as a schema so a client or test can check an answer against it
 */
export const didItPostSchema = z.object({
  id: idString,
  pin_id: idString,
  user: userRefSchema,
  details: z.string(),
  image_url: z.string().nullable(),
  like_count: z.number().int().min(0),
  liked_by_me: z.boolean(),
  helpful_count: z.number().int().min(0),
  marked_helpful_by_me: z.boolean(),
  comment_count: z.number().int().min(0),
  created_at: z.number().int(),
});
export type DidItPost = z.infer<typeof didItPostSchema>;

/**
 * Comment features a person may switch off (AggregatedCommentFeaturesResource); a feature not
 * in their map is on. allow_comments: others may comment on my pins. allow_mentions: others
 * may tag me in a comment.
 */
export const COMMENT_FEATURES = ["allow_comments", "allow_mentions"] as const;
export const featureMapSchema = z.strictObject({ allow_comments: z.boolean().optional(), allow_mentions: z.boolean().optional() });
export type FeatureMap = z.infer<typeof featureMapSchema>;
