// The experience platform in a real browser, at 390 px: a new personal account's home shows the
// business upsell the platform answers, records its view once it has been seen, and a dismissal
// takes it away for good: it is not back after a reload. axe finds nothing while it shows.
import { expect, test, type Page } from "@playwright/test";
import { expectNoViolations } from "./axe.ts";
import { signUpPerson } from "./business-signup.ts";
import { localeText, projectOf } from "./strings.ts";

const text = localeText({ shell: "shell" });

const answered = (page: Page, name: string) => page.waitForResponse((response) => response.url().includes(`/resource/${name}/`));

test("a personal account sees the business upsell, dismisses it, and it stays gone after a reload", async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  const project = projectOf(testInfo.project.name);
  await page.setViewportSize({ width: 390, height: 844 });
  await signUpPerson(page, project, `exp_${project}_${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`.slice(0, 30));

  const fetched = answered(page, "UserExperienceResource/get");
  const viewed = answered(page, "UserExperienceViewedResource/update");
  await page.goto("/");
  expect((await fetched).status()).toBe(200);
  const upsell = page.getByRole("region", { name: text(project, "shell.experiences.businessUpsell.title") });
  await expect(upsell).toBeVisible();
  await expect(upsell).toContainText(text(project, "shell.experiences.businessUpsell.body"));
  await expect(upsell.getByRole("link", { name: text(project, "shell.experiences.businessUpsell.start") })).toHaveAttribute("href", "/business/hub/onboarding/");
  // Seen for a second in a focused window: the view is recorded.
  expect((await viewed).status()).toBe(200);
  // Nothing wider than the phone's screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectNoViolations(page, "the home with the business upsell");

  const dismissed = answered(page, "UserExperienceResource/delete");
  await upsell.getByRole("button", { name: text(project, "shell.experiences.businessUpsell.dismiss") }).click();
  expect((await dismissed).status()).toBe(200);
  await expect(upsell).toBeHidden();

  const again = answered(page, "UserExperienceResource/get");
  await page.reload();
  expect((await again).status()).toBe(200);
  await expect(page.locator("main h2, main h1").first()).toBeVisible();
  await expect(page.getByRole("region", { name: text(project, "shell.experiences.businessUpsell.title") })).toHaveCount(0);
});
