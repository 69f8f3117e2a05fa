import type { Session } from "~/accounts/session.server.ts";
import { describe, expect, it } from "vitest";
import { buildRequestContext, clientContext, serializeForScript } from "./request-context.ts";

const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";
const request = (path: string, headers: Record<string, string> = {}) =>
  new Request(`https://pinloom.example${path}`, { headers: { "user-agent": CHROME, ...headers } });

describe("bots and server-only rendering", () => {
  it("a browser gets client script", () => {
    const ctx = buildRequestContext(request("/pin/1/"));
    expect(ctx.isBot).toBe(false);
    expect(ctx.noClientScript).toBe(false);
  });

  it.each([
    "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
    "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)",
    "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
    "curl/8.5.0",
    "",
  ])("%s is a bot and gets none", (userAgent) => {
    const ctx = buildRequestContext(request("/", { "user-agent": userAgent }));
    expect(ctx.isBot).toBe(true);
    expect(ctx.noClientScript).toBe(true);
  });

  it("tells social link-preview bots apart", () => {
    expect(buildRequestContext(request("/", { "user-agent": "Twitterbot/1.0" })).isSocialBot).toBe(true);
    expect(buildRequestContext(request("/", { "user-agent": "Mozilla/5.0 (compatible; Googlebot/2.1)" })).isSocialBot).toBe(false);
  });

  it("server_only in the query means no script, whatever the value", () => {
    expect(buildRequestContext(request("/?server_only")).noClientScript).toBe(true);
    expect(buildRequestContext(request("/?server_only=0")).noClientScript).toBe(true);
    expect(buildRequestContext(request("/?server_only=1")).serverOnly).toBe(true);
  });

  it("a search-engine cache host means no script, by host or forwarded host", () => {
    const direct = buildRequestContext(new Request("https://webcache.googleusercontent.com/search?q=cache:x", { headers: { "user-agent": CHROME } }));
    expect(direct.isSearchCache).toBe(true);
    expect(direct.noClientScript).toBe(true);
    const forwarded = buildRequestContext(request("/", { "x-forwarded-host": "pinloom-example.cdn.ampproject.org" }));
    expect(forwarded.noClientScript).toBe(true);
  });
});

describe("locale", () => {
  it("prefers ?locale=, then the cookie, then Accept-Language, then en_US", () => {
    const headers = { cookie: "a=b; pinloom_locale=fr", "accept-language": "ja" };
    expect(buildRequestContext(request("/?locale=ar-SA", headers)).locale).toBe("ar_SA");
    expect(buildRequestContext(request("/", headers)).locale).toBe("fr");
    expect(buildRequestContext(request("/", { "accept-language": "ar" })).locale).toBe("ar_SA");
    expect(buildRequestContext(request("/")).locale).toBe("en_US");
  });

  it("ignores a locale it does not support and moves on", () => {
    expect(buildRequestContext(request("/?locale=xx_XX", { "accept-language": "fr" })).locale).toBe("fr");
  });

  it("serves each of the 45 in its own language, however it is asked for", () => {
    const named = buildRequestContext(request("/?locale=de"));
    expect([named.locale, named.language, named.isRTL]).toEqual(["de", "de", false]);
    expect(buildRequestContext(request("/", { cookie: "pinloom_locale=ja" })).locale).toBe("ja");
    expect(buildRequestContext(request("/", { "accept-language": "de" })).locale).toBe("de");
    const hebrew = buildRequestContext(request("/?locale=he_IL"));
    expect([hebrew.locale, hebrew.language, hebrew.isRTL]).toEqual(["he_IL", "he-IL", true]);
    const mexican = buildRequestContext(request("/", { "accept-language": "es-MX, es;q=0.9" }));
    expect([mexican.locale, mexican.language]).toEqual(["es_MX", "es-MX"]);
  });

  it("takes the visitor's first choice by its weight", () => {
    expect(buildRequestContext(request("/", { "accept-language": "de-DE, de;q=0.9, fr;q=0.8, en;q=0.5" })).locale).toBe("de");
    expect(buildRequestContext(request("/", { "accept-language": "fr;q=0.5, pt-PT" })).locale).toBe("pt_PT");
  });

  it("sets language tag and direction", () => {
    const ctx = buildRequestContext(request("/?locale=ar_SA"));
    expect(ctx.language).toBe("ar-SA");
    expect(ctx.isRTL).toBe(true);
    expect(buildRequestContext(request("/?locale=fr")).isRTL).toBe(false);
  });
});

