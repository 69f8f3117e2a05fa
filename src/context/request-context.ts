// One typed context per request (spec 000 §2, §3 "Request context", §5). Built once at the
// Worker's door from the request alone; pages and edge functions read it, and the part a
// browser needs is embedded in the page (see clientContext).
import { DEFAULT_LOCALE, isRtl, negotiateLocale, parseLocale, toLanguageTag, type Locale } from "./locales.ts";
import { isSearchCacheHost, searchEngineFromReferrer, type SearchEngine } from "./referrer.ts";
import { parseUserAgent, type UserAgentFacts } from "./user-agent.ts";
import { classifyAgent } from "./agent-kind.ts";
import { landingPageType, type LandingPageType } from "./landing-page.ts";

import { daysToExpiration, type Session } from "~/accounts/session.server.ts";
import { assignExperiments } from "~/experiments/experiments.ts";
import { cookieValue } from "./cookies.ts";
import { isServedLocale, servedLocaleOf } from "~/i18n/i18n.ts";
import { toLimitedViewer, toViewer, viewerTypeOf, type ViewerType } from "~/accounts/viewer.ts";

export const LOCALE_COOKIE = "pinloom_locale";
export const LOCALE_QUERY = "locale";

declare const MEMBER_PART: unique symbol;
/**
 * What a member page keeps on a request (src/member-page/marks.ts): the viewer's state read
 * beside the session, or a template render's marks. Opaque here, so this module, which every
 * layer imports, knows nothing of member pages.
 */
export interface MemberPart {
  readonly [MEMBER_PART]: true;
}

export interface RequestContext {
  requestId: string;
  url: URL;
  origin: string;
  fullPath: string;
  locale: Locale;
  /** The locale named in ?locale=, when the URL names one (English when it names an incomplete one). */
  explicitLocale: Locale | null;
  /** BCP 47 tag for <html lang> and hreflang. */
  language: string;
  isRTL: boolean;
  /** Read on first use (a getter): a copy by spread carries the value. */
  readonly country: string;
  isBot: boolean;
  isSocialBot: boolean;
  /** The request came through a search engine's cache or asked for server HTML only. */
  isSearchCache: boolean;
  serverOnly: boolean;
  /** Crawlers, cache hosts and server_only get server HTML with no client script at all. */
  noClientScript: boolean;
  searchEngineReferrer: SearchEngine | null;
  userAgent: Readonly<UserAgentFacts>;
  viewerType: ViewerType;
  isAuthenticated: boolean;
  /** The signed-in (or limited-login) session, read from D1 by src/server/context.ts. */
  session: Session | null;
  inviteCode: string | null;
  /** Spec 000 §2 label of this page as a landing page (own_* needs a signed-in viewer). */
  landingPageType: LandingPageType | null;
  utmCampaign: string | null;
  utmContent: string | null;
  /**
   * "shared" when this render may be served to other visitors from the edge cache: then the
   * page embeds only what every visitor shares. Set by src/server/page-cache.ts.
   * "member" when this render is a template shared by signed-in people (src/member-page/member-page.server.ts):
   * it is made for no one (the session's user is a stand-in whose id matches no row), and
   * what is someone's own (the client context, the per-viewer islands) is filled in per request.
   */
  renderMode: "personal" | "shared" | "member";
  /**
   * The viewer's experiment groups (spec 000 §3): by account id for a full login, none for
   * anyone else. Read on first use (a getter); a copy by spread carries the value, so a member
   * template keeps the groups of the people it is served to.
   */
  readonly experiments: Readonly<Record<string, string>>;
  /** The member page's part of this request (src/member-page/), when it has one. */
  member?: MemberPart;
}

export interface RequestFacts {
  requestId?: string | undefined;
  /**
   * request.cf.country where the runtime provides it, or how to read it: reading request.cf
   * parses the runtime's whole cf object, which a page served from the edge cache never needs.
   */
  country?: string | undefined | (() => string | undefined);
  session?: Session | null | undefined;
}

const boundedParam = (url: URL, name: string, max = 200): string | null => {
  const value = url.searchParams.get(name);
  return value ? value.slice(0, max) : null;
};

/** A locale asked for by name (?locale=, the cookie): itself when it is served, else English. */
function servedOrDefault(locale: Locale | null): Locale | null {
  return locale && servedLocaleOf(locale);
}

