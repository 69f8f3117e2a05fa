// The hub's tag and conversion health, as numbers (tag-health.server.ts reads them): the days
// shown, and each event name's conversions per day with the share matched to a person and the
// share carrying a promoted pin's click id. Pure, so the sums are tested without storage.

/** Health covers the last week, today included. */
const HEALTH_DAYS = 7;
const DAY_MS = 86_400_000;

/** The UTC days shown, oldest first. */
export function healthDays(now: number): string[] {
  return Array.from({ length: HEALTH_DAYS }, (_, index) => new Date(now - (HEALTH_DAYS - 1 - index) * DAY_MS).toISOString().slice(0, 10));
}

export interface TestEvent {
  id: string;
  eventName: string;
  eventId: string;
  receivedAt: number;
  valueMicro: number | null;
  currency: string | null;
  orderQuantity: number | null;
  clickId: string | null;
}

/** One stored group: an event name's conversions on one day. */
export interface ConversionHealthRow {
  day: string;
  event_name: string;
  n: number;
  matched: number;
  clicked: number;
}

export interface TagHealth {
  tag: { id: string; name: string; adAccountId: string; lastFired: { event_type: string; fired_time: number } | null };
  days: string[];
  eventsPerDay: Array<{ day: string; count: number }>;
  errors: Array<{ field: string; reason: string; values: Record<string, string | number>; count: number; lastAt: number }>;
  conversions: ConversionHealthRow[];
  testEvents: TestEvent[];
}

export interface ConversionHealthLine {
  eventName: string;
  /** Conversions on each of `days`, in order. */
  perDay: number[];
  total: number;
  /** Shares of the total, 0 to 1, to three decimals (0 without conversions). */
  matchedShare: number;
  clickShare: number;
}

const share = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 1000) / 1000);

/** One line per event name that occurred, in the order of `names`. */
export function conversionHealth(rows: readonly ConversionHealthRow[], days: readonly string[], names: readonly string[]): ConversionHealthLine[] {
  return names.flatMap((eventName) => {
    const own = rows.filter((row) => row.event_name === eventName && days.includes(row.day));
    if (own.length === 0) return [];
    const total = own.reduce((sum, row) => sum + row.n, 0);
    return [
      {
        eventName,
        perDay: days.map((day) => own.filter((row) => row.day === day).reduce((sum, row) => sum + row.n, 0)),
        total,
        matchedShare: share(
          own.reduce((sum, row) => sum + row.matched, 0),
          total,
        ),
        clickShare: share(
          own.reduce((sum, row) => sum + row.clicked, 0),
          total,
        ),
      },
    ];
  });
}
