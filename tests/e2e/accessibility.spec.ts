// axe-core on every page kind, in every project's language (Arabic and Hebrew right to left),
// signed out and signed in, with the dialogs and islands people open: any violation of any rule
// fails the test, with the rule, its impact and the offending elements in the message.
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { PAGES, SIGNED_IN_PAGES, articlePath } from "./page-kinds.ts";
import { signIn } from "./session.ts";
import { localeProjectOf, localeText } from "./strings.ts";

const text = localeText({ auth: "auth", save: "save", c: "comments-ui" });

async function expectNoViolations(page: Page, what: string): Promise<void> {
  // Images and fonts settle first, so colour contrast is judged on the finished page. (A
  // signed-in page keeps a connection open, so "network idle" never comes.)
  await page.waitForLoadState("load");
  await page.evaluate(async () => {
    await document.fonts.ready;
    const pending = [...document.images].filter((image) => image.loading !== "lazy" && !image.complete);
    const settled = (image: HTMLImageElement) =>
      new Promise((resolve) => {
        image.addEventListener("load", resolve, { once: true });
        image.addEventListener("error", resolve, { once: true });
      });
    await Promise.all(pending.map(settled));
  });
  const { violations } = await new AxeBuilder({ page }).analyze();
  const report = violations.map(
    (violation) => `${violation.id} (${violation.impact}): ${violation.help}\n${violation.nodes.map((node) => `    ${node.target.join(" ")}: ${node.failureSummary?.split("\n").join(" ")}`).join("\n")}`,
  );
  expect(report, `axe on ${what}`).toEqual([]);
}

for (const [kind, path] of PAGES) {
  test(`signed out, the ${kind} has no accessibility violations`, async ({ page }) => {
    await page.goto(path);
    await expectNoViolations(page, path);
  });
}

test("signed out, an editorial article has no accessibility violations", async ({ page }) => {
  const path = await articlePath(page.context().request);
  await page.goto(path);
  await expectNoViolations(page, path);
});

test("the log-in and sign-up dialogs have no accessibility violations", async ({ page }, testInfo) => {
  const project = localeProjectOf(testInfo.project.name);
  await page.goto("/pin/100001/");
  await page.locator('.header-account a[data-auth-trigger="login"]').click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await expectNoViolations(page, "the log-in dialog");
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toBeHidden();
  await page.locator('.header-account a.header-signup[data-auth-trigger="signup"]').click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await expect(page.getByRole("dialog").getByRole("button", { name: text(project, "auth.signup.submit") })).toBeVisible();
  await expectNoViolations(page, "the sign-up dialog");
});

const SIGNED_IN_KINDS: ReadonlyArray<readonly [string, string]> = [
  ["home feed", "/"],
  ["pin close-up", "/pin/100001/"],
  ["own board", "/demo/weeknight-dinners/"],
  ["own profile", "/demo/"],
  ["search", "/search/pins/?q=cake"],
  ["privacy settings", "/settings/privacy/"],
  ["password settings", "/settings/edit/password/"],
  ...SIGNED_IN_PAGES,
];

test("signed in, every page kind has no accessibility violations", async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, "demo");
  for (const [kind, path] of SIGNED_IN_KINDS) {
    await test.step(kind, async () => {
      await page.goto(path);
      await expectNoViolations(page, `${path} signed in`);
    });
  }
});

test("signed in, the save picker and the comment composer have no accessibility violations", async ({ page }, testInfo) => {
  const project = localeProjectOf(testInfo.project.name);
  await signIn(page, "sam");
  await page.goto("/pin/100005/");
  await page.locator(".closeup-actions").getByRole("button", { name: text(project, "save.save"), exact: true }).click();
  await expect(page.getByRole("dialog", { name: text(project, "save.pickerTitle") })).toBeVisible();
  await expectNoViolations(page, "the save picker");
  await page.keyboard.press("Escape");

  const composer = page.locator(".comments-island[data-hydrated='true']").getByRole("textbox", { name: text(project, "c.composerLabel"), exact: true });
  await composer.click();
  await composer.fill("@de");
  await expectNoViolations(page, "the comment composer with its suggestions");
});
