// One conversion event as every source hands it over once it has been read: the tag in a
// visitor's browser, the conversions API and uploaded files each parse their own wire format
// into this shape, so they are stored, deduplicated and attributed the same way. Pure: shared
// by the server and the hub's payload helper.
import { z } from "zod";

/** The events the tag and the API report (spec 002 "Conversion and tag screens"). */
export const CONVERSION_EVENT_NAMES = ["page_visit", "add_to_cart", "checkout", "lead", "signup"] as const;
export type ConversionEventName = (typeof CONVERSION_EVENT_NAMES)[number];

export const CONVERSION_LIMITS = {
  eventIdLength: 128,
  /** An event may arrive up to a week late (an offline upload, a queued server event)… */
  maxAgeMs: 7 * 86_400_000,
  /** …and never from the future beyond clock skew. */
  maxSkewMs: 5 * 60_000,
  /** One purchase of at most a billion in the account's currency. */
  maxValueMicro: 1_000_000_000 * 1_000_000,
  maxQuantity: 100_000,
} as const;

/** A promoted pin click's id as the attribution ping carries it: an unsigned 64-bit decimal. */
const CLICK_ID = /^(0|[1-9]\d{0,19})$/;
/** A SHA-256 of the trimmed, lower-cased e-mail address, as lowercase hex. */
const EMAIL_SHA256 = /^[0-9a-f]{64}$/;

export const conversionEventSchema = z.object({
  eventName: z.enum(CONVERSION_EVENT_NAMES),
  eventId: z.string().trim().min(1).max(CONVERSION_LIMITS.eventIdLength),
  /** Epoch milliseconds. */
  eventTime: z.number().int().nonnegative(),
  isTest: z.boolean().default(false),
  valueMicro: z.number().int().min(0).max(CONVERSION_LIMITS.maxValueMicro).nullable().default(null),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/)
    .nullable()
    .default(null),
  orderQuantity: z.number().int().min(0).max(CONVERSION_LIMITS.maxQuantity).nullable().default(null),
  clickId: z.string().regex(CLICK_ID).nullable().default(null),
  emailSha256: z.string().regex(EMAIL_SHA256).nullable().default(null),
});
export type ConversionEvent = z.output<typeof conversionEventSchema>;

/** Whether an event's time is one the results may count, seen from `now`. */
export function eventTimeProblem(eventTime: number, now: number): "too_old" | "in_future" | null {
  if (eventTime < now - CONVERSION_LIMITS.maxAgeMs) return "too_old";
  if (eventTime > now + CONVERSION_LIMITS.maxSkewMs) return "in_future";
  return null;
}

/** The form of an address that is hashed for matching: trimmed and lower-cased. */
export const normalizedEmail = (email: string) => email.trim().toLowerCase();
