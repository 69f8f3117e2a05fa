// The client event logger (spec 000 §9 "Event flush", §8 "Event logging", §4 impressions and
// app focus). DOM-free: the page module (page-events.ts) gives it a transport and wires the
// window's events; tests give it fake timers and a simulated server.
//
// - a 10 s timer from the first buffered event (desktop);
// - 300 ms when event 13 (a view) arrives for one of FAST_FLUSH_VIEW_TYPES;
// - at once when the buffer exceeds 20,480 bytes;
// - non-desktop: the buffer is flushed every 10 s;
// - a failed send with no status code (network) or one of RETRY_STATUSES is retried up to 5
//   times, 1,000 ms first, doubling; any other failure is dropped (resending cannot help);
// - page hide sends everything, waiting retries included, with fetch keepalive (64 KiB at most
//   in flight, the browser's quota; the rest goes without keepalive).
// Every event carries its own clientUUID, so a resent batch is stored once by the server.

export const LOGGER = {
  flushIntervalMs: 10_000,
  fastFlushMs: 300,
  maxBufferBytes: 20_480,
  nonDesktopFlushIntervalMs: 10_000,
  maxRetries: 5,
  firstRetryDelayMs: 1_000,
  /** The server's bounds for one batch (src/events/ingest.server.ts). */
  maxBatchEvents: 100,
  maxBatchBytes: 60 * 1024,
  keepaliveMaxBytes: 64 * 1024,
} as const;

/** Spec 000 §8 "three specific codes": the transient gateway and overload answers. */
export const RETRY_STATUSES: readonly number[] = [502, 503, 504];

export const EVENT_TYPE = { CLICK: 1, VIEW: 13, IMPRESSION: 14, TEXT_TRANSLATION_USAGE: 9_101, PIN_BUILDER_FEEDBACK: 9_102 } as const; // 90xx are the runtime's (src/runtime/report.ts)
export const VIEW_TYPE = { OTHER: 0, HOME: 1, PIN: 2, BOARD: 3, USER: 4, SEARCH: 5, ARTICLE: 6 } as const;
/** Views whose event 13 goes out within 300 ms: content pages people often leave at once. */
export const FAST_FLUSH_VIEW_TYPES: readonly number[] = [VIEW_TYPE.PIN, VIEW_TYPE.BOARD, VIEW_TYPE.USER, VIEW_TYPE.SEARCH];

export type AppState = "active" | "background";

export interface ClientEvent {
  clientUUID: string;
  event_type: number;
  view_type?: number | null;
  view_parameter?: number | null;
  view_data?: Record<string, unknown> | null;
  component?: number | null;
  object_id_str?: string | null;
  aux_data?: Record<string, unknown> | null;
  event_data?: Record<string, unknown> | null;
  /** Nanoseconds since the epoch, decimal. */
  time: string;
  appState: AppState;
}
export type LogInput = Omit<ClientEvent, "clientUUID" | "time" | "appState">;

export interface Transport {
  /** Sends one request body; resolves with the HTTP status, or null when no response came. */
  send(body: string, keepalive: boolean): Promise<number | null>;
}

export interface LoggerOptions {
  transport: Transport;
  isDesktop: boolean;
  now?: () => number;
  uuid?: () => string;
}

interface Entry {
  event: ClientEvent;
  bytes: number;
}

interface Pending {
  entries: Entry[];
  attempt: number;
  timer: ReturnType<typeof setTimeout> | null;
}

const encoder = new TextEncoder();
const byteLength = (text: string) => encoder.encode(text).length;

/** Milliseconds → nanoseconds as a decimal string (exact: no float past 2^53). */
export function toNanoseconds(ms: number): string {
  return `${BigInt(Math.floor(ms)) * 1_000_000n}`;
}

/** The request body of ApiCResource create. */
function batchBody(events: readonly ClientEvent[], reportTimeMs: number): string {
  return JSON.stringify({ options: { events, report_time: toNanoseconds(reportTimeMs) } });
}

