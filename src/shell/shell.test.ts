import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  $toasts,
  $verifyModal,
  BACK_ONLINE_MS,
  breakpoint,
  createConnection,
  debounce,
  deviceOf,
  dismissToast,
  holdToast,
  nextConnection,
  nextVerify,
  placementClass,
  pushToast,
  releaseToast,
  RESEND_PATH,
  resend,
  resendVerificationEmail,
  resetVerifyModal,
  resizeBucket,
  RESIZE_DEBOUNCE_MS,
  runToastAction,
  stacked,
  toastPlacement,
  verifyModal,
  type ConnectionEvent,
  type ConnectionState,
  type VerifyEvent,
  type VerifyState,
} from "./shell.ts";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("connection banner", () => {
  it.each<[ConnectionState, ConnectionEvent, ConnectionState]>([
    ["hidden", "offline", "offline"],
    ["hidden", "online", "hidden"],
    ["hidden", "timeout", "hidden"],
    ["offline", "online", "backOnline"],
    ["offline", "offline", "offline"],
    ["offline", "timeout", "offline"],
    ["backOnline", "timeout", "hidden"],
    ["backOnline", "offline", "offline"],
    ["backOnline", "online", "backOnline"],
  ])("%s + %s → %s", (state, event, next) => {
    expect(nextConnection(state, event)).toBe(next);
  });

  it("shows back online for exactly 2000 ms, then hides", () => {
    expect(BACK_ONLINE_MS).toBe(2000);
    const connection = createConnection();
    const seen: ConnectionState[] = [];
    connection.$state.subscribe((state) => seen.push(state));
    connection.offline();
    connection.online();
    vi.advanceTimersByTime(1999);
    expect(connection.$state.get()).toBe("backOnline");
    vi.advanceTimersByTime(1);
    expect(connection.$state.get()).toBe("hidden");
    expect(seen).toEqual(["hidden", "offline", "backOnline", "hidden"]);
  });

  it("going offline again during back online cancels the timer", () => {
    const connection = createConnection();
    connection.offline();
    connection.online();
    vi.advanceTimersByTime(1500);
    connection.offline();
    vi.advanceTimersByTime(5000);
    expect(connection.$state.get()).toBe("offline");
  });

  it("takes an injected scheduler", () => {
    const pending: Array<{ run: () => void; ms: number }> = [];
    const connection = createConnection({ set: (run, ms) => pending.push({ run, ms }), clear: () => {} });
    connection.offline();
    connection.online();
    expect(pending.map((p) => p.ms)).toEqual([2000]);
    pending[0]!.run();
    expect(connection.$state.get()).toBe("hidden");
  });
});

describe("screen width", () => {
  it.each([
    [0, "xs", "small"],
    [639, "xs", "small"],
    [640, "sm", "small"],
    [767, "sm", "small"],
    [768, "md", "medium"],
    [1023, "md", "medium"],
    [1024, "lg", "large"],
    [1279, "lg", "large"],
    [1280, "xl", "large"],
    [2560, "xl", "large"],
  ] as const)("%i px is %s, resize bucket %s", (width, bp, bucket) => {
    expect(breakpoint(width)).toBe(bp);
    expect(resizeBucket(width)).toBe(bucket);
  });

  it("debounces by 200 ms after the last call", () => {
    expect(RESIZE_DEBOUNCE_MS).toBe(200);
    const run = vi.fn();
    const debounced = debounce(run);
    debounced(1);
    vi.advanceTimersByTime(150);
    debounced(2);
    vi.advanceTimersByTime(199);
    expect(run).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(run).toHaveBeenCalledTimes(1);
    expect(run).toHaveBeenCalledWith(2);
  });
});

describe("devices and toast placement", () => {
  it.each([
    ["desktop", "bottom", 14, "toasts-bottom-14"],
    ["phone", "top", 56, "toasts-top-56"],
    ["tablet", "top", 80, "toasts-top-80"],
  ] as const)("%s: %s, %i px", (device, edge, offsetPx, className) => {
    expect(toastPlacement(device)).toEqual({ edge, offsetPx });
    expect(placementClass(toastPlacement(device))).toBe(className);
  });

  it.each([
    [null, {}, "desktop"],
    [1440, {}, "desktop"],
    [1024, {}, "desktop"],
    [1023, {}, "tablet"],
    [768, {}, "tablet"],
    [767, {}, "phone"],
    [1440, { isMobile: true }, "phone"],
    [1440, { isMobile: true, isTablet: true }, "tablet"],
    [null, { isTablet: true }, "tablet"],
  ] as const)("width %s with %j is %s", (width, ua, device) => {
    expect(deviceOf(width, ua)).toBe(device);
  });
});

