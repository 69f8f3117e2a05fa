// The page kinds of the demo world every whole-site check walks (the Nu checker, axe):
// docs/demo-accounts.md names the fixed ids.
import type { APIRequestContext } from "@playwright/test";

export const PAGES: ReadonlyArray<readonly [string, string]> = [
  ["home", "/"],
  ["image pin", "/pin/100001/"],
  ["video pin", "/pin/100002/"],
  ["carousel pin", "/pin/100003/"],
  ["story pin", "/pin/100004/"],
  ["recipe pin", "/pin/100005/"],
  ["article pin", "/pin/100006/"],
  ["product pin", "/pin/100007/"],
  ["board", "/demo/weeknight-dinners/"],
  ["board section", "/demo/weeknight-dinners/pasta/"],
  ["today", "/today/"],
  ["business board", "/bakeandbloom/spring-bakes/"],
  ["profile", "/demo/"],
  ["business profile", "/bakeandbloom/"],
  ["search pins", "/search/pins/?q=food"],
  ["search boards", "/search/boards/?q=dinner"],
  ["search people", "/search/people/?q=ava"],
  ["search landing", "/search/pins/"],
  ["login", "/login/"],
  ["signup", "/signup/"],
  ["missing pin", "/pin/999999999/"],
  ["missing section", "/demo/surprise-party-for-maya/decorations/"],
  ["missing page", "/nobody-by-this-name-here/"],
];

/** Pages only a signed-in person reaches (signed out they redirect to log in). */
export const SIGNED_IN_PAGES: ReadonlyArray<readonly [string, string]> = [
  ["settings", "/settings/account-settings/"],
  ["comment settings", "/settings/edit/comments/"],
  ["pin builder", "/pin-builder/"],
];

/** An editorial article's path, from the articles sitemap. */
export async function articlePath(request: APIRequestContext): Promise<string> {
  const xml = await (await request.get("/sitemaps/articles-1.xml")).text();
  const loc = /<loc>\s*([^<\s]+)\s*<\/loc>/.exec(xml)?.[1];
  if (!loc) throw new Error("the articles sitemap lists no article");
  return new URL(loc.replace(/&amp;/g, "&")).pathname;
}

