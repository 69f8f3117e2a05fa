// The app shell's rules (spec 000 §2, §4, §8, §9): connection banner, toasts, loading overlay,
// screen-width buckets and the email-verification reminder. Pure functions plus nanostores
// atoms; no DOM here. AppShell.astro's script wires these to the page, and tests drive them
// with fake timers through the injectable scheduler.
import { atom } from "nanostores";
import { apiFetch, depsWith } from "~/runtime/fetch.ts";

/** How long "You're back online!" stays up before the banner hides again. */
export const BACK_ONLINE_MS = 2000;
/** Resize handling waits this long after the last resize event. */
export const RESIZE_DEBOUNCE_MS = 200;

export interface Scheduler {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}
const timers: Scheduler = {
  set: (run, ms) => setTimeout(run, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

// --- Connection banner ---------------------------------------------------------------------

export type ConnectionState = "hidden" | "offline" | "backOnline";
export type ConnectionEvent = "offline" | "online" | "timeout";

/** hidden → offline → backOnline → (2 s) → hidden. Online while not offline changes nothing. */
export function nextConnection(state: ConnectionState, event: ConnectionEvent): ConnectionState {
  if (event === "offline") return "offline";
  if (event === "online") return state === "offline" ? "backOnline" : state;
  return state === "backOnline" ? "hidden" : state;
}

export function createConnection(scheduler: Scheduler = timers) {
  const $state = atom<ConnectionState>("hidden");
  let timer: unknown;
  const send = (event: ConnectionEvent) => {
    if (timer !== undefined) scheduler.clear(timer);
    timer = undefined;
    const next = nextConnection($state.get(), event);
    $state.set(next);
    if (next === "backOnline") {
      timer = scheduler.set(() => {
        timer = undefined;
        $state.set(nextConnection($state.get(), "timeout"));
      }, BACK_ONLINE_MS);
    }
  };
  return { $state, offline: () => send("offline"), online: () => send("online") };
}

export const connection = createConnection();
export const $connection = connection.$state;

// --- Screen width --------------------------------------------------------------------------

export type Breakpoint = "xs" | "sm" | "md" | "lg" | "xl";
export type ResizeBucket = "small" | "medium" | "large";

export function breakpoint(width: number): Breakpoint {
  return width < 640 ? "xs" : width < 768 ? "sm" : width < 1024 ? "md" : width < 1280 ? "lg" : "xl";
}

export function resizeBucket(width: number): ResizeBucket {
  return width < 768 ? "small" : width < 1024 ? "medium" : "large";
}

/** Runs `run` once, `ms` after the last call. */
export function debounce<A extends unknown[]>(run: (...args: A) => void, ms = RESIZE_DEBOUNCE_MS, scheduler: Scheduler = timers) {
  let timer: unknown;
  return (...args: A) => {
    if (timer !== undefined) scheduler.clear(timer);
    timer = scheduler.set(() => {
      timer = undefined;
      run(...args);
    }, ms);
  };
}

// --- Device and toast placement ------------------------------------------------------------

export type Device = "desktop" | "phone" | "tablet";

/** The user agent's device class wins; otherwise the window width decides (desktop when unknown). */
export function deviceOf(width: number | null, ua: { isMobile?: boolean; isTablet?: boolean } = {}): Device {
  if (ua.isTablet) return "tablet";
  if (ua.isMobile) return "phone";
  if (width === null) return "desktop";
  const bucket = resizeBucket(width);
  return bucket === "small" ? "phone" : bucket === "medium" ? "tablet" : "desktop";
}

export interface ToastPlacement {
  edge: "bottom" | "top";
  offsetPx: number;
}

export function toastPlacement(device: Device): ToastPlacement {
  return device === "desktop" ? { edge: "bottom", offsetPx: 14 } : { edge: "top", offsetPx: device === "phone" ? 56 : 80 };
}

/** The class AppShell.astro's styles define for a placement, e.g. "toasts-bottom-14". */
export const placementClass = (placement: ToastPlacement) => `toasts-${placement.edge}-${placement.offsetPx}`;

// --- Toasts --------------------------------------------------------------------------------

interface ToastAction {
  /** The button's words, e.g. "Undo". */
  label: string;
  /** What pressing it does; the toast goes away first. */
  run: () => void;
}

export interface Toast {
  id: string;
  message: string;
  /** An optional action, rendered as a real button inside the toast (the save toast's Undo). */
  action?: ToastAction;
  /** Dismissed this long after it shows, unless a pointer or focus is on it; absent = stays. */
  durationMs?: number;
  tone?: "error";
}

export const $toasts = atom<Toast[]>([]);
const toastTimers = new Map<string, unknown>();

function clearToastTimer(id: string, scheduler: Scheduler): void {
  if (!toastTimers.has(id)) return;
  scheduler.clear(toastTimers.get(id));
  toastTimers.delete(id);
}

function armToastTimer(toast: Toast, scheduler: Scheduler): void {
  clearToastTimer(toast.id, scheduler);
  if (!toast.durationMs || toast.durationMs <= 0) return;
  toastTimers.set(
    toast.id,
    scheduler.set(() => {
      toastTimers.delete(toast.id);
      dismissToast(toast.id, scheduler);
    }, toast.durationMs),
  );
}

/** Adds a toast (kept in arrival order); one with the same id replaces the old one and its timer. */
export function pushToast(toast: Toast, scheduler: Scheduler = timers): void {
  $toasts.set([...$toasts.get().filter((t) => t.id !== toast.id), toast]);
  armToastTimer(toast, scheduler);
}

export function dismissToast(id: string, scheduler: Scheduler = timers): void {
  clearToastTimer(id, scheduler);
  $toasts.set($toasts.get().filter((t) => t.id !== id));
}

/** A pointer or keyboard focus is on the toast: it stays until released (time to reach Undo). */
export function holdToast(id: string, scheduler: Scheduler = timers): void {
  clearToastTimer(id, scheduler);
}

/** The pointer or focus left: the toast's full time starts again. */
export function releaseToast(id: string, scheduler: Scheduler = timers): void {
  const toast = $toasts.get().find((t) => t.id === id);
  if (toast) armToastTimer(toast, scheduler);
}

/** Presses a toast's action: the toast goes, then the action runs (it may push a new toast). */
export function runToastAction(id: string, scheduler: Scheduler = timers): boolean {
  const toast = $toasts.get().find((t) => t.id === id);
  if (!toast?.action) return false;
  dismissToast(id, scheduler);
  toast.action.run();
  return true;
}

/** Display order from top to bottom: the newest toast sits nearest the edge it stacks on. */
export function stacked(toasts: readonly Toast[], edge: ToastPlacement["edge"]): Toast[] {
  return edge === "bottom" ? [...toasts] : [...toasts].reverse();
}

// --- Email-verification reminder -----------------------------------------------------------

export type VerifyState = "hidden" | "open" | "sending" | "sent" | "error";
export type VerifyEvent = "request" | "send" | "sent" | "failed" | "close";

/** Once sent, the button stays "Email sent" for the rest of the page's life. */
export function nextVerify(state: VerifyState, event: VerifyEvent, sentBefore = false): VerifyState {
  switch (event) {
    case "request":
      return state === "hidden" ? (sentBefore ? "sent" : "open") : state;
    case "send":
      return state === "open" || state === "error" ? "sending" : state;
    case "sent":
      return state === "sending" ? "sent" : state;
    case "failed":
      return state === "sending" ? "error" : state;
    case "close":
      return "hidden";
  }
}

export const $verifyModal = atom<VerifyState>("hidden");
let emailSent = false;

export function verifyModal(event: VerifyEvent): VerifyState {
  const next = nextVerify($verifyModal.get(), event, emailSent);
  if (next === "sent") emailSent = true;
  $verifyModal.set(next);
  return next;
}

/** For tests: forget that an email was sent. */
export function resetVerifyModal(): void {
  emailSent = false;
  $verifyModal.set("hidden");
}

export const RESEND_PATH = "/v3/users/email/verify/resend/";

/** The one call that asks for a new verification email (through the runtime fetch layer); false on any failure. */
export async function resendVerificationEmail(fetcher: typeof fetch = fetch, cookie?: string): Promise<boolean> {
  try {
    const response = await apiFetch(RESEND_PATH, { method: "POST" }, depsWith(fetcher, cookie));
    return response.ok;
  } catch {
    return false;
  }
}

/** Runs the resend through the modal's states: sending, then sent or error. */
export async function resend(fetcher: typeof fetch = fetch, cookie?: string): Promise<VerifyState> {
  if (verifyModal("send") !== "sending") return $verifyModal.get();
  return verifyModal((await resendVerificationEmail(fetcher, cookie)) ? "sent" : "failed");
}
