// Harness smoke test: the server scripts/e2e.mjs started is reachable and renders a page.
import { expect, test } from "@playwright/test";

test("GET /healthz answers ok", async ({ request }) => {
  const res = await request.get("/healthz");
  expect(res.status()).toBe(200);
  expect((await res.text()).trim()).toBe("ok");
});

test("home page renders an <html lang>", async ({ page }) => {
  const res = await page.goto("/");
  expect(res?.status()).toBe(200);
  await expect(page.locator("html")).toHaveAttribute("lang", /\S/);
});
