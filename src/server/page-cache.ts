// Edge cache for signed-out HTML. Pages a signed-out visitor sees are the
// same for everyone with the same URL, locale and variant, so they are rendered once and
// served from the Cache API. The Cache API has no stale-while-revalidate, so it is built
// here: past FRESH seconds an entry is served once more while a fresh render replaces it in
// the background; past FRESH + STALE the page is rendered first. An entry is kept
// STALE_IF_ERROR seconds longer for one purpose: when a render fails because storage is out
// of reach (a 5xx), the visitor and the crawler get the last good page instead of the error.
//
// Privacy: a shared render embeds only what every visitor shares (see clientContext), and
// nothing per-visitor is ever stored: cookies are added by the CSRF middleware after this
// layer, the request id by the security-header middleware.
import type { Context } from "hono";
import { DEFAULT_LOCALE, LOCALES, parseLocale } from "~/context/locales.ts";
import { SERVED_LOCALES, servedLocaleOf } from "~/i18n/i18n.ts";
import { BUILD_VERSION } from "~/runtime/build-version.ts";
import { LOCALE_QUERY, pageVariantFacts, type RequestContext } from "~/context/request-context.ts";
import { BoundedLru } from "./bounded-lru.ts";
import { withRenderContext, type AppEnv } from "./context.ts";
import { purgeMemberTemplates, serveMemberPage, type IslandRenderer, type TemplateRenderer } from "~/member-page/member-page.server.ts";

const FRESH_SECONDS = 60;
const STALE_SECONDS = 600;
const STALE_IF_ERROR_SECONDS = 24 * 60 * 60;
const STORED_AT = "x-pinloom-stored-at";
const CACHE_STATUS = "x-pinloom-cache";
export const SHARED_CACHE_CONTROL = `public, max-age=0, s-maxage=${FRESH_SECONDS}, stale-while-revalidate=${STALE_SECONDS}, stale-if-error=${STALE_IF_ERROR_SECONDS}`;
export const PRIVATE_CACHE_CONTROL = "private, no-store";

/** Query parameters that never change what a page shows: left out of the key. */
const IGNORED_PARAMS = new Set(["utm_source", "utm_medium", "utm_campaign", "utm_content", "utm_term", "invite_code", "fbclid", "gclid", "msclkid", "server_only", "locale"]);
const MAX_KEY_PARAMS = 10;

export type Variant = "full" | "bare";
const VARIANTS: readonly Variant[] = ["full", "bare"];

function variantOf(facts: { noClientScript: boolean }): Variant {
  return facts.noClientScript ? "bare" : "full";
}

/**
 * The cache key: origin and path, the content-relevant query sorted, then locale, variant and
 * the build. A deploy starts new entries: an old render names the old build's hashed
 * stylesheets and scripts, which the new deploy's static assets no longer serve.
 */
export function pageCacheKey(url: URL, locale: string, variant: Variant, build: string = BUILD_VERSION, kept = keptParams(url)): string {
  // Built as a string (every signed-out request makes one); it reads as the page's URL with
  // the key's parts as parameters, each encoded.
  let key = `${url.origin}${url.pathname}?`;
  for (const [name, value] of kept) key += `${encodeURIComponent(name)}=${encodeURIComponent(value)}&`;
  key += `__locale=${encodeURIComponent(locale)}`;
  // A URL that names its locale (?locale=, the hreflang URLs) is its own canonical: another page head.
  if (url.search !== "" && parseLocale(url.searchParams.get(LOCALE_QUERY))) key += "&__explicit=1";
  return `${key}&__variant=${variant}&__build=${encodeURIComponent(build)}`;
}

/** The query parameters that can change a page, sorted; never one named like the key's own `__` fields. */
function keptParams(url: URL): Array<[string, string]> {
  if (url.search === "") return [];
  return [...url.searchParams.entries()]
    .filter(([name]) => !IGNORED_PARAMS.has(name) && !name.startsWith("__"))
    .sort(([a, x], [b, y]) => a.localeCompare(b) || x.localeCompare(y));
}