/**
 * Locale order: explicit ?locale= (hreflang URLs use it), then the cookie, then Accept-Language.
 * Only served (complete) locales come out: a page in an incomplete one would be English text
 * labelled as another language.
 */
function resolveRequestLocale(explicitLocale: Locale | null, headers: Headers): Locale {
  return (
    explicitLocale ??
    servedOrDefault(parseLocale(cookieValue(headers.get("cookie"), LOCALE_COOKIE))) ??
    negotiateLocale(headers.get("accept-language"), isServedLocale) ??
    DEFAULT_LOCALE
  );
}

interface AgentFacts {
  isBot: boolean;
  isSocialBot: boolean;
  userAgent: Readonly<UserAgentFacts>;
}

/**
 * isbot's pattern and the UA parse cost more than the rest of the context together, and an
 * isolate sees the same few user agents over and over: their facts are kept, frozen, in a
 * small map (oldest out first).
 */
const AGENT_MEMO_MAX = 512;
const agentMemo = new Map<string, AgentFacts>();

function agentFacts(rawUserAgent: string): AgentFacts {
  const known = agentMemo.get(rawUserAgent);
  if (known) return known;
  const { isBot, isSocialBot } = classifyAgent(rawUserAgent);
  const userAgent = parseUserAgent(rawUserAgent, isBot);
  Object.freeze(userAgent.platformVersion);
  const facts: AgentFacts = Object.freeze({ isBot, isSocialBot, userAgent: Object.freeze(userAgent) });
  if (agentMemo.size >= AGENT_MEMO_MAX) agentMemo.delete(agentMemo.keys().next().value!);
  agentMemo.set(rawUserAgent, facts);
  return facts;
}

/** A request's id: the edge's ray id where there is one, else a fresh one. */
export function requestIdOf(headers: Headers): string {
  return headers.get("cf-ray") ?? crypto.randomUUID();
}

/**
 * What decides which shared render of a page a signed-out request gets (src/server/page-cache.ts):
 * its locale and whether it runs script. Read from the request alone, so the page cache can
 * answer before the rest of the context is built, and the context reads it the same way.
 */
export interface PageVariantFacts extends AgentFacts {
  url: URL;
  locale: Locale;
  explicitLocale: Locale | null;
  isSearchCache: boolean;
  serverOnly: boolean;
  noClientScript: boolean;
}

export function pageVariantFacts(request: Request): PageVariantFacts {
  const url = new URL(request.url);
  const headers = request.headers;
  // Bounded before use: the memo's keys and isbot's input stay small whatever a client sends.
  const agent = agentFacts((headers.get("user-agent") ?? "").slice(0, 512));
  const isSearchCache = isSearchCacheHost(url.hostname) || isSearchCacheHost(headers.get("x-forwarded-host"));
  // Most page URLs have no query: then its parameters are not parsed at all.
  const query = url.search === "" ? null : url.searchParams;
  const serverOnly = query?.has("server_only") ?? false;
  const explicitLocale = query ? servedOrDefault(parseLocale(query.get(LOCALE_QUERY))) : null;
  return {
    ...agent,
    url,
    locale: resolveRequestLocale(explicitLocale, headers),
    explicitLocale,
    isSearchCache,
    serverOnly,
    noClientScript: agent.isBot || isSearchCache || serverOnly,
  };
}

