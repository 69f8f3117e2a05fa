import { describe, expect, it } from "vitest";
import { LiveConversation, RECONNECT, socketUrl, type LiveDeps, type SocketLike } from "./live.client.ts";
import type { Message } from "./messaging.ts";

class FakeSocket implements SocketLike {
  sent: string[] = [];
  closed = false;
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.closed = true;
  }
}

function harness() {
  const sockets: FakeSocket[] = [];
  const timers: Array<{ run: () => void; ms: number }> = [];
  const deps: LiveDeps = {
    open: () => {
      const socket = new FakeSocket();
      sockets.push(socket);
      return socket;
    },
    setTimer: (run, ms) => {
      const timer = { run, ms };
      timers.push(timer);
      return timer;
    },
    clearTimer: (timer) => {
      const index = timers.indexOf(timer as (typeof timers)[number]);
      if (index >= 0) timers.splice(index, 1);
    },
  };
  return { sockets, timers, deps };
}

describe("the live conversation socket", () => {
  it("says hello with the last id held, and again after every reconnect", () => {
    const { sockets, timers, deps } = harness();
    let last: string | null = null;
    const got: Message[][] = [];
    const live = new LiveConversation("wss://x/v3/conversations/1/socket/", { lastId: () => last, onMessages: (messages) => got.push(messages) }, deps);
    live.start();
    sockets[0]!.onopen?.({});
    expect(JSON.parse(sockets[0]!.sent[0]!)).toEqual({ type: "hello", after: null });
    sockets[0]!.onmessage?.({ data: JSON.stringify({ type: "messages", conversation_id: "1", messages: [{ id: "5" }], complete: true }) });
    expect(got).toHaveLength(1);
    last = "5";
    sockets[0]!.onclose?.({ code: 1006 });
    expect(timers.map((timer) => timer.ms)).toEqual([RECONNECT.firstDelayMs]);
    timers.shift()!.run();
    sockets[1]!.onopen?.({});
    expect(JSON.parse(sockets[1]!.sent[0]!)).toEqual({ type: "hello", after: "5" });
  });

  it("waits longer after each failed try, up to the ceiling, and at once when nudged", () => {
    const { sockets, timers, deps } = harness();
    const live = new LiveConversation("wss://x", { lastId: () => null, onMessages: () => undefined }, deps);
    live.start();
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) {
      sockets.at(-1)!.onclose?.({ code: 1006 });
      const timer = timers.shift()!;
      waits.push(timer.ms);
      timer.run();
    }
    expect(waits).toEqual([500, 1000, 2000, 4000, 8000, 10_000, 10_000, 10_000]);
    sockets.at(-1)!.onclose?.({ code: 1006 });
    live.nudge();
    expect(timers).toHaveLength(0);
    expect(sockets).toHaveLength(10);
  });

  it("stops for good when the room says the person is not a member, and when stopped", () => {
    const { sockets, timers, deps } = harness();
    let gone = false;
    const live = new LiveConversation("wss://x", { lastId: () => null, onMessages: () => undefined, onGone: () => (gone = true) }, deps);
    live.start();
    sockets[0]!.onclose?.({ code: 4404 });
    expect(gone).toBe(true);
    expect(timers).toHaveLength(0);
    const other = new LiveConversation("wss://x", { lastId: () => null, onMessages: () => undefined }, deps);
    other.start();
    other.stop();
    expect(sockets[1]!.closed).toBe(true);
    expect(timers).toHaveLength(0);
  });

  it("speaks wss on https pages and ws on http ones", () => {
    expect(socketUrl("https://pinloom.example", "12")).toBe("wss://pinloom.example/v3/conversations/12/socket/");
    expect(socketUrl("http://localhost:8787", "12")).toBe("ws://localhost:8787/v3/conversations/12/socket/");
  });
});
