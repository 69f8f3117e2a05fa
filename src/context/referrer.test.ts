import { describe, expect, it } from "vitest";
import { isSearchCacheHost, searchEngineFromReferrer } from "./referrer.ts";

describe("searchEngineFromReferrer", () => {
  it.each([
    ["https://www.google.com/", "google"],
    ["https://www.google.co.uk/search?q=tart", "google"],
    ["https://google.com.br/", "google"],
    ["https://www.bing.com/search?q=x", "bing"],
    ["https://search.yahoo.co.jp/", "yahoo"],
    ["https://yandex.ru/search/", "yandex"],
    ["https://search.rakuten.co.jp/", "rakuten"],
    ["https://search.naver.com/", "naver"],
    ["https://duckduckgo.com/", "duckduckgo"],
    ["https://www-pinloom-example.cdn.ampproject.org/c/s/", "amp"],
  ])("%s is %s", (referrer, engine) => {
    expect(searchEngineFromReferrer(referrer)).toBe(engine);
  });

  it.each([
    "https://google.com.evil.example/",
    "https://notgoogle.com/",
    "https://bing.com.attacker.example/",
    "https://pinloom.example/",
    "not a url at all",
    "",
    null,
  ])("%s is no search engine", (referrer) => {
    expect(searchEngineFromReferrer(referrer)).toBeNull();
  });
});

describe("isSearchCacheHost", () => {
  it.each(["webcache.googleusercontent.com", "cc.bingj.com", "www-pinloom-example.cdn.ampproject.org", "pinloom-example.translate.goog"])(
    "%s is a cache host",
    (host) => expect(isSearchCacheHost(host)).toBe(true),
  );
  it.each(["pinloom.example", "googleusercontent.com", "webcache.googleusercontent.com.evil.example", "", null])(
    "%s is not",
    (host) => expect(isSearchCacheHost(host)).toBe(false),
  );
});
