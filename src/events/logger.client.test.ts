import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { EVENT_TYPE, EventLogger, chunk, FAST_FLUSH_VIEW_TYPES, LOGGER, RETRY_STATUSES, TEXT_USAGE, TextUsageLogger, VIEW_TYPE, toNanoseconds } from "./logger.client.ts";
import { ImpressionTracker } from "./impressions.client.ts";
import { pinIdOfHref, viewOf } from "./view.client.ts";

interface Sent {
  events: { clientUUID: string; event_type: number }[];
  report_time: string;
  keepalive: boolean;
}

function fakeTransport(statuses: (number | null)[] = []) {
  const sent: Sent[] = [];
  return {
    sent,
    transport: {
      send: (body: string, keepalive: boolean) => {
        const { options } = JSON.parse(body) as { options: Omit<Sent, "keepalive"> };
        sent.push({ ...options, keepalive });
        const status = statuses.length > 0 ? statuses.shift()! : 200;
        return Promise.resolve(status);
      },
    },
  };
}

let counter = 0;
const make = (statuses: (number | null)[] = [], isDesktop = true) => {
  const fake = fakeTransport(statuses);
  const logger = new EventLogger({ transport: fake.transport, isDesktop, uuid: () => `evt-${String(++counter).padStart(8, "0")}` });
  return { ...fake, logger };
};

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(1_763_820_000_000);
});
afterEach(() => vi.useRealTimers());

describe("the event logger's flush timing (spec 000 §9)", () => {
  it("flushes 10 s after the first event on desktop, not before", async () => {
    const { logger, sent } = make();
    logger.log({ event_type: EVENT_TYPE.CLICK });
    await vi.advanceTimersByTimeAsync(LOGGER.flushIntervalMs - 1);
    expect(sent).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toHaveLength(1);
    expect(LOGGER.flushIntervalMs).toBe(10_000);
  });

  it.each(FAST_FLUSH_VIEW_TYPES.map((viewType) => [viewType]))("flushes event 13 for view type %i within 300 ms", async (viewType) => {
    const { logger, sent } = make();
    logger.log({ event_type: EVENT_TYPE.CLICK });
    logger.log({ event_type: EVENT_TYPE.VIEW, view_type: viewType });
    await vi.advanceTimersByTimeAsync(299);
    expect(sent).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.events).toHaveLength(2);
    expect(LOGGER.fastFlushMs).toBe(300);
  });

  it("keeps the 10 s timer for event 13 of other view types and for other events of listed view types", async () => {
    const { logger, sent } = make();
    logger.log({ event_type: EVENT_TYPE.VIEW, view_type: VIEW_TYPE.HOME });
    logger.log({ event_type: EVENT_TYPE.CLICK, view_type: VIEW_TYPE.PIN });
    await vi.advanceTimersByTimeAsync(9_999);
    expect(sent).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toHaveLength(1);
  });

  it("flushes at once when the buffer exceeds 20,480 bytes", async () => {
    const { logger, sent } = make();
    const filler = "x".repeat(1_000);
    let events = 0;
    while (sent.length === 0) {
      logger.log({ event_type: EVENT_TYPE.CLICK, aux_data: { filler } });
      events += 1;
      await vi.advanceTimersByTimeAsync(0);
    }
    const bytesPerEvent = new TextEncoder().encode(JSON.stringify(sent[0]!.events[0])).length;
    expect(events).toBe(Math.floor(LOGGER.maxBufferBytes / bytesPerEvent) + 1);
    expect(LOGGER.maxBufferBytes).toBe(20_480);
  });

  it("flushes non-desktop buffers every 10 s", async () => {
    const { logger, sent } = make([], false);
    await vi.advanceTimersByTimeAsync(5_000);
    logger.log({ event_type: EVENT_TYPE.CLICK });
    await vi.advanceTimersByTimeAsync(4_999);
    expect(sent).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toHaveLength(1);
    logger.log({ event_type: EVENT_TYPE.CLICK });
    await vi.advanceTimersByTimeAsync(LOGGER.nonDesktopFlushIntervalMs);
    expect(sent).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(LOGGER.nonDesktopFlushIntervalMs);
    expect(sent).toHaveLength(2); // nothing buffered, nothing sent
    logger.stop();
  });

  it("stamps each event with its own id, nanosecond time and app state", () => {
    const { logger } = make();
    logger.appState = "background";
    const a = logger.log({ event_type: EVENT_TYPE.CLICK });
    const b = logger.log({ event_type: EVENT_TYPE.CLICK });
    expect(a.clientUUID).not.toBe(b.clientUUID);
    expect(a.time).toBe("1763820000000000000");
    expect(a.appState).toBe("background");
    expect(toNanoseconds(1_763_820_000_123)).toBe("1763820000123000000");
  });
});