describe("other facts", () => {
  it("reads the search-engine referrer by host", () => {
    expect(buildRequestContext(request("/", { referer: "https://www.google.fr/" })).searchEngineReferrer).toBe("google");
    expect(buildRequestContext(request("/", { referer: "https://example.com/" })).searchEngineReferrer).toBeNull();
  });

  it("takes the country from the runtime, then the header, else US", () => {
    expect(buildRequestContext(request("/"), { country: "fr" }).country).toBe("FR");
    expect(buildRequestContext(request("/", { "cf-ipcountry": "BR" })).country).toBe("BR");
    expect(buildRequestContext(request("/", { "cf-ipcountry": "<x>" })).country).toBe("US");
    expect(buildRequestContext(request("/")).country).toBe("US");
  });

  it("reads the runtime's country only when something asks for it, and once", () => {
    let reads = 0;
    const ctx = buildRequestContext(request("/", { "cf-ipcountry": "BR" }), { country: () => (reads++, "de") });
    expect(reads).toBe(0);
    expect(ctx.country).toBe("DE");
    expect({ ...ctx }.country).toBe("DE");
    expect(reads).toBe(1);
    expect(buildRequestContext(request("/", { "cf-ipcountry": "BR" }), { country: () => undefined }).country).toBe("BR");
  });

  it("keeps one request id: given, else cf-ray, else a new uuid", () => {
    expect(buildRequestContext(request("/"), { requestId: "abc" }).requestId).toBe("abc");
    expect(buildRequestContext(request("/", { "cf-ray": "8a1b-SJC" })).requestId).toBe("8a1b-SJC");
    expect(buildRequestContext(request("/")).requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("records landing parameters, bounded", () => {
    const ctx = buildRequestContext(request(`/pin/1/?invite_code=abc&utm_campaign=${"x".repeat(500)}&utm_content=hero`));
    expect(ctx.landingPageType).toBe("closeup");
    const embedded = clientContext(ctx, "1");
    expect("utmContent" in embedded && embedded.utmContent).toBe("hero");
    expect(ctx.inviteCode).toBe("abc");
    expect(ctx.utmCampaign).toHaveLength(200);
    expect(ctx.utmContent).toBe("hero");
  });

  it("is signed out unless told otherwise", () => {
    const ctx = buildRequestContext(request("/"));
    expect(ctx.viewerType).toBe("UNAUTH");
    expect(ctx.isAuthenticated).toBe(false);
  });

  it("takes the viewer type from the session's account", () => {
    const session = (loginState: string) => ({ id: "s", createdAt: 0, expiresAt: 1, lastSeenAt: 0, deviceId: null, verifiedAt: null, user: { login_state: loginState } }) as unknown as Session;
    const full = buildRequestContext(request("/"), { session: session("full") });
    expect([full.viewerType, full.isAuthenticated]).toEqual(["AUTH", true]);
    const limited = buildRequestContext(request("/"), { session: session("limited") });
    expect([limited.viewerType, limited.isAuthenticated]).toEqual(["LIMITED_LOGIN", false]);
  });
});

describe("embedding", () => {
  it("no value can close the script element or start markup", () => {
    const hostile = { q: "</script><script>alert(1)</script>", amp: "&lt;", line: "a\u2028b\u2029c", comment: "<!--" };
    const text = serializeForScript(hostile);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual(hostile);
  });

  it("embeds the fields a browser needs and no raw user agent", () => {
    const embedded = clientContext(buildRequestContext(request("/pin/1/?locale=fr")), "1.2.3");
    expect(embedded).toMatchObject({ appVersion: "1.2.3", locale: "fr", language: "fr", isRTL: false, isBot: false, fullPath: "/pin/1/?locale=fr", renderMode: "personal" });
    const userAgent = "userAgent" in embedded ? embedded.userAgent : null;
    expect(userAgent?.platformVersion).toEqual([10, 0, 0]);
    expect(userAgent).not.toHaveProperty("raw");
  });

  it("a shared (edge-cached) render embeds nothing that belongs to one visitor", () => {
    const ctx = buildRequestContext(request("/pin/1/?invite_code=abc", { "cf-ray": "ray-1", "cf-ipcountry": "BR" }));
    ctx.renderMode = "shared";
    const embedded = clientContext(ctx, "1.2.3");
    expect(Object.keys(embedded).sort()).toEqual([
      "appVersion",
      "countryFromHostName",
      "enableDefaultSuspense",
      "initialHandlerId",
      "isAuthenticated",
      "isRTL",
      "landingPageType",
      "language",
      "locale",
      "loginState",
      "origin",
      "renderMode",
    ]);
    expect(embedded).toMatchObject({ enableDefaultSuspense: true, initialHandlerId: "/pin/[id]", countryFromHostName: null });
    expect(embedded.landingPageType).toBe("closeup");
    expect(JSON.stringify(embedded)).not.toMatch(/ray-1|BR|abc|Chrome/);
  });
});
