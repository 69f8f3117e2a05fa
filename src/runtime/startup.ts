// Start-up (spec 000 §4), run once per page by Runtime.astro's entry script:
//   abort on a search-engine cache host or ?server_only (the server sends no script then; this
//   checks again) → install the chunk-load retry around island imports → an embedded error
//   payload raises a platform error → the embedded state, manifest and root must exist (a
//   missing one stops start-up with an error naming it) → the forced-reload flag is read and
//   cleared → the enabled_delay_hydration group holds hydration 500 ms → a shared (edge-cached)
//   render fetches the viewer's state from GET /_/_/state → the ready flag is set.
// Then, without holding the ready flag: links become forced reloads once a new version is
// known (version.ts), the fingerprint is sent 300 ms after load (not for limited login), pin
// links preload their page on hover or focus, and videos autoplay one at a time (autoplay.ts).
// Token refresh (the 90-day rule) runs in the signed-in pages' accounts script
// (src/accounts/boot.client.ts → token-refresh.ts), which only signed-in pages load.
// Astro hydrates server-rendered islands and renders client:only ones; the runtime does not
// render pages itself.
import { isSearchCacheHost } from "~/context/referrer.ts";
import { BUILD_VERSION } from "./build-version.ts";
import { apiFetch, appStateOf } from "./fetch.ts";
import { APP_RESUME_EVENT, STATE_ID, runtimeGlobal } from "./global.ts";
import { report } from "./report.ts";
import { loadChunk, type Sleep } from "./retry.ts";
import { FORCED_RELOAD_KEY, isPlainNavigation, parseSeen, reloadOnNavigation, SEEN_VERSION_KEY, type SeenVersion } from "./version.ts";
import { recordVisit } from "~/visits/trail.client.ts";

export const HYDRATION_DELAY_MS = 500;
export const FINGERPRINT_DELAY_MS = 300;
/** The loadable experiment whose enabled_delay_hydration group waits before hydrating. */
export const LOADABLE_EXPERIMENT = "web_loadable";
export const DELAY_HYDRATION_GROUP = "enabled_delay_hydration";
/** Pin-link preloading runs unless the viewer is in this experiment's control group. */
export const PIN_PRELOAD_EXPERIMENT = "web_pin_preload";
/** At most this many pin pages are preloaded per page view. */
const MAX_PRELOADS = 20;

export const MANIFEST_ID = "pinloom-manifest";
const ROOT_ID = "main";
const ERROR_ID = "pinloom-error";
const STATE_PATH = "/_/_/state";
/** Dispatched on window with GET /_/_/state's answer (src/shell/AppShell.astro places toasts by it). */
const STATE_EVENT = "pinloom:state";
const FINGERPRINT_PATH = "/v3/spam/fingerprints/";
const FINGERPRINT_SENT_KEY = "pinloom:fingerprint-sent";

/** A missing embedded piece: start-up cannot go on without it. */
export class StartupError extends Error {
  constructor(readonly missing: "state" | "manifest" | "root") {
    super(`Pinloom start-up stopped: the embedded ${missing} is missing`);
    this.name = "StartupError";
  }
}

/** The server embedded an error for this page: raised with its message and stack. */
export class PlatformError extends Error {
  constructor(message: string, stack: string | null) {
    super(message);
    this.name = "PlatformError";
    if (stack) this.stack = `${this.name}: ${message}\n${stack}`;
  }
}

export interface EmbeddedState {
  loginState?: string;
  renderMode?: "personal" | "shared";
  experiments?: Record<string, string>;
  [key: string]: unknown;
}
export interface Manifest {
  version: string;
}

type ById = Pick<Document, "getElementById">;

/** Abort on a search-engine cache host or ?server_only. */
export function shouldAbort(hostname: string, search: string): boolean {
  return isSearchCacheHost(hostname) || new URLSearchParams(search).has("server_only");
}

