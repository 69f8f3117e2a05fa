// The runtime's page-wide state. Astro bundles each page script and island on its own, and a
// small script may be inlined with its own copy of a module, so module-level variables are not
// one per page: what must be (the version seen, the reporter, counters) lives on one object
// on globalThis instead.
import type { AppState } from "./headers.ts";
import type { SeenVersion } from "./version.ts";

/**
 * The event record of spec 000 §3, as far as the runtime fills it (report.ts builds them). It is
 * declared here, below report.ts, because the registered reporter on the page-wide state takes it.
 */
export interface RuntimeEvent {
  event_type: number;
  /** Nanoseconds since the epoch, as a decimal string (beyond Number's exact range). */
  time: string;
  clientUUID: string;
  appState: AppState;
  aux_data: Record<string, unknown>;
}

export interface RuntimeGlobal {
  /** The newest server version this page has seen answer, when it differs from ours. */
  seen: SeenVersion | null;
  /** The event logger, once the events script has registered it (src/runtime/report.ts). */
  reporter: ((event: RuntimeEvent) => void) | null;
  /** How many of each runtime event this page has had, sent or not. */
  counters: Record<string, number>;
  /** Resolves when islands may hydrate (enabled_delay_hydration holds it 500 ms). */
  hydrationGate: Promise<void>;
  /** The per-viewer state GET /_/_/state answered for a shared render, once it has. */
  state: Record<string, unknown> | null;
  /** Records one use of a machine-translated text (the events script's sampled logger), once registered. */
  textUsage: ((key: string) => void) | null;
}

const KEY = "__pinloomRuntime";

/** The id of the page's embedded state (the request context JSON every page carries). */
export const STATE_ID = "pinloom-context";

/**
 * The viewer's experiment groups: GET /_/_/state's answer when the page came from a shared
 * render and it has arrived, else the page's own embedded state. Empty when neither has any.
 */
export function pageExperiments(doc: Pick<Document, "getElementById"> = document): Record<string, unknown> {
  const fromState = runtimeGlobal().state?.["experiments"];
  if (isRecord(fromState)) return fromState;
  try {
    const embedded: unknown = JSON.parse(doc.getElementById(STATE_ID)?.textContent ?? "null");
    const experiments = isRecord(embedded) ? embedded["experiments"] : null;
    return isRecord(experiments) ? experiments : {};
  } catch {
    return {};
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

/** Announced by the events script when a hidden page is shown again; the runtime refreshes the viewer's state. */
export const APP_RESUME_EVENT = "pinloom:app-resume";

export function runtimeGlobal(): RuntimeGlobal {
  const holder = globalThis as { [KEY]?: RuntimeGlobal };
  holder[KEY] ??= { seen: null, reporter: null, counters: {}, hydrationGate: Promise.resolve(), state: null, textUsage: null };
  return holder[KEY];
}
