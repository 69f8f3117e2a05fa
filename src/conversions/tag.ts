// The conversion tag's wire format (docs/decisions.md, "Conversion tag"): what the script in a
// visitor's browser POSTs to /ct/{tagId}/events/, read into the shared event shape
// (conversion.ts). Pure: the endpoint, its tests and the hub's manual-setup examples share it.
import { z } from "zod";
import { CONVERSION_EVENT_NAMES, CONVERSION_LIMITS, conversionEventSchema, type ConversionEvent, type ConversionEventName } from "./conversion.ts";
import { zodProblems, type FieldProblem } from "~/domain/errors.ts";

export const TAG_LIMITS = {
  /** A page sends its events together; twenty is more than any page fires at once. */
  maxBatch: 20,
  /** Twenty events of a few short fields each fit easily. */
  maxBodyBytes: 16 * 1024,
  /** An address is hashed on arrival and never kept; anything longer is not an address. */
  maxEmailLength: 254,
} as const;

/** The events the page may fire through `pintrk('track', name, …)`; page visits fire by themselves. */
export const TAG_TRACKED_EVENTS: ConversionEventName[] = CONVERSION_EVENT_NAMES.filter((name) => name !== "page_visit");

/** One event as the script sends it: snake_case, the value in the currency's units. */
const wireEventSchema = z.strictObject({
  event_name: z.enum(CONVERSION_EVENT_NAMES),
  event_id: z.string().trim().min(1).max(CONVERSION_LIMITS.eventIdLength),
  value: z
    .number()
    .min(0)
    .max(CONVERSION_LIMITS.maxValueMicro / 1_000_000)
    .optional(),
  currency: z
    .string()
    .regex(/^[A-Za-z]{3}$/)
    .optional(),
  order_quantity: z.number().int().min(0).max(CONVERSION_LIMITS.maxQuantity).optional(),
  /** The promoted pin click the visitor arrived from (the landing URL's `epik`). */
  click_id: z.string().optional(),
  /** The visitor's e-mail address, or its SHA-256 (hex): hashed on arrival, never stored as sent. */
  em: z.string().max(TAG_LIMITS.maxEmailLength).optional(),
  /** Fired from the test page or with `test: true`: shown live in the hub, never counted. */
  is_test: z.boolean().optional(),
});
type WireEvent = z.output<typeof wireEventSchema>;

export const tagBatchSchema = z.strictObject({
  events: z.array(z.unknown()).min(1).max(TAG_LIMITS.maxBatch),
});

const SHA256_HEX = /^[0-9a-fA-F]{64}$/;
const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** What the e-mail field asks for: a hash given, an address to hash, or nothing usable. */
export function emailOf(em: string | undefined): { hash: string } | { address: string } | null | "invalid" {
  if (em === undefined || em.trim() === "") return null;
  if (SHA256_HEX.test(em)) return { hash: em.toLowerCase() };
  return EMAIL.test(em.trim()) ? { address: em } : "invalid";
}

/** One wire event read into the shared shape, or the problems that refuse it (fields prefixed `events.N.`). */
export type TagEventResult = { ok: true; event: ConversionEvent; email: { address: string } | null } | { ok: false; problems: FieldProblem[]; eventName: string | null };

/**
 * Reads one event of a batch. The time is the server's: the tag reports what happens now, and a
 * visitor's clock is not to be trusted with the results' days.
 */
export function readTagEvent(input: unknown, index: number, now: number): TagEventResult {
  const prefix = `events.${index}`;
  const eventName = typeof input === "object" && input !== null && typeof (input as Record<string, unknown>)["event_name"] === "string" ? String((input as Record<string, unknown>)["event_name"]).slice(0, 32) : null;
  const parsed = wireEventSchema.safeParse(input);
  if (!parsed.success) {
    return {
      ok: false,
      eventName,
      problems: zodProblems(parsed.error, prefix, input).slice(0, 5),
    };
  }
  const wire: WireEvent = parsed.data;
  const email = emailOf(wire.em);
  if (email === "invalid") return { ok: false, eventName, problems: [{ field: `${prefix}.em`, reason: "validation.invalidFormat" }] };
  const shared = conversionEventSchema.safeParse({
    eventName: wire.event_name,
    eventId: wire.event_id,
    eventTime: now,
    isTest: wire.is_test ?? false,
    valueMicro: wire.value === undefined ? null : Math.round(wire.value * 1_000_000),
    currency: wire.currency === undefined ? null : wire.currency.toUpperCase(),
    orderQuantity: wire.order_quantity ?? null,
    clickId: wire.click_id === undefined || wire.click_id === "" ? null : wire.click_id,
    emailSha256: email !== null && "hash" in email ? email.hash : null,
  });
  if (!shared.success) {
    const names: Record<string, string> = { clickId: "click_id", valueMicro: "value", orderQuantity: "order_quantity", emailSha256: "em" };
    return {
      ok: false,
      eventName,
      problems: shared.error.issues.slice(0, 5).map((issue) => ({ field: `${prefix}.${names[String(issue.path[0])] ?? String(issue.path[0])}`, reason: "validation.invalidFormat" })),
    };
  }
  return { ok: true, event: shared.data, email: email !== null && "address" in email ? email : null };
}
