// Browser tests. Run them with `npm run test:e2e` (scripts/e2e.mjs): it builds if needed,
// prepares a separate state dir (.wrangler/e2e-state), starts the built Worker on a free
// port and sets E2E_BASE_URL. There is deliberately no `webServer` section here.
//
// Browsers: the system Chromium (scripts/ensure-chromium.mjs; CHROMIUM_PATH overrides).
// Projects: `en` (en-US) and `ar` (ar-SA, right-to-left) run every journey; `he` (he-IL, right
// to left), `ja` and `de` run the main ones. A spec that only makes sense in one of them can opt
// out with e.g. `test.skip(testInfo.project.name === "ar", "…")`.
import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, chromiumPath } from "./scripts/ensure-chromium.mjs";

const CI = Boolean(process.env["CI"]);

/** The journeys every project runs; the rest run in English and Arabic. */
const MAIN_JOURNEYS = ["**/pages.spec.ts", "**/smoke.spec.ts", "**/accessibility.spec.ts"];

// Headless Chromium says "HeadlessChrome", which isbot rightly reads as a bot, and bots get
// pages with no script. The person-facing projects present an ordinary desktop Chrome; tests
// that play a crawler set their own user agent.
const PERSON_UA =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "**/*.spec.ts",
  fullyParallel: false,
  forbidOnly: CI,
  // On CI one retry: a test that fails and then passes is reported as flaky (with its trace
  // kept), so a timing race shows up without blocking the run.
  retries: CI ? 1 : 0,
  workers: 2,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  reporter: CI ? "line" : "list",
  outputDir: "test-results",
  use: {
    ...(process.env["E2E_BASE_URL"] ? { baseURL: process.env["E2E_BASE_URL"] } : {}),
    browserName: "chromium",
    userAgent: PERSON_UA,
    headless: true,
    launchOptions: {
      executablePath: chromiumPath(),
      args: CHROMIUM_ARGS,
    },
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  projects: [
    { name: "en", use: { locale: "en-US", timezoneId: "UTC" } },
    { name: "ar", use: { locale: "ar-SA", timezoneId: "UTC" } },
    // The main journeys in Hebrew (right to left), Japanese and German too: a visitor's pages,
    // and every page kind and dialog under axe.
    ...(["he-IL", "ja-JP", "de-DE"] as const).map((locale) => ({ name: locale.slice(0, 2), testMatch: MAIN_JOURNEYS, use: { locale, timezoneId: "UTC" } })),
  ],
});
