// Runtime events (a new version seen, a failed GraphQL call, a start-up failure) as event
// records of spec 000 §3. They go to the event logger when one has registered with
// setRuntimeReporter (the events script does; until then nothing is sent) and are always
// counted, so a page without the logger still shows them in runtimeCounters().
import { runtimeGlobal, type RuntimeEvent } from "./global.ts";
import type { AppState } from "./headers.ts";

/** Event types of the runtime's own records (the app's event-type numbering, 9xxx = runtime). */
export const RUNTIME_EVENT_TYPES = {
  newVersion: 9001,
  fetchError: 9002,
  startupError: 9003,
  forcedReload: 9004,
  /** Share suggestions could not be fetched (spec 000 §8: a metric, never shown). */
  shareSuggestionsError: 9005,
} as const;
export type RuntimeEventName = keyof typeof RUNTIME_EVENT_TYPES;

function nanoTime(ms: number): string {
  return `${Math.max(0, Math.floor(ms))}000000`;
}

/**
 * A random event id, 32 hex digits: randomUUID where the browser has it (secure contexts),
 * else getRandomValues, which every browser has in any context. Never Math.random: its ids
 * are guessable and collide, and the server de-duplicates on them.
 */
export function clientId(source: Pick<Crypto, "getRandomValues"> & Partial<Pick<Crypto, "randomUUID">> = crypto): string {
  if (typeof source.randomUUID === "function") return source.randomUUID().replaceAll("-", "");
  const bytes = source.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

function runtimeEvent(name: RuntimeEventName, auxData: Record<string, unknown>, now: number, appState: AppState): RuntimeEvent {
  return { event_type: RUNTIME_EVENT_TYPES[name], time: nanoTime(now), clientUUID: clientId(), appState, aux_data: auxData };
}

/** The events logger registers here; events reported before it did are only counted. */
export function setRuntimeReporter(reporter: ((event: RuntimeEvent) => void) | null): void {
  runtimeGlobal().reporter = reporter;
}

export function report(name: RuntimeEventName, auxData: Record<string, unknown>, now = Date.now(), appState: AppState = "active"): RuntimeEvent {
  const hub = runtimeGlobal();
  hub.counters[name] = (hub.counters[name] ?? 0) + 1;
  const event = runtimeEvent(name, auxData, now, appState);
  try {
    hub.reporter?.(event);
  } catch {
    // A failing logger must not break the call that reported.
  }
  return event;
}

export function runtimeCounters(): Readonly<Record<string, number>> {
  return { ...runtimeGlobal().counters };
}
