// Waiting for a page's own islands: Astro drops `ssr` from an island once it has hydrated, and a
// press before that is lost.
import { expect, type Page } from "@playwright/test";

export const hydrated = (page: Page) => expect(page.locator("main astro-island[ssr]")).toHaveCount(0, { timeout: 30_000 });