export function buildRequestContext(request: Request, facts: RequestFacts = {}): RequestContext {
  const headers = request.headers;
  const { url, isBot, isSocialBot, userAgent, isSearchCache, serverOnly, noClientScript, locale, explicitLocale } = pageVariantFacts(request);
  const session = facts.session ?? null;
  const viewerType: ViewerType = session === null ? "UNAUTH" : viewerTypeOf(session.user);
  let country: string | undefined;
  let experiments: Readonly<Record<string, string>> | undefined;
  return {
    requestId: facts.requestId ?? requestIdOf(headers),
    url,
    origin: url.origin,
    fullPath: url.pathname + url.search,
    locale,
    explicitLocale,
    language: toLanguageTag(locale),
    isRTL: isRtl(locale),
    // Read on first use (a spread copies it as a plain value).
    get country(): string {
      if (country === undefined) {
        const known = typeof facts.country === "function" ? facts.country() : facts.country;
        const code = (known ?? headers.get("cf-ipcountry") ?? "US").toUpperCase().slice(0, 2);
        country = /^[A-Z]{2}$/.test(code) ? code : "US";
      }
      return country;
    },
    isBot,
    isSocialBot,
    isSearchCache,
    serverOnly,
    noClientScript,
    searchEngineReferrer: searchEngineFromReferrer(headers.get("referer")),
    userAgent,
    viewerType,
    isAuthenticated: viewerType === "AUTH",
    session,
    inviteCode: boundedParam(url, "invite_code", 64),
    landingPageType: landingPageType(url.pathname),
    utmCampaign: boundedParam(url, "utm_campaign"),
    utmContent: boundedParam(url, "utm_content"),
    renderMode: "personal",
    // Read on first use: API calls and signed-out pages never need them.
    get experiments(): Readonly<Record<string, string>> {
      experiments ??= assignExperiments(viewerType === "AUTH" && session ? session.user.id : null);
      return experiments;
    },
  };
}

/**
 * What a browser may know about its own request: embedded in every page that runs script.
 * A shared (edge-cached) render carries only what every visitor of that URL, locale and
 * variant has in common; the client asks GET /_/_/state for the rest (spec 000 §7).
 */
export function clientContext(ctx: RequestContext, appVersion: string) {
  const shared = {
    appVersion,
    isAuthenticated: ctx.isAuthenticated,
    isRTL: ctx.isRTL,
    landingPageType: ctx.landingPageType,
    language: ctx.language,
    locale: ctx.locale,
    loginState: ctx.viewerType,
    origin: ctx.origin,
    renderMode: ctx.renderMode,
  };
  if (ctx.renderMode === "shared") return shared;
  const session = ctx.session;
  return {
    ...shared,
    // Spec 000 §3: the viewer read from the server, and days until its session expires (the
    // client's token-refresh rule of §4 reads it). Never in a shared render.
    viewer: session && ctx.viewerType === "AUTH" ? toViewer(session.user) : null,
    limitedViewer: session && ctx.viewerType === "LIMITED_LOGIN" ? toLimitedViewer(session.user) : null,
    // Spec 000 §3 "experiments": groups by account id, so only a full login is enrolled.
    experiments: ctx.experiments,
    daysToExpiration: session ? daysToExpiration(session.expiresAt) : null,
    country: ctx.country,
    fullPath: ctx.fullPath,
    inviteCode: ctx.inviteCode,
    utmCampaign: ctx.utmCampaign,
    utmContent: ctx.utmContent,
    isBot: ctx.isBot,
    isSocialBot: ctx.isSocialBot,
    requestIdentifier: ctx.requestId,
    searchEngineReferrer: ctx.searchEngineReferrer,
    userAgent: {
      browserName: ctx.userAgent.browserName,
      browserType: ctx.userAgent.browserType,
      browserVersion: ctx.userAgent.browserVersion,
      canUseNativeApp: ctx.userAgent.canUseNativeApp,
      isMobile: ctx.userAgent.isMobile,
      isTablet: ctx.userAgent.isTablet,
      osName: ctx.userAgent.osName,
      platform: ctx.userAgent.platform,
      platformVersion: ctx.userAgent.platformVersion,
    },
  };
}

/**
 * The visitor's country for island props, which are HTML: a shared (edge-cached) render must
 * not carry the first visitor's. Empty means "the request's own", filled in by the server.
 */
export function islandCountry(ctx: Pick<RequestContext, "renderMode" | "country">): string {
  return ctx.renderMode === "personal" ? ctx.country : "";
}

/**
 * JSON for a <script type="application/json"> block. Escapes every character that could
 * end the element or start markup, so no value (a title, a query) can close the script.
 */
export function serializeForScript(value: unknown): string {
  // One pass over the JSON (it runs on every page, twice on a member page), not five.
  return JSON.stringify(value).replace(SCRIPT_UNSAFE, (character) => SCRIPT_ESCAPES[character]!);
}

const SCRIPT_UNSAFE = /[<>&\u2028\u2029]/g;
const SCRIPT_ESCAPES: Record<string, string> = { "<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029" };
