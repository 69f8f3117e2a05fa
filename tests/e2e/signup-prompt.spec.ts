// The sign-up prompt for signed-out visitors: the page first, the prompt only after they
// scroll on or try to act, never blocking the content, and gone for the session once dismissed.
import { expect, test } from "@playwright/test";

const TEXT = {
  en: { title: "Sign up to see more", dismiss: "Not now", signup: "Sign up" },
  ar: { title: "اشترك لمشاهدة المزيد", dismiss: "ليس الآن", signup: "اشتراك" },
} as const;
const textOf = (project: string) => TEXT[project === "ar" ? "ar" : "en"];

test("appears after scrolling on, links back to the page, and stays dismissed", async ({ page }, testInfo) => {
  const text = textOf(testInfo.project.name);
  await page.goto("/");
  const prompt = page.getByRole("complementary", { name: text.title });
  await expect(page.locator(".pin-grid a").first()).toBeVisible();
  await expect(prompt).toBeHidden();

  await page.mouse.wheel(0, 3000);
  await expect(prompt).toBeVisible();
  await expect(prompt.getByRole("link", { name: text.signup })).toHaveAttribute("href", "/signup/");
  // It sits in a corner: the grid under it is still reachable by pointer.
  const box = (await prompt.boundingBox())!;
  const viewport = page.viewportSize()!;
  expect(box.width).toBeLessThan(viewport.width);

  await prompt.getByRole("button", { name: text.dismiss }).click();
  await expect(prompt).toBeHidden();
  await page.reload();
  await page.mouse.wheel(0, 3000);
  await page.waitForTimeout(300);
  await expect(prompt).toBeHidden();
});

test("appears at once when a signed-out person tries to act, with the pin as the way back", async ({ page }, testInfo) => {
  const text = textOf(testInfo.project.name);
  const href = await (await page.goto("/"))!.text().then((html) => /href="(\/pin\/\d+\/)"/.exec(html)![1]!);
  await page.goto(href);
  const prompt = page.getByRole("complementary", { name: text.title });
  await expect(prompt).toBeHidden();
  await page.evaluate(() => window.dispatchEvent(new Event("pinloom:signed-out-act")));
  await expect(prompt).toBeVisible();
  await expect(prompt.getByRole("link", { name: text.signup })).toHaveAttribute("href", `/signup/?next=${encodeURIComponent(href)}`);
});
