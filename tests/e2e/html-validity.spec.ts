// Every page kind through the Nu HTML checker (vnu-jar, run with Java), signed out and signed in:
// the pages are fetched as a person's browser fetches them, written to files, checked in one run
// with --errors-only, and any error fails the test, listed by page.
import { expect, test, type APIRequestContext } from "@playwright/test";
import { checkHtml } from "../../scripts/lib/vnu.mjs";
import { PAGES, SIGNED_IN_PAGES, articlePath } from "./page-kinds.ts";
import { signIn } from "./session.ts";

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