describe("toasts", () => {
  beforeEach(() => $toasts.set([]));

  it("push keeps arrival order, replaces by id, and dismiss removes", () => {
    pushToast({ id: "a", message: "A" });
    pushToast({ id: "b", message: "B" });
    pushToast({ id: "a", message: "A2" });
    expect($toasts.get().map((t) => t.message)).toEqual(["B", "A2"]);
    dismissToast("b");
    expect($toasts.get()).toEqual([{ id: "a", message: "A2" }]);
    dismissToast("missing");
    expect($toasts.get()).toHaveLength(1);
  });

  it("a toast with a duration goes by itself after it; one without stays", () => {
    pushToast({ id: "timed", message: "Saved", durationMs: 7000 });
    pushToast({ id: "sticky", message: "Offline" });
    vi.advanceTimersByTime(6999);
    expect($toasts.get().map((t) => t.id)).toEqual(["timed", "sticky"]);
    vi.advanceTimersByTime(1);
    expect($toasts.get().map((t) => t.id)).toEqual(["sticky"]);
    vi.advanceTimersByTime(60_000);
    expect($toasts.get().map((t) => t.id)).toEqual(["sticky"]);
  });

  it("replacing a timed toast restarts its time instead of letting the old timer remove the new one", () => {
    pushToast({ id: "save-1", message: "Saved to A", durationMs: 7000 });
    vi.advanceTimersByTime(5000);
    pushToast({ id: "save-1", message: "Removed from A", durationMs: 7000 });
    vi.advanceTimersByTime(5000);
    expect($toasts.get().map((t) => t.message)).toEqual(["Removed from A"]);
    vi.advanceTimersByTime(2000);
    expect($toasts.get()).toEqual([]);
  });

  it("held (pointer or focus on it) a toast stays; released, its full time starts again", () => {
    pushToast({ id: "save-1", message: "Saved", durationMs: 7000 });
    vi.advanceTimersByTime(6000);
    holdToast("save-1");
    vi.advanceTimersByTime(60_000);
    expect($toasts.get()).toHaveLength(1);
    releaseToast("save-1");
    vi.advanceTimersByTime(6999);
    expect($toasts.get()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect($toasts.get()).toEqual([]);
  });

  it("its action dismisses the toast, then runs (and may push the next toast)", () => {
    const run = vi.fn(() => pushToast({ id: "save-1", message: "Removed from A" }));
    pushToast({ id: "save-1", message: "Saved to A", action: { label: "Undo", run }, durationMs: 7000 });
    expect(runToastAction("save-1")).toBe(true);
    expect(run).toHaveBeenCalledOnce();
    expect($toasts.get().map((t) => t.message)).toEqual(["Removed from A"]);
    expect(runToastAction("save-1")).toBe(false);
    expect(runToastAction("missing")).toBe(false);
    expect(run).toHaveBeenCalledOnce();
  });

  it("stacks the newest nearest its edge", () => {
    const list = [
      { id: "old", message: "old" },
      { id: "new", message: "new" },
    ];
    expect(stacked(list, "bottom").map((t) => t.id)).toEqual(["old", "new"]);
    expect(stacked(list, "top").map((t) => t.id)).toEqual(["new", "old"]);
    expect(list.map((t) => t.id)).toEqual(["old", "new"]);
  });
});

describe("email-verification reminder", () => {
  beforeEach(() => resetVerifyModal());

  it.each<[VerifyState, VerifyEvent, boolean, VerifyState]>([
    ["hidden", "request", false, "open"],
    ["hidden", "request", true, "sent"],
    ["open", "request", false, "open"],
    ["open", "send", false, "sending"],
    ["error", "send", false, "sending"],
    ["sent", "send", true, "sent"],
    ["hidden", "send", false, "hidden"],
    ["sending", "send", false, "sending"],
    ["sending", "sent", false, "sent"],
    ["sending", "failed", false, "error"],
    ["open", "sent", false, "open"],
    ["open", "close", false, "hidden"],
    ["sent", "close", true, "hidden"],
    ["error", "close", false, "hidden"],
  ])("%s + %s (sent before: %s) → %s", (state, event, sentBefore, next) => {
    expect(nextVerify(state, event, sentBefore)).toBe(next);
  });

  it("posts once to the resend endpoint with the CSRF token, then stays sent", async () => {
    const fetcher = vi.fn(async () => new Response("{}", { status: 200 }));
    verifyModal("request");
    expect(await resend(fetcher as unknown as typeof fetch, "a=1; csrftoken=tok%2Ben")).toBe("sent");
    expect(fetcher).toHaveBeenCalledWith(RESEND_PATH, expect.objectContaining({ method: "POST", headers: expect.objectContaining({ "X-CSRFToken": "tok+en", "X-Requested-With": "XMLHttpRequest" }) }));
    expect(RESEND_PATH).toBe("/v3/users/email/verify/resend/");
    expect(await resend(fetcher as unknown as typeof fetch)).toBe("sent");
    expect(fetcher).toHaveBeenCalledTimes(1);
    verifyModal("close");
    expect(verifyModal("request")).toBe("sent");
  });

  it.each([
    ["a 404 (the endpoint does not exist yet)", async () => new Response("", { status: 404 })],
    ["a network failure", async () => Promise.reject(new TypeError("offline"))],
  ])("treats %s as an error the person can retry", async (_name, impl) => {
    const fetcher = vi.fn(impl) as unknown as typeof fetch;
    verifyModal("request");
    expect(await resend(fetcher)).toBe("error");
    expect($verifyModal.get()).toBe("error");
    expect(await resendVerificationEmail(fetcher)).toBe(false);
    expect(verifyModal("send")).toBe("sending");
  });
});
