// When a scheduled pin publishes: the date and time a person chose, read in their own time zone,
// and the window a schedule must fall in. Shared by the server (which decides) and the builder
// (which shows the same problems before asking).
import type { FieldProblem } from "~/domain/errors.ts";
import type { PinDraft } from "./drafts.ts";

/**
 * A schedule must be at least this far ahead (the cron that publishes runs each minute, and a
 * time already passing would publish at once) and at most this far (our choice, as large
 * pin schedulers allow: docs/decisions.md).
 */
const SCHEDULE_LIMITS = {
  minimumLeadMinutes: 10,
  maximumAheadDays: 30,
} as const;

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** The offset of `timeZone` from UTC at the instant `utc`, in milliseconds (Paris in winter: +3,600,000). */
function zoneOffset(utc: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(new Date(utc));
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((each) => each.type === type)?.value);
  const asUtc = Date.UTC(part("year"), part("month") - 1, part("day"), part("hour"), part("minute"), part("second"));
  return asUtc - Math.floor(utc / 1000) * 1000;
}

/**
 * The instant a wall-clock date ("2026-12-01") and time ("09:30") name in a time zone. A time
 * that a clock change skips (02:30 on a spring-forward night) falls after the change, as
 * calendar apps place it; a time that happens twice takes the first.
 */
export function zonedTimeToUtc(date: string, time: string, timeZone: string): number {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  const [hour, minute] = time.split(":").map(Number) as [number, number];
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  // Zones change their offset at most once within a day: the offsets half a day either side
  // give every reading of the wall time; a reading is real when the zone has that offset then.
  const before = zoneOffset(wall - DAY / 2, timeZone);
  const after = zoneOffset(wall + DAY / 2, timeZone);
  const real = [wall - before, wall - after].filter((instant) => wall - zoneOffset(instant, timeZone) === instant);
  return real.length > 0 ? Math.min(...real) : wall - before;
}

/**
 * The problems with a draft's schedule when it is to be scheduled, one per field: each part
 * chosen, and the instant inside the window from `now`. Field formats are validateDraft's.
 */
export function scheduleProblems(draft: Pick<PinDraft, "scheduledDate" | "scheduledTime" | "timeZone">, now: number): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (draft.scheduledDate === null) problems.push({ field: "scheduledDate", reason: "validation.required" });
  if (draft.scheduledTime === null) problems.push({ field: "scheduledTime", reason: "validation.required" });
  if (draft.timeZone === null) problems.push({ field: "timeZone", reason: "validation.required" });
  if (problems.length > 0 || draft.scheduledDate === null || draft.scheduledTime === null || draft.timeZone === null) return problems;
  const at = zonedTimeToUtc(draft.scheduledDate, draft.scheduledTime, draft.timeZone);
  if (at < now + SCHEDULE_LIMITS.minimumLeadMinutes * MINUTE) {
    return [{ field: "scheduledTime", reason: "builder:validation.scheduleTooSoon", values: { minutes: SCHEDULE_LIMITS.minimumLeadMinutes } }];
  }
  if (at > now + SCHEDULE_LIMITS.maximumAheadDays * DAY) {
    return [{ field: "scheduledDate", reason: "builder:validation.scheduleTooFar", values: { days: SCHEDULE_LIMITS.maximumAheadDays } }];
  }
  return [];
}

/** The instant a draft is scheduled for; only for a draft whose scheduleProblems are none. */
export function scheduledInstant(draft: Pick<PinDraft, "scheduledDate" | "scheduledTime" | "timeZone">): number {
  return zonedTimeToUtc(draft.scheduledDate!, draft.scheduledTime!, draft.timeZone!);
}