/** A request whose answer may be shared: a signed-out GET. */
function isShareable(method: string, ctx: RequestContext): boolean {
  return method === "GET" && !ctx.isAuthenticated && ctx.viewerType === "UNAUTH";
}

function cacheable(response: Response): boolean {
  return (
    response.status === 200 &&
    (response.headers.get("content-type") ?? "").startsWith("text/html") &&
    !response.headers.has("set-cookie") &&
    !/no-store|private/.test(response.headers.get("cache-control") ?? "")
  );
}

function forClient(response: Response, status: "HIT" | "MISS" | "STALE" | "BYPASS"): Response {
  const copy = new Response(response.body, response);
  copy.headers.delete(STORED_AT);
  copy.headers.set(CACHE_STATUS, status);
  if (status !== "BYPASS") {
    copy.headers.set("Cache-Control", SHARED_CACHE_CONTROL);
    copy.headers.set("Vary", "Accept-Language, Cookie, User-Agent");
  }
  return copy;
}

/**
 * Stores a render's bytes in the edge cache and in this isolate's memory. A page is rendered to
 * one string, so its bytes are at hand: the cache and the memory share them, where a tee of the
 * body would pump the same bytes through two more streams.
 */
async function store(cache: Cache | null, key: string, response: Response, now: number, body?: ArrayBuffer): Promise<void> {
  const bytes = body ?? (await response.arrayBuffer());
  const stored = new Response(bytes, response);
  stored.headers.set("Cache-Control", `public, max-age=${FRESH_SECONDS + STALE_SECONDS + STALE_IF_ERROR_SECONDS}`);
  stored.headers.set(STORED_AT, String(now));
  stored.headers.delete("x-request-id");
  remember(key, bytes, stored, now);
  await cache?.put(key, stored);
}

/**
 * A small in-isolate layer in front of the Cache API: an isolate serves many requests, and a
 * fresh page held in memory costs a Map look-up instead of a cache round trip. Bounded by
 * entries and bytes (least recently used out first), fresh entries only, and purged with
 * the Cache API entry; other isolates' copies expire within FRESH_SECONDS.
 */
const memory = new BoundedLru<MemoryEntry>({ maxEntries: 256, maxBytes: 16 * 1024 * 1024, ttlMs: FRESH_SECONDS * 1000 });

interface MemoryEntry {
  body: ArrayBuffer;
  status: number;
  /**
   * The headers a HIT answers with (forClient's), made once. Kept as a Headers object: a
   * response copies it as it is, where a list of pairs would be parsed and checked anew on
   * every hit. Never handed out, so no answer can change it.
   */
  headers: Headers;
}

/** A remembered page, answered as a HIT. */
function recall(key: string, now: number): Response | null {
  const entry = memory.get(key, now);
  return entry ? new Response(entry.body, { status: entry.status, headers: entry.headers }) : null;
}

async function rememberResponse(key: string, response: Response, storedAt: number): Promise<void> {
  remember(key, await response.arrayBuffer(), response, storedAt);
}

/** Holds a stored render's bytes (never handed out: each HIT is a new Response over them). */
function remember(key: string, body: ArrayBuffer, response: Response, storedAt: number): void {
  const { headers } = forClient(new Response(null, response), "HIT");
  memory.set(key, { body, status: response.status, headers }, body.byteLength, storedAt);
}

/** workerd's default cache (the DOM typings' CacheStorage does not know `default`). */
function defaultCache(): Cache {
  return (caches as unknown as { default: Cache }).default;
}

type WaitUntil = (work: Promise<unknown>) => void;

/** What the caches hold for a key: a fresh render answered as a HIT, an older one with its age, or nothing. */
type Found = { fresh: Response } | { stored: Response; age: number } | null;

async function lookUp(key: string, edge: Cache | null, now: number, waitUntil: WaitUntil): Promise<Found> {
  const remembered = recall(key, now);
  if (remembered) return { fresh: remembered };
  const hit = edge ? await edge.match(key) : undefined;
  if (!hit) return null;
  const storedAt = Number(hit.headers.get(STORED_AT) ?? 0);
  const age = (now - storedAt) / 1000;
  if (age >= FRESH_SECONDS) return { stored: hit, age };
  const [forMemory, forVisitor] = hit.body ? hit.body.tee() : [null, null];
  waitUntil(rememberResponse(key, new Response(forMemory, hit), storedAt));
  return { fresh: forClient(new Response(forVisitor, hit), "HIT") };
}