describe("the event logger's retries (spec 000 §8, §9)", () => {
  it.each<[number | null]>([[null], ...RETRY_STATUSES.map((status): [number | null] => [status])])("retries on %s up to 5 times, from 1,000 ms doubling", async (status) => {
    const { logger, sent } = make(Array.from({ length: 10 }, () => status));
    logger.log({ event_type: EVENT_TYPE.CLICK });
    await logger.flush().catch(() => undefined);
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toHaveLength(1);
    const delays = [1_000, 2_000, 4_000, 8_000, 16_000];
    for (const [index, delay] of delays.entries()) {
      await vi.advanceTimersByTimeAsync(delay - 1);
      expect(sent).toHaveLength(index + 1);
      await vi.advanceTimersByTimeAsync(1);
      expect(sent).toHaveLength(index + 2);
    }
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sent).toHaveLength(1 + LOGGER.maxRetries);
    expect(new Set(sent.map((batch) => batch.events[0]!.clientUUID)).size).toBe(1);
    expect(LOGGER.firstRetryDelayMs).toBe(1_000);
  });

  it("treats a thrown send as no status code", async () => {
    const logger = new EventLogger({ transport: { send: vi.fn().mockRejectedValueOnce(new TypeError("offline")).mockResolvedValue(200) }, isDesktop: true });
    logger.log({ event_type: EVENT_TYPE.CLICK });
    void logger.flush();
    await vi.advanceTimersByTimeAsync(0);
    expect(logger.retrying).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(logger.retrying).toBe(0);
  });

  it.each([[400], [403], [413], [429], [500]])("drops a batch answered %i (resending cannot help)", async (status) => {
    const { logger, sent } = make([status]);
    logger.log({ event_type: EVENT_TYPE.CLICK });
    await logger.flush();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sent).toHaveLength(1);
  });

  it("keeps batches within the server's bounds (100 events, 60 KiB)", () => {
    const entry = (bytes: number) => ({ event: { clientUUID: "evt-00000000", event_type: 1, time: "1", appState: "active" as const }, bytes });
    expect(chunk(Array.from({ length: 250 }, () => entry(100))).map((batch) => batch.length)).toEqual([100, 100, 50]);
    expect(chunk(Array.from({ length: 7 }, () => entry(20_000))).map((batch) => batch.length)).toEqual([3, 3, 1]);
    expect(LOGGER.maxBatchEvents).toBe(100);
  });
});

describe("page hide", () => {
  it("sends the buffer and waiting retries with keepalive, within 64 KiB", async () => {
    const { logger, sent } = make([503]);
    logger.log({ event_type: EVENT_TYPE.CLICK });
    await logger.flush();
    expect(logger.retrying).toBe(1);
    logger.log({ event_type: EVENT_TYPE.CLICK });
    logger.flushOnHide();
    await vi.advanceTimersByTimeAsync(0);
    expect(sent.slice(1).map((batch) => batch.keepalive)).toEqual([true, true]);
    expect(logger.retrying).toBe(0);
    expect(logger.buffered).toBe(0);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sent).toHaveLength(3);
  });

  it("sends past the 64 KiB keepalive quota without keepalive", async () => {
    const { logger, sent } = make();
    const filler = "x".repeat(10_000);
    for (let i = 0; i < 12; i++) logger.log({ event_type: EVENT_TYPE.CLICK, aux_data: { filler } });
    await logger.flush(); // the buffer limit flushed some already; start from empty
    sent.length = 0;
    for (let i = 0; i < 12; i++) logger["buffer"].push({ event: { clientUUID: `evt-big-${i}0000`, event_type: 1, time: "1", appState: "active", aux_data: { filler } }, bytes: 10_080 });
    logger.flushOnHide();
    await vi.advanceTimersByTimeAsync(0);
    expect(sent.length).toBeGreaterThan(1);
    expect(sent[0]!.keepalive).toBe(true);
    expect(sent.at(-1)!.keepalive).toBe(false);
    const keepaliveBytes = sent.filter((batch) => batch.keepalive).reduce((sum, batch) => sum + JSON.stringify({ options: batch }).length, 0);
    expect(keepaliveBytes).toBeLessThanOrEqual(LOGGER.keepaliveMaxBytes);
  });
});

describe("impressions", () => {
  it("pauses on blur and resumes on focus, counting each pin once", () => {
    const seen: string[] = [];
    const tracker = new ImpressionTracker((pin) => seen.push(pin));
    tracker.enter("1");
    tracker.pause();
    tracker.enter("2");
    tracker.leave("1");
    tracker.enter("3");
    tracker.leave("3");
    expect(seen).toEqual(["1"]);
    tracker.resume();
    expect(seen).toEqual(["1", "2"]);
    tracker.enter("1");
    tracker.enter("2");
    expect(seen).toEqual(["1", "2"]);
  });
});

describe("text-translation usage", () => {
  it("samples at 0.0001 and sends the sampled uses as one event after 10 s", async () => {
    const logged: unknown[] = [];
    const rolls = [0.00005, 0.5, 0.0001, 0.00009];
    const usage = new TextUsageLogger({ log: (input) => (logged.push(input), input as never) }, () => rolls.shift()!);
    for (const key of ["a", "b", "c", "a"]) usage.record(key);
    await vi.advanceTimersByTimeAsync(TEXT_USAGE.flushIntervalMs - 1);
    expect(logged).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(logged).toEqual([{ event_type: EVENT_TYPE.TEXT_TRANSLATION_USAGE, aux_data: { sample_rate: 0.0001, uses: { a: 2 } } }]);
    expect(TEXT_USAGE.sampleRate).toBe(0.0001);
  });
});

describe("views", () => {
  it.each([
    ["/", VIEW_TYPE.HOME, null],
    ["/pin/123/", VIEW_TYPE.PIN, "123"],
    ["/ana/", VIEW_TYPE.USER, null],
    ["/ana/weeknight-dinners/", VIEW_TYPE.BOARD, null],
    ["/settings/", VIEW_TYPE.OTHER, null],
    ["/today/best/x/1/", VIEW_TYPE.ARTICLE, null],
  ])("%s is view type %i", (path, viewType, objectId) => {
    expect(viewOf(path)).toEqual({ viewType, objectId });
  });

  it("reads a pin id from a grid link", () => {
    expect(pinIdOfHref("/pin/42/")).toBe("42");
    expect(pinIdOfHref("/ana/")).toBeNull();
  });
});
