// Events arriving from the conversion tag (POST /ct/{tagId}/events/). The throttle's count and
// the tag's owner are read in one batch; a batch with any bad event is refused whole (a 400
// naming each field) and its events kept as errors for tag health; a good batch is stored
// through conversionStatement, with the tag's last fired event, in one more batch.
import { DomainError, badRequest, notFound, zodProblems, type FieldProblem } from "~/domain/errors.ts";
import { hitStatement, type RateRule } from "~/server/rate-limit.server.ts";
import { conversionStatement, emailSha256, type ConversionSource } from "./record.server.ts";
import { readTagEvent, tagBatchSchema, TAG_LIMITS } from "./tag.ts";
import type { ConversionEvent } from "./conversion.ts";

/**
 * A page sends one request for its visit and one for each action: 120 a minute from one address
 * to one tag is far past a shopper, and not past a busy office behind one address.
 */
const TAG_RATE_RULE: RateRule = { name: "conversion-tag:tag-ip", limit: 120, windowMs: 60_000 };
/** Every event arriving here came from the tag in a visitor's browser. */
const SOURCE: ConversionSource = "TAG";
/** Tag health reads the last week; errors are kept a month, then dropped by the writer. */
const ERROR_KEEP_MS = 30 * 86_400_000;

interface TagDelivery {
  tagId: number;
  /** The sender's address (an IPv6 address by its /64): the throttle's subject with the tag. */
  address: string;
  /** The body as sent, already bounded in size. */
  body: string;
}

export interface TagDeliveryResult {
  received: number;
  /** Events stored now; the rest had arrived before under the same event id. */
  stored: number;
}

function parseBody(body: string): { ok: true; events: unknown[] } | { ok: false; problems: FieldProblem[] } {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { ok: false, problems: [{ field: "body", reason: "convtag:errors.notJson" }] };
  }
  const batch = tagBatchSchema.safeParse(json);
  if (!batch.success) return { ok: false, problems: zodProblems(batch.error, "", json).slice(0, 5) };
  return { ok: true, events: batch.data.events };
}

/** A problem's values as stored (a bounded JSON object), or null. */
function valuesText(problem: FieldProblem): string | null {
  const text = problem.values === undefined ? null : JSON.stringify(problem.values);
  return text !== null && text.length <= 200 ? text : null;
}

/** Refused events as tag-health rows (the first problem of each), with the month's trimming. */
function errorStatements(db: D1Database, tagId: number, refused: Array<{ problem: FieldProblem; eventName: string | null }>, now: number): D1PreparedStatement[] {
  return [
    db.prepare("DELETE FROM conversion_tag_errors WHERE tag_id = ?1 AND received_at < ?2").bind(tagId, now - ERROR_KEEP_MS),
    ...refused
      .slice(0, TAG_LIMITS.maxBatch)
      .map(({ problem, eventName }) =>
        db
          .prepare("INSERT INTO conversion_tag_errors (tag_id, received_at, field, reason, reason_values, event_name) VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
          .bind(
            tagId,
            now,
            problem.field.replace(/^events\.\d+\./, "").slice(0, 100),
            problem.reason.slice(0, 100),
            valuesText(problem),
            eventName === null ? null : eventName.slice(0, 32),
          ),
      ),
  ];
}

/** Whether a tag exists: its script and its test page are served only for one that does. */
export async function tagExists(db: D1Database, tagId: number): Promise<boolean> {
  return (await db.prepare("SELECT 1 AS found FROM conversion_tags WHERE id = ?1").bind(tagId).first()) !== null;
}

/** Stores a tag's batch once per event id; throws 429, 404 or 400 (after keeping the errors). */
export async function recordTagEvents(db: D1Database, delivery: TagDelivery, now = Date.now()): Promise<TagDeliveryResult> {
  const { tagId } = delivery;
  const { statement: counting, windowStart } = hitStatement(db, TAG_RATE_RULE, `${tagId}:${delivery.address}`, now);
  const [counted, owner] = await db.batch<{ count?: number; ad_account_id?: number }>([counting, db.prepare("SELECT ad_account_id FROM conversion_tags WHERE id = ?1").bind(tagId)]);
  if ((counted?.results[0]?.count ?? 1) > TAG_RATE_RULE.limit) {
    throw new DomainError("rate_limited", { message: "api.rateLimited", retryAfterSeconds: Math.ceil((windowStart + TAG_RATE_RULE.windowMs - now) / 1000) });
  }
  const adAccountId = owner?.results[0]?.ad_account_id;
  if (adAccountId === undefined) throw notFound("convtag:errors.unknownTag");

  const parsed = parseBody(delivery.body);
  if (!parsed.ok) {
    await db.batch(errorStatements(db, tagId, [{ problem: parsed.problems[0]!, eventName: null }], now));
    throw badRequest(parsed.problems);
  }
  const events: Array<{ event: ConversionEvent; email: { address: string } | null }> = [];
  const problems: FieldProblem[] = [];
  const refused: Array<{ problem: FieldProblem; eventName: string | null }> = [];
  parsed.events.forEach((input, index) => {
    const read = readTagEvent(input, index, now);
    if (read.ok) events.push({ event: read.event, email: read.email });
    else {
      problems.push(...read.problems);
      refused.push({ problem: read.problems[0]!, eventName: read.eventName });
    }
  });
  if (problems.length > 0) {
    await db.batch(errorStatements(db, tagId, refused, now));
    throw badRequest(problems.slice(0, 20));
  }
  // An address sent in the clear is hashed here and goes no further.
  const stored = await Promise.all(events.map(async ({ event, email }) => (email === null ? event : { ...event, emailSha256: await emailSha256(email.address) })));
  const last = stored[stored.length - 1]!;
  const results = await db.batch([
    ...stored.map((event) => conversionStatement(db, { adAccountId, tagId, source: SOURCE, event, receivedAt: now })),
    db.prepare("UPDATE conversion_tags SET last_fired_event = json_object('event_type', ?2, 'fired_at', ?3) WHERE id = ?1").bind(tagId, last.eventName, now),
  ]);
  return { received: stored.length, stored: results.slice(0, stored.length).reduce((sum, result) => sum + (result.meta.changes ?? 0), 0) };
}
