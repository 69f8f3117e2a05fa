// The open conversation's live socket. It says hello with the last message id the island holds
// and the room answers what came after it, then every new message as it is stored. When the
// socket drops (a network change, a deploy, a sleeping laptop) it reconnects with a growing
// wait and catches up the same way, so nothing is lost; the island merges by id, so nothing
// shows twice.
import type { Message, RoomFrame } from "./messaging.ts";

/** Reconnect waits: 500 ms, doubling, at most 10 s; at once when the browser comes back online. */
export const RECONNECT = { firstDelayMs: 500, maxDelayMs: 10_000 } as const;

interface LiveHandlers {
  /** Messages arrived; `complete` false when the catch-up was cut short (reload the conversation). */
  onMessages: (messages: Message[], complete: boolean) => void;
  /** The last server message id held, read at each (re)connect. */
  lastId: () => string | null;
  /** The room closed the door for good (not a member). */
  onGone?: () => void;
}

export interface SocketLike {
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

export interface LiveDeps {
  open: (url: string) => SocketLike;
  setTimer: (run: () => void, ms: number) => unknown;
  clearTimer: (timer: unknown) => void;
}

const browserDeps = (): LiveDeps => ({
  open: (url) => new WebSocket(url) as unknown as SocketLike,
  setTimer: (run, ms) => setTimeout(run, ms),
  clearTimer: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
});

export function socketUrl(origin: string, conversationId: string): string {
  const url = new URL(`/v3/conversations/${encodeURIComponent(conversationId)}/socket/`, origin);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  return url.href;
}

function parseFrame(data: unknown): RoomFrame | null {
  if (typeof data !== "string") return null;
  try {
    const frame = JSON.parse(data) as RoomFrame;
    return frame && (frame.type === "messages" || frame.type === "error") ? frame : null;
  } catch {
    return null;
  }
}

/** Close codes that mean "do not come back": the room's not-a-member answer. */
const GONE_CODES: ReadonlySet<number> = new Set([4404]);

/** What a live socket says on each (re)connect and does with what it hears. */
interface SocketHandlers {
  /** The frame sent on each open. */
  hello: () => string;
  onData: (data: unknown) => void;
  /** The server closed the door for good. */
  onGone?: (() => void) | undefined;
}

/**
 * A socket that says hello on each open and reconnects with a growing wait when it drops, until
 * stopped: the conversation's (LiveConversation) and the person's own channel (channel.client.ts).
 */
export class LiveSocket {
  private socket: SocketLike | null = null;
  private timer: unknown = null;
  private delay: number = RECONNECT.firstDelayMs;
  private stopped = false;

  constructor(
    private readonly url: string,
    private readonly handlers: SocketHandlers,
    private readonly deps: LiveDeps = browserDeps(),
  ) {}

  start(): void {
    this.stopped = false;
    this.connect();
  }

  /** Reconnect now (the browser came back online): the wait is over. */
  nudge(): void {
    if (this.stopped || this.socket) return;
    if (this.timer !== null) this.deps.clearTimer(this.timer);
    this.timer = null;
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== null) this.deps.clearTimer(this.timer);
    this.timer = null;
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      socket.onclose = null;
      socket.close(1000, "closed");
    }
  }

  private connect(): void {
    let socket: SocketLike;
    try {
      socket = this.deps.open(this.url);
    } catch {
      this.retry();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      this.delay = RECONNECT.firstDelayMs;
      socket.send(this.handlers.hello());
    };
    socket.onmessage = (event) => this.handlers.onData(event.data);
    socket.onerror = () => undefined;
    socket.onclose = (event) => {
      if (this.socket === socket) this.socket = null;
      if (this.stopped) return;
      if (GONE_CODES.has(event.code)) {
        this.stopped = true;
        this.handlers.onGone?.();
        return;
      }
      this.retry();
    };
  }

  private retry(): void {
    if (this.stopped) return;
    const wait = this.delay;
    this.delay = Math.min(this.delay * 2, RECONNECT.maxDelayMs);
    this.timer = this.deps.setTimer(() => {
      this.timer = null;
      if (!this.stopped) this.connect();
    }, wait);
  }
}

/** The open conversation's socket: hello names the last message held; messages are handed on. */
export class LiveConversation extends LiveSocket {
  constructor(url: string, handlers: LiveHandlers, deps: LiveDeps = browserDeps()) {
    super(
      url,
      {
        hello: () => JSON.stringify({ type: "hello", after: handlers.lastId() }),
        onData: (data) => {
          const frame = parseFrame(data);
          if (frame?.type === "messages") handlers.onMessages(frame.messages, frame.complete);
        },
        onGone: handlers.onGone,
      },
      deps,
    );
  }
}