/**
 * Requests whose page the early answer looked for and found in neither cache, by the key it
 * looked for: the full path renders them without asking the caches a second time.
 */
const missed = new WeakMap<Request, string>();

/**
 * A signed-out GET whose page is held fresh, answered from the request alone: before the
 * request context, CSRF and session work that the full path does, so a cache hit costs
 * little more than /healthz. The key is made exactly as servePage makes it, and the caller
 * adds what the middleware it skips would have (the CSRF cookie). Null sends the request down
 * the full path: it carries a session cookie (never answered here, whatever it holds), it is
 * not a GET, or no fresh render of its page is held.
 */
export async function earlyPageAnswer(request: Request, carriesSession: boolean, waitUntil: WaitUntil, options: Pick<ServeOptions, "cache" | "now"> = {}): Promise<Response | null> {
  // Nothing else is read before these two checks: most requests that are not pages stop here.
  if (request.method !== "GET" || carriesSession) return null;
  const { cache = defaultCache(), now = Date.now() } = options;
  const facts = pageVariantFacts(request);
  const kept = keptParams(facts.url);
  if (kept.length > MAX_KEY_PARAMS) return null;
  const key = pageCacheKey(facts.url, facts.locale, variantOf(facts), BUILD_VERSION, kept);
  const found = await lookUp(key, facts.explicitLocale ? null : cache, now, waitUntil);
  if (found && "fresh" in found) return found.fresh;
  if (!found) missed.set(request, key);
  // An older render is the full path's to serve and refresh.
  await found?.stored.body?.cancel();
  return null;
}

/** Keys being re-rendered in this isolate: one background render per key at a time. */
const revalidating = new Set<string>();

/** Renders the request's page; `request` replaces the raw request (a member template's has no cookies). */
export type Renderer = (c: Context<AppEnv>, request?: Request) => Promise<Response> | Response;

/** A member template's render: the request without its cookies, with the template's context. */
function templateRenderer(c: Context<AppEnv>, render: Renderer): TemplateRenderer {
  return (template) =>
    withRenderContext(c.executionCtx, template, async () => {
      const headers = new Headers(c.req.raw.headers);
      headers.delete("cookie");
      headers.delete("authorization");
      const response = await render(c, new Request(c.req.raw.url, { method: "GET", headers }));
      return new Response(await response.text(), response);
    });
}

export interface ServeOptions {
  /** Renders a member page's per-viewer islands; without it, signed-in close-ups render personally. */
  islands?: IslandRenderer;
  cache?: Cache;
  now?: number;
}

