// The one fetch every island and page script uses (spec 000 §7): Accept and Content-Type
// JSON, the CSRF token from the `csrftoken` cookie, X-Requested-With, the page it was called
// from, the query name for GraphQL, the app state (active or background) and the forced-country
// headers copied from the page's own query string; credentials included. Every same-origin
// answer's X-App-Version is compared with this build's (version.ts); a GraphQL call that fails
// on the network is reported as a fetch error (report.ts).
import { cookieValue } from "~/context/cookies.ts";
import { BUILD_VERSION } from "./build-version.ts";
import { runtimeGlobal } from "./global.ts";
import {
  APP_STATE_HEADER,
  APP_VERSION_HEADER,
  CSRF_COOKIE,
  CSRF_HEADER,
  FORCE_COUNTRY_PARAMS,
  QUERY_NAME_HEADER,
  REQUESTED_WITH,
  REQUESTED_WITH_HEADER,
  SOURCE_URL_HEADER,
  type AppState,
} from "./headers.ts";
import { report } from "./report.ts";
import { noteVersion, parseSeen, SEEN_VERSION_KEY } from "./version.ts";

/** What the headers depend on, read from the page at call time. */
export interface PageFacts {
  cookie: string;
  /** location.href of the page making the call. */
  href: string;
  visibility: DocumentVisibilityState | "visible";
}

function pageFacts(): PageFacts {
  if (typeof document === "undefined" || typeof location === "undefined") return { cookie: "", href: "http://localhost/", visibility: "visible" };
  return { cookie: document.cookie, href: location.href, visibility: document.visibilityState };
}

/** One cookie from the page's cookie string (percent-decoded; as sent when it does not decode). */
export const readCookie = (cookie: string, name: string): string | null => cookieValue(cookie, name);

export const appStateOf = (visibility: PageFacts["visibility"]): AppState => (visibility === "hidden" ? "background" : "active");

/** Source URLs and forced countries are bounded: a long query string cannot bloat every call. */
const MAX_SOURCE_URL = 2048;
const FORCED_COUNTRY = /^[A-Za-z]{2}$/;