function jsonOf(doc: ById, id: string): unknown {
  const text = doc.getElementById(id)?.textContent;
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

/** The embedded error payload, if the page carries one. */
export function errorPayload(doc: ById): PlatformError | null {
  const payload = jsonOf(doc, ERROR_ID);
  if (!isObject(payload)) return null;
  const message = typeof payload["message"] === "string" ? payload["message"].slice(0, 500) : "Platform error";
  const stack = typeof payload["stack"] === "string" ? payload["stack"].slice(0, 4000) : null;
  return new PlatformError(message, stack);
}

/** The embedded state, manifest and root; throws a StartupError naming the first missing one. */
export function readEmbedded(doc: ById): { state: EmbeddedState; manifest: Manifest; root: HTMLElement } {
  const state = jsonOf(doc, STATE_ID);
  if (!isObject(state)) throw new StartupError("state");
  const manifest = jsonOf(doc, MANIFEST_ID);
  if (!isObject(manifest) || typeof manifest["version"] !== "string") throw new StartupError("manifest");
  const root = doc.getElementById(ROOT_ID);
  if (!root) throw new StartupError("root");
  return { state: state as EmbeddedState, manifest: { version: manifest["version"] }, root };
}

export const delaysHydration = (experiments: Record<string, string> | undefined): boolean => experiments?.[LOADABLE_EXPERIMENT] === DELAY_HYDRATION_GROUP;

/** The forced-reload flag the previous page set, read and cleared (null when there was none). */
export function takeForcedReload(storage: Pick<Storage, "getItem" | "removeItem"> | null): string | null {
  try {
    const flag = storage?.getItem(FORCED_RELOAD_KEY) ?? null;
    if (flag !== null) storage?.removeItem(FORCED_RELOAD_KEY);
    return flag;
  } catch {
    return null;
  }
}

/** Only a full sign-in sends a fingerprint (the server refuses limited login, spec 000 §6). */
export const sendsFingerprint = (loginState: string | undefined): boolean => loginState === "AUTH";

/** Pin pages preload unless the viewer is in the control group or saves data on a slow link. */
export function preloadAllowed(experiments: Record<string, string> | undefined, connection: { saveData?: boolean; effectiveType?: string } | undefined): boolean {
  if (experiments?.[PIN_PRELOAD_EXPERIMENT] === "control") return false;
  return !connection?.saveData && connection?.effectiveType !== "slow-2g" && connection?.effectiveType !== "2g";
}

/** A pin close-up link (/pin/{id}/) on this site, as a same-origin path, or null. */
export function pinLinkPath(href: string, origin: string): string | null {
  try {
    const url = new URL(href, origin);
    return url.origin === origin && /^\/pin\/\d{1,19}\/?$/.test(url.pathname) ? url.pathname + url.search : null;
  } catch {
    return null;
  }
}

/** A short, stable id of this browser for abuse checks: SHA-256 of coarse facts, hex. */
export async function fingerprintOf(facts: readonly (string | number | undefined)[]): Promise<string> {
  const bytes = new TextEncoder().encode(facts.map((fact) => String(fact ?? "")).join("|"));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest.slice(0, 16), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

type IslandElement = HTMLElement & { importWithRetry?: (url: string) => Promise<unknown>; getRetryImportUrl?: (url: string) => string };

/**
 * Astro's <astro-island> loads each island's code through its importWithRetry method (one retry
 * after 1 s). Replaced on the element's prototype, every island that starts after this runs gets
 * the spec's three tries at 500 ms doubling, and waits for the hydration gate first. Islands
 * that started before this script ran (client:load during parsing) keep Astro's own retry.
 */
export function installIslandRetry(registry: Pick<CustomElementRegistry, "get"> | undefined, gate: () => Promise<void>, wait?: Sleep): boolean {
  const island = registry?.get("astro-island") as (CustomElementConstructor & { prototype: IslandElement }) | undefined;
  const proto = island?.prototype;
  if (!proto || typeof proto.importWithRetry !== "function" || typeof proto.getRetryImportUrl !== "function") return false;
  proto.importWithRetry = async function (this: IslandElement, url: string) {
    await gate();
    return loadChunk((attempt) => import(/* @vite-ignore */ attempt === 0 ? url : this.getRetryImportUrl!(url)), wait);
  };
  return true;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function sessionStore(): Storage | null {
  try {
    return sessionStorage;
  } catch {
    return null;
  }
}

type Connection = { effectiveType?: string; saveData?: boolean };
const connectionOf = (): Connection | undefined => (navigator as Navigator & { connection?: Connection }).connection;

/** The new version an earlier page saw (this page has not fetched yet), when it is not ours. */
function storedSeen(): SeenVersion | null {
  try {
    const seen = parseSeen(localStorage.getItem(SEEN_VERSION_KEY));
    return seen && seen.version !== BUILD_VERSION ? seen : null;
  } catch {
    return null;
  }
}

/** Same-origin link clicks become forced full reloads once the server runs a newer build. */
function installReloadOnNavigation(doc: Document): void {
  doc.addEventListener("click", (event) => {
    const link = (event.target as Element | null)?.closest?.("a[href]") as HTMLAnchorElement | null;
    if (!link || !isPlainNavigation(event, { href: link.href, target: link.target, hasDownload: link.hasAttribute("download") }, location.origin)) return;
    const seen = runtimeGlobal().seen ?? storedSeen();
    if (!reloadOnNavigation(BUILD_VERSION, seen, Date.now(), connectionOf()?.effectiveType)) return;
    event.preventDefault();
    try {
      sessionStorage.setItem(FORCED_RELOAD_KEY, JSON.stringify({ from: BUILD_VERSION, to: seen?.version ?? null }));
    } catch {
      // storage blocked: the reload happens all the same
    }
    location.assign(link.href);
  });
}

function installPinPreload(doc: Document): void {
  const done = new Set<string>();
  const preload = (event: Event) => {
    const link = (event.target as Element | null)?.closest?.("a[href]") as HTMLAnchorElement | null;
    const path = link ? pinLinkPath(link.href, location.origin) : null;
    if (!path || done.has(path) || done.size >= MAX_PRELOADS || path === location.pathname + location.search) return;
    done.add(path);
    const hint = doc.createElement("link");
    hint.rel = "prefetch";
    hint.href = path;
    doc.head.appendChild(hint);
  };
  doc.addEventListener("pointerover", preload, { passive: true });
  doc.addEventListener("focusin", preload);
}

async function sendFingerprint(): Promise<void> {
  const store = sessionStore();
  try {
    if (store?.getItem(FINGERPRINT_SENT_KEY)) return;
  } catch {
    return;
  }
  const fingerprint = await fingerprintOf([
    navigator.userAgent,
    navigator.language,
    (navigator.languages ?? []).join(","),
    Intl.DateTimeFormat().resolvedOptions().timeZone,
    screen.width,
    screen.height,
    screen.colorDepth,
    navigator.hardwareConcurrency,
  ]);
  const response = await apiFetch(FINGERPRINT_PATH, { method: "POST", body: JSON.stringify({ fingerprint }) });
  if (response.ok) store?.setItem(FINGERPRINT_SENT_KEY, "1");
}

export type StartupResult = "aborted" | "ready";

/** Runs start-up on this page. Throws PlatformError or StartupError after reporting them. */
/** GET /_/_/state for this page; its answer is kept on the hub and announced as STATE_EVENT. */
async function refreshState(): Promise<void> {
  try {
    const response = await apiFetch(`${STATE_PATH}?source_url=${encodeURIComponent(location.pathname + location.search)}`);
    const body = (await response.json()) as { data?: Record<string, unknown> };
    if (response.ok && isObject(body.data)) {
      runtimeGlobal().state = body.data;
      dispatchEvent(new CustomEvent(STATE_EVENT, { detail: body.data }));
    }
  } catch {
    // The page stands on its own; the viewer's extras simply do not arrive.
  }
}

export async function start(doc: Document = document): Promise<StartupResult> {
  if (shouldAbort(location.hostname, location.search)) return "aborted";
  const hub = runtimeGlobal();
  installIslandRetry(globalThis.customElements, () => hub.hydrationGate);
  let embedded: ReturnType<typeof readEmbedded>;
  try {
    const platformError = errorPayload(doc);
    if (platformError) throw platformError;
    embedded = readEmbedded(doc);
  } catch (error) {
    const name = error instanceof Error ? error.name : "Error";
    report("startupError", { name, message: error instanceof Error ? error.message : String(error) }, Date.now(), appStateOf(doc.visibilityState));
    throw error;
  }
  const { state } = embedded;
  const forced = takeForcedReload(sessionStore());
  if (forced !== null) {
    doc.documentElement.dataset["forcedReload"] = "true";
    report("forcedReload", { flag: forced.slice(0, 200) });
  }
  // The session's trail (src/visits/): the pages a signed-out visitor saw go with their sign-up.
  recordVisit(location.pathname, doc.querySelector<HTMLElement>("[data-image-signature]")?.dataset["imageSignature"] ?? null, state.loginState === "UNAUTH");
  if (delaysHydration(state.experiments)) hub.hydrationGate = sleep(HYDRATION_DELAY_MS);
  installReloadOnNavigation(doc);
  if (preloadAllowed(state.experiments, connectionOf())) installPinPreload(doc);
  if (sendsFingerprint(state.loginState)) setTimeout(() => void sendFingerprint().catch(() => undefined), FINGERPRINT_DELAY_MS);
  if (doc.querySelector("video[data-autoplay]")) {
    void loadChunk(() => import("./autoplay.ts"))
      .then(({ startAutoplay }) => startAutoplay(doc))
      .catch((error: unknown) => console.warn("autoplay did not load", error));
  }
  // A shared render fetches the viewer's own state; every page refreshes it when the app
  // resumes (spec 000 §4: resume refreshes; the events script announces pinloom:app-resume).
  if (state.renderMode === "shared") await refreshState();
  addEventListener(APP_RESUME_EVENT, () => void refreshState());
  await hub.hydrationGate;
  doc.documentElement.dataset["appReady"] = "true";
  return "ready";
}
