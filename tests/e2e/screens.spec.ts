// What each page kind looks like, compared with committed baselines: on an iPhone's Safari at
// 390×844 and on a desktop at 1280×800, signed out, plus the home page signed in. Each shot is
// the first screen a person sees, taken once its pictures have loaded. What other tests change
// while this runs (comments, save counts) and what moves on its own (video frames, dates) is
// masked; the tolerance absorbs font rasterising, not layout. English only: the Arabic pages
// share the same style sheets, mirrored by logical properties.
//
// Update the baselines after an intended change of look:
//   node scripts/e2e.mjs -- tests/e2e/screens.spec.ts --project=en --update-snapshots
import { expect, test, type Page } from "@playwright/test";
import { signIn } from "./session.ts";
import { ORGANIC_ONLY } from "./organic.ts";

test.use(ORGANIC_ONLY);

const IPHONE_SAFARI =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1";

const SIZES = {
  phone: { viewport: { width: 390, height: 844 }, userAgent: IPHONE_SAFARI, isMobile: true, hasTouch: true },
  desktop: { viewport: { width: 1280, height: 800 } },
} as const;

/**
 * Every page kind, each pin kind among them (the seed's fixed ids: docs/demo-accounts.md). The
 * board and profile are a seeded account no other test acts as, so their pins and counts hold.
 */
const PAGES = [
  { kind: "home", path: "/" },
  { kind: "pin-image", path: "/pin/100001/" },
  { kind: "pin-video", path: "/pin/100002/" },
  { kind: "pin-carousel", path: "/pin/100003/" },
  { kind: "pin-story", path: "/pin/100004/" },
  { kind: "pin-recipe", path: "/pin/100005/" },
  { kind: "pin-article", path: "/pin/100006/" },
  { kind: "pin-product", path: "/pin/100007/" },
  { kind: "board", path: "/felicia_parisian/weekend-projects/" },
  { kind: "profile", path: "/felicia_parisian/" },
  { kind: "search", path: "/search/pins/?q=ideas" },
  { kind: "article", path: "/today/best/cozy-autumn-reading-nooks/1/" },
  { kind: "settings", path: "/settings/edit/comments" },
  { kind: "login", path: "/login/" },
  { kind: "signup", path: "/signup/" },
  { kind: "not-found", path: "/no-such-page/at/all/", status: 404 },
] as const;

/** Every picture on the first screen decoded (lazy ones there load by themselves), and the fonts. */
async function settle(page: Page): Promise<void> {
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.waitForFunction(() =>
    [...document.images]
      .filter((img) => {
        // A picture in a closed disclosure (a pin tag's card) is not shown, so it never loads.
        if (!img.checkVisibility()) return false;
        const box = img.getBoundingClientRect();
        return box.width > 0 && box.bottom > 0 && box.top < innerHeight && box.left < innerWidth && box.right > 0;
      })
      .every((img) => img.complete && img.naturalWidth > 0),
  );
}

async function shoot(page: Page, name: string, alsoMask: readonly string[] = []): Promise<void> {
  await settle(page);
  await expect(page).toHaveScreenshot(name, {
    maxDiffPixelRatio: 0.02,
    animations: "disabled",
    caret: "hide",
    mask: [".pin-stats", ".social-counts", ".pin-comments", ".comments-island", ".news-bell-count", "time", "video", ...alsoMask].map((selector) => page.locator(selector)),
  });
}

// eslint-disable-next-line no-empty-pattern -- Playwright's hook takes its fixtures first; none are needed here.
test.beforeEach(({}, testInfo) => {
  test.skip(testInfo.project.name === "ar", "baselines are kept for the English pages");
});

for (const [size, options] of Object.entries(SIZES)) {
  test.describe(`${size}`, () => {
    test.use(options);

    for (const { kind, path, ...rest } of PAGES) {
      test(`${kind} looks as it did`, async ({ page }) => {
        const response = await page.goto(path);
        expect(response?.status()).toBe("status" in rest ? rest.status : 200);
        await shoot(page, `${kind}-${size}.png`);
      });
    }

    test("home signed in looks as it did", async ({ page }) => {
      await signIn(page, "demo");
      // The home's top placement asks the experience platform after load; the shot waits for
      // its answer (demo, a personal account, is shown the business upsell).
      const experiences = page.waitForResponse((response) => response.url().includes("/resource/UserExperienceResource/get/"));
      await page.goto("/");
      await experiences;
      await expect(page.locator(".experience-slot:not([hidden])")).toBeVisible();
      // The grid's Save buttons show once their island is ready.
      await expect(page.locator("ul.pin-grid[data-save-ready]").first()).toBeAttached();
      // A person's home feed is in a new order each day, and other tests save to demo's boards
      // (the tabs' order): the frame around them is what is compared.
      await shoot(page, `home-signed-in-${size}.png`, ["#home-feed-grid", ".home-tabs"]);
    });
  });
}
