// What a draft's item or a story page shows: a reference to an upload (or a file still on the
// person's device), never its bytes. Shared by pin drafts and story drafts, which both store it.
import { z } from "zod";

const MEDIA_TYPES = ["image", "video"] as const;
/** Where the media is: still on the person's device, or uploaded to our storage. */
const MEDIA_SOURCES = ["local", "uploaded"] as const;

export interface MediaRef {
  type: (typeof MEDIA_TYPES)[number];
  source: (typeof MEDIA_SOURCES)[number];
  /** The upload's id in storage, or the device's local id before the upload ends. */
  ref: string;
  width: number | null;
  height: number | null;
  /** A video's length as the person's browser measured it; null for images. */
  durationMs?: number | null | undefined;
}

export const mediaRefSchema = z.strictObject({
  type: z.enum(MEDIA_TYPES),
  source: z.enum(MEDIA_SOURCES),
  ref: z.string().min(1).max(200),
  width: z.number().int().min(1).max(100_000).nullable().default(null),
  height: z.number().int().min(1).max(100_000).nullable().default(null),
  durationMs: z.number().int().min(0).max(24 * 60 * 60 * 1000).nullable().optional(),
});