export interface HeaderOptions {
  /** The persisted query's name (GraphQL calls). */
  queryName?: string | undefined;
  /** The CSRF token goes with the methods the server checks (src/server/csrf.ts): not GET or HEAD. */
  method?: string | undefined;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The spec §7 headers for one call from the page described by `facts`. */
export function requestHeaders(facts: PageFacts, options: HeaderOptions = {}): Record<string, string> {
  const page = new URL(facts.href);
  const headers: Record<string, string> = {
    Accept: "application/json",
    "Content-Type": "application/json",
    [REQUESTED_WITH_HEADER]: REQUESTED_WITH,
    [SOURCE_URL_HEADER]: (page.pathname + page.search).slice(0, MAX_SOURCE_URL),
    [APP_STATE_HEADER]: appStateOf(facts.visibility),
  };
  if (!SAFE_METHODS.has((options.method ?? "GET").toUpperCase())) headers[CSRF_HEADER] = readCookie(facts.cookie, CSRF_COOKIE) ?? "";
  if (options.queryName) headers[QUERY_NAME_HEADER] = options.queryName;
  for (const [param, header] of FORCE_COUNTRY_PARAMS) {
    const value = page.searchParams.get(param);
    if (value && FORCED_COUNTRY.test(value)) headers[header] = value.toUpperCase();
  }
  return headers;
}

export interface ApiInit extends Omit<RequestInit, "headers"> {
  headers?: Record<string, string>;
  queryName?: string;
}

export interface FetchDeps {
  fetch: typeof fetch;
  facts: () => PageFacts;
  now: () => number;
  storage: () => Pick<Storage, "getItem" | "setItem" | "removeItem"> | null;
  version: string;
}

function localStore(): Storage | null {
  try {
    return typeof localStorage === "undefined" ? null : localStorage;
  } catch {
    return null;
  }
}

export const browserDeps = (): FetchDeps => ({
  fetch: (input, init) => fetch(input, init),
  facts: pageFacts,
  now: () => Date.now(),
  storage: localStore,
  version: BUILD_VERSION,
});

/** The browser's deps with a given fetch (and cookie string, when the caller passes one): for helpers whose tests script them. */
export function depsWith(fetcher: typeof fetch, cookie?: string): FetchDeps {
  // Called bare, never as deps.fetch(...): window.fetch throws "Illegal invocation" when its
  // `this` is some other object.
  const deps = { ...browserDeps(), fetch: (input: RequestInfo | URL, init?: RequestInit) => fetcher(input, init) };
  return cookie === undefined ? deps : { ...deps, facts: () => ({ ...pageFacts(), cookie }) };
}

/** The body types whose Content-Type the browser must set itself (multipart boundary, form). */
const selfTyped = (body: RequestInit["body"]): boolean =>
  (typeof FormData !== "undefined" && body instanceof FormData) ||
  (typeof URLSearchParams !== "undefined" && body instanceof URLSearchParams) ||
  (typeof Blob !== "undefined" && body instanceof Blob);

/** base then extra, names compared case-insensitively (extra wins), less the dropped ones. */
function mergeHeaders(base: Record<string, string>, extra: Record<string, string>, dropped: ReadonlySet<string>): Record<string, string> {
  const merged = new Map<string, [string, string]>();
  for (const [name, value] of [...Object.entries(base), ...Object.entries(extra)]) merged.set(name.toLowerCase(), [name, value]);
  for (const name of dropped) merged.delete(name.toLowerCase());
  return Object.fromEntries(merged.values());
}

/** Compares an answer's version with ours; the first sight of a new one is reported. */
function observeVersion(header: string | null, deps: Pick<FetchDeps, "now" | "storage" | "version" | "facts">): void {
  const hub = runtimeGlobal();
  const storage = deps.storage();
  let stored = hub.seen;
  try {
    stored ??= parseSeen(storage?.getItem(SEEN_VERSION_KEY) ?? null);
  } catch {
    // storage blocked: this page's memory only
  }
  const now = deps.now();
  const { seen, isNew } = noteVersion(deps.version, header, stored, now);
  hub.seen = seen;
  try {
    if (stored && !seen) storage?.removeItem(SEEN_VERSION_KEY);
    if (isNew && seen) storage?.setItem(SEEN_VERSION_KEY, JSON.stringify(seen));
  } catch {
    // storage full or blocked
  }
  if (!isNew || !seen) return;
  report("newVersion", { current: deps.version, next: seen.version }, now, appStateOf(deps.facts().visibility));
}

function isSameOrigin(input: string, pageHref: string): boolean {
  try {
    return new URL(input, pageHref).origin === new URL(pageHref).origin;
  } catch {
    return false;
  }
}

/**
 * fetch with the app's headers. Caller headers win (a form post sets its own Content-Type);
 * FormData, URLSearchParams and Blob bodies keep the type the browser gives them.
 */
export async function apiFetch(input: string, init: ApiInit = {}, deps: FetchDeps = browserDeps()): Promise<Response> {
  const { queryName, headers: extra, ...rest } = init;
  const facts = deps.facts();
  const sameOrigin = isSameOrigin(input, facts.href);
  // Never send the token or page details to another origin; let the browser type form bodies.
  const dropped = new Set<string>(sameOrigin ? [] : [CSRF_HEADER, SOURCE_URL_HEADER]);
  if (selfTyped(rest.body)) dropped.add("Content-Type");
  const headers = mergeHeaders(requestHeaders(facts, { queryName, method: rest.method }), extra ?? {}, dropped);
  // A call carrying the token must not follow a redirect: a same-origin URL that redirects
  // off-site would hand the token to the other host. Such a call fails instead.
  const carriesToken = Object.keys(headers).some((name) => name.toLowerCase() === CSRF_HEADER.toLowerCase());
  let response: Response;
  try {
    const send = deps.fetch;
    response = await send(input, { credentials: sameOrigin ? "include" : "omit", ...rest, ...(carriesToken ? { redirect: "error" as const } : {}), headers });
  } catch (error) {
    if (queryName) {
      // Spec 000 §7: a GraphQL network failure reports the CSRF state it was sent with. The
      // token itself is not copied into the log: whether cookie and header were there and
      // agreed is what tells a CSRF failure from a network one.
      const cookieToken = readCookie(facts.cookie, CSRF_COOKIE);
      report(
        "fetchError",
        {
          url: input.slice(0, 256),
          queryName,
          error: error instanceof Error ? error.name : "unknown",
          csrfCookie: cookieToken === null ? "missing" : cookieToken === "" ? "empty" : "present",
          csrfHeaderMatches: cookieToken !== null && headers[CSRF_HEADER] === cookieToken,
          headers: Object.keys(headers).sort(),
        },
        deps.now(),
        appStateOf(facts.visibility),
      );
    }
    throw error;
  }
  if (sameOrigin) observeVersion(response.headers.get(APP_VERSION_HEADER), deps);
  return response;
}