/** Splits entries into batches within the server's count and byte bounds. */
export function chunk(entries: readonly Entry[]): Entry[][] {
  const batches: Entry[][] = [];
  let current: Entry[] = [];
  let bytes = 0;
  for (const entry of entries) {
    if (current.length > 0 && (current.length >= LOGGER.maxBatchEvents || bytes + entry.bytes > LOGGER.maxBatchBytes)) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(entry);
    bytes += entry.bytes + 1;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

export class EventLogger {
  private buffer: Entry[] = [];
  private bufferBytes = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private timerDue = Infinity;
  private interval: ReturnType<typeof setInterval> | null = null;
  private readonly pending = new Set<Pending>();
  private readonly transport: Transport;
  private readonly isDesktop: boolean;
  private readonly now: () => number;
  private readonly uuid: () => string;
  appState: AppState = "active";

  constructor(options: LoggerOptions) {
    this.transport = options.transport;
    this.isDesktop = options.isDesktop;
    this.now = options.now ?? Date.now;
    this.uuid = options.uuid ?? (() => crypto.randomUUID());
    if (!this.isDesktop) this.interval = setInterval(() => void this.flush(), LOGGER.nonDesktopFlushIntervalMs);
  }

  /** Buffers one event; returns it as it will be sent. */
  log(input: LogInput): ClientEvent {
    const event: ClientEvent = { ...input, clientUUID: this.uuid(), time: toNanoseconds(this.now()), appState: this.appState };
    const bytes = byteLength(JSON.stringify(event));
    if (bytes > LOGGER.maxBatchBytes) return event; // the server could never take it
    this.buffer.push({ event, bytes });
    this.bufferBytes += bytes;
    if (this.bufferBytes > LOGGER.maxBufferBytes) {
      void this.flush();
    } else if (event.event_type === EVENT_TYPE.VIEW && event.view_type !== null && event.view_type !== undefined && FAST_FLUSH_VIEW_TYPES.includes(event.view_type)) {
      this.schedule(LOGGER.fastFlushMs);
    } else if (this.isDesktop) {
      this.schedule(LOGGER.flushIntervalMs);
    }
    return event;
  }

  /** Events buffered and not yet sent. */
  get buffered(): number {
    return this.buffer.length;
  }

  /** Batches waiting for a retry. */
  get retrying(): number {
    return this.pending.size;
  }

  /** Arms the flush timer for `delayMs` unless one is already due sooner. */
  private schedule(delayMs: number): void {
    const due = this.now() + delayMs;
    if (this.timer !== null && this.timerDue <= due) return;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timerDue = due;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.timerDue = Infinity;
      void this.flush();
    }, delayMs);
  }

  private takeBuffer(): Entry[] {
    const entries = this.buffer;
    this.buffer = [];
    this.bufferBytes = 0;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.timerDue = Infinity;
    return entries;
  }

  /** Sends the buffer now (in batches within the server's bounds). */
  async flush(): Promise<void> {
    const entries = this.takeBuffer();
    await Promise.all(chunk(entries).map((batch) => this.attempt({ entries: batch, attempt: 0, timer: null }, false)));
  }

  /**
   * Page hide: the buffer and every batch waiting for a retry go out now, with keepalive while
   * the browser's 64 KiB quota lasts.
   */
  flushOnHide(): void {
    const waiting = [...this.pending];
    for (const pending of waiting) {
      if (pending.timer !== null) clearTimeout(pending.timer);
      this.pending.delete(pending);
    }
    const batches = [...waiting.map((pending) => pending.entries), ...chunk(this.takeBuffer())];
    let keepaliveBytes = 0;
    for (const entries of batches) {
      const body = batchBody(entries.map((entry) => entry.event), this.now());
      const size = byteLength(body);
      const keepalive = keepaliveBytes + size <= LOGGER.keepaliveMaxBytes;
      if (keepalive) keepaliveBytes += size;
      void this.attempt({ entries, attempt: 0, timer: null }, keepalive);
    }
  }

  private async attempt(pending: Pending, keepalive: boolean): Promise<void> {
    const body = batchBody(pending.entries.map((entry) => entry.event), this.now());
    let status: number | null;
    try {
      status = await this.transport.send(body, keepalive);
    } catch {
      status = null;
    }
    if (status !== null && status >= 200 && status < 300) return;
    const retryable = status === null || RETRY_STATUSES.includes(status);
    if (!retryable || pending.attempt >= LOGGER.maxRetries) return;
    const delay = LOGGER.firstRetryDelayMs * 2 ** pending.attempt;
    pending.attempt += 1;
    this.pending.add(pending);
    // Not awaited: a flush resolves once its first try is answered; retries run on their own.
    pending.timer = setTimeout(() => {
      pending.timer = null;
      this.pending.delete(pending);
      void this.attempt(pending, false);
    }, delay);
  }

  /** Stops the timers (a page being torn down); buffered events stay for flushOnHide. */
  stop(): void {
    if (this.interval !== null) clearInterval(this.interval);
    this.interval = null;
  }
}

/**
 * Text-translation usage (spec 000 §9): each use is logged with probability 0.0001, and the
 * sampled uses go out together every 10 s as one event.
 */
export const TEXT_USAGE = { sampleRate: 0.0001, flushIntervalMs: 10_000, maxKeys: 100 } as const;

export class TextUsageLogger {
  private keys = new Map<string, number>();
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly logger: { log(input: LogInput): unknown },
    private readonly random: () => number = Math.random,
  ) {}

  /** One use of a translated text, named by its key. */
  record(key: string): void {
    if (this.random() >= TEXT_USAGE.sampleRate) return;
    if (!this.keys.has(key) && this.keys.size >= TEXT_USAGE.maxKeys) return;
    this.keys.set(key, (this.keys.get(key) ?? 0) + 1);
    this.timer ??= setTimeout(() => this.flush(), TEXT_USAGE.flushIntervalMs);
  }

  flush(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (this.keys.size === 0) return;
    const uses = Object.fromEntries(this.keys);
    this.keys = new Map();
    this.logger.log({ event_type: EVENT_TYPE.TEXT_TRANSLATION_USAGE, aux_data: { sample_rate: TEXT_USAGE.sampleRate, uses } });
  }
}
