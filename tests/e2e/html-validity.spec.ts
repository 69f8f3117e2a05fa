// Every page kind through the Nu HTML checker (vnu-jar, run with Java), signed out and signed in:
// the pages are fetched as a person's browser fetches them, written to files, checked in one run
// with --errors-only, and any error fails the test, listed by page.
import { expect, test, type APIRequestContext } from "@playwright/test";
import { checkHtml } from "../../scripts/lib/vnu.mjs";
import { signIn } from "./session.ts";

/** Page kinds of the demo world (docs/demo-accounts.md names the fixed ids). */
const PAGES: ReadonlyArray<readonly [string, string]> = [
  ["home", "/"],
  ["image pin", "/pin/100001/"],
  ["video pin", "/pin/100002/"],
  ["carousel pin", "/pin/100003/"],
  ["story pin", "/pin/100004/"],
  ["recipe pin", "/pin/100005/"],
  ["article pin", "/pin/100006/"],
  ["product pin", "/pin/100007/"],
  ["board", "/demo/weeknight-dinners/"],
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
  ["missing page", "/nobody-by-this-name-here/"],
];

/** Pages only a signed-in person reaches (signed out they redirect to log in). */
const SIGNED_IN_PAGES: ReadonlyArray<readonly [string, string]> = [
  ["settings", "/settings/account-settings/"],
  ["comment settings", "/settings/edit/comments/"],
];

/** An editorial article's path, from the articles sitemap. */
async function articlePath(request: APIRequestContext): Promise<string> {
  const xml = await (await request.get("/sitemaps/articles-1.xml")).text();
  const loc = /<loc>\s*([^<\s]+)\s*<\/loc>/.exec(xml)?.[1];
  if (!loc) throw new Error("the articles sitemap lists no article");
  return new URL(loc.replace(/&amp;/g, "&")).pathname;
}

async function fetchPages(request: APIRequestContext, pages: ReadonlyArray<readonly [string, string]>, who: string) {
  const fetched: Array<{ name: string; html: string }> = [];
  for (const [kind, path] of pages) {
    const response = await request.get(path);
    const what = `${who} ${kind} ${path} (${response.status()} ${response.url()})`;
    expect(response.status(), what).toBeLessThan(500);
    expect(response.headers()["content-type"] ?? "", what).toContain("text/html");
    fetched.push({ name: `${who} ${kind} ${path}`, html: await response.text() });
  }
  return fetched;
}

test("every page kind is valid HTML, signed out and signed in", async ({ page }, testInfo) => {
  test.skip(testInfo.project.name !== "en", "markup does not change with the locale; one run of the checker suffices");
  // The JVM's start and a few dozen pages: more than the default 30 s on a busy machine.
  test.setTimeout(180_000);
  const request = page.context().request;
  const article: [string, string] = ["article", await articlePath(request)];

  const pages = await fetchPages(request, [...PAGES, article], "signed out");
  await signIn(page, "demo");
  pages.push(...(await fetchPages(request, [...PAGES, article, ...SIGNED_IN_PAGES], "signed in")));

  const checked = await checkHtml(pages);
  if ("skipped" in checked) throw new Error(`the Nu HTML checker could not run: ${checked.skipped}`);
  const failures = Object.entries(checked.errors).flatMap(([name, errors]) => errors.map((error) => `${name} (line ${error.line}): ${error.message}\n    ${error.extract ?? ""}`));
  expect(failures, failures.join("\n")).toEqual([]);
});