export async function servePage(c: Context<AppEnv>, render: Renderer, { islands, cache = defaultCache(), now = Date.now() }: ServeOptions = {}): Promise<Response> {
  const ctx = c.var.ctx;
  if (!isShareable(c.req.method, ctx)) {
    // A signed-in close-up with nothing of the viewer's own on it: the shared member template.
    const member = islands ? await serveMemberPage({ ctx, method: c.req.method, db: c.env.DB, render: templateRenderer(c, render), renderIsland: islands, now }) : null;
    if (member) {
      member.headers.set("Cache-Control", PRIVATE_CACHE_CONTROL);
      return member;
    }
    const response = await render(c);
    const copy = new Response(response.body, response);
    copy.headers.set("Cache-Control", PRIVATE_CACHE_CONTROL);
    return copy;
  }
  ctx.renderMode = "shared";
  // A render is not stored with more than MAX_KEY_PARAMS parameters that can change it: a key
  // that dropped some would serve one page for another.
  const kept = keptParams(ctx.url);
  if (kept.length > MAX_KEY_PARAMS) {
    const response = forClient(await render(c), "BYPASS");
    response.headers.set("Cache-Control", PRIVATE_CACHE_CONTROL);
    return response;
  }
  const key = pageCacheKey(ctx.url, ctx.locale, variantOf(ctx), BUILD_VERSION, kept);
  // A URL naming its locale (an hreflang alternate) is kept in this isolate's memory only, so a
  // purge of its path stays one Cache API call per locale and variant.
  const edge = ctx.explicitLocale ? null : cache;
  const found = missed.get(c.req.raw) === key ? null : await lookUp(key, edge, now, (work) => c.executionCtx.waitUntil(work));
  if (found && "fresh" in found) return found.fresh;
  if (found) {
    const { stored: hit, age } = found;
    if (age < FRESH_SECONDS + STALE_SECONDS) {
      if (!revalidating.has(key)) {
        revalidating.add(key);
        c.executionCtx.waitUntil(
          (async () => {
            try {
              await replace(edge, key, await render(c), cache);
            } finally {
              revalidating.delete(key);
            }
          })(),
        );
      }
      return forClient(hit, "STALE");
    }
    // Too old to serve first: rendered now, and the old page answers only if the render fails.
    const response = await render(c);
    if (response.status >= 500) {
      await response.body?.cancel();
      return forClient(hit, "STALE");
    }
    await hit.body?.cancel();
    if (!cacheable(response)) {
      await replace(edge, key, response, cache);
      return forClient(response, "BYPASS");
    }
    return stored(c, edge, key, response, now);
  }
  const response = await render(c);
  if (!cacheable(response)) return forClient(response, "BYPASS");
  return stored(c, edge, key, response, now);
}

/** Answers a render as a MISS while it is stored (after the answer). */
async function stored(c: Context<AppEnv>, edge: Cache | null, key: string, response: Response, now: number): Promise<Response> {
  const body = await response.arrayBuffer();
  c.executionCtx.waitUntil(store(edge, key, response, now, body));
  return forClient(new Response(body, response), "MISS");
}

/**
 * What a newer render does to a stored page. A page that stopped being shareable (a board
 * turned secret: 404; a pin deleted: 410) must not be served stale again: the old render goes.
 * A render that failed (5xx: storage out of reach) says nothing about the page: it stays.
 * `response` is consumed only when it is stored.
 */
async function replace(edge: Cache | null, key: string, response: Response, cache: Cache): Promise<void> {
  if (cacheable(response)) return store(edge, key, response, Date.now());
  if (response.status >= 500) return;
  memory.delete(key);
  await cache.delete(key);
}

const PURGE_CONCURRENCY = 6;

/** Drops every cached render of a path (all locales, both variants, member templates) in this location. */
export async function purgePage(origin: string, path: string, cache: Cache = defaultCache(), build: string = BUILD_VERSION): Promise<void> {
  const url = new URL(path, origin);
  // Pages are rendered only in the served locales, so only those can be stored. The default
  // locale first: most visitors' pages go in the first deletes.
  const locales = [DEFAULT_LOCALE, ...SERVED_LOCALES.filter((locale) => locale !== DEFAULT_LOCALE)];
  const keys = locales.flatMap((locale) => VARIANTS.map((variant) => pageCacheKey(url, locale, variant, build)));
  // The same path naming each locale (?locale=): held in memory only (see servePage).
  const named = (locale: string) => {
    const href = new URL(url);
    href.searchParams.set(LOCALE_QUERY, locale);
    return href;
  };
  const forgetInMemory = () => {
    for (const key of keys) memory.delete(key);
    // A URL naming an incomplete locale holds the English render.
    for (const locale of LOCALES) for (const variant of VARIANTS) memory.delete(pageCacheKey(named(locale), servedLocaleOf(locale), variant, build));
  };
  forgetInMemory();
  purgeMemberTemplates(origin, path);
  // Six at a time: production holds an invocation to six subrequests in flight anyway, and a
  // write's purge (served locales × variants keys a path, several paths) fired all at once
  // starves every request around it where nothing holds it back.
  for (let i = 0; i < keys.length; i += PURGE_CONCURRENCY) await Promise.all(keys.slice(i, i + PURGE_CONCURRENCY).map((key) => cache.delete(key)));
  // A read that came between the write and its edge-cache delete found the stale copy there
  // and put it back in memory: forget it once more, now that the edge holds none.
  forgetInMemory();
}
