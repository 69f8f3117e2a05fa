// Onboarding in a real browser: a new account signs up, lands in onboarding, picks a topic and
// follows a suggested creator, finishes, and its first home feed starts with those choices;
// another skips and gets the home feed straight away. axe checks each step.
import { expect, test, type Page } from "@playwright/test";
import { expectNoViolations } from "./axe.ts";
import { visitorAddress } from "./session.ts";
import { localeText, projectOf, type Project } from "./strings.ts";

const text = localeText({ auth: "auth", shell: "shell", o: "onboarding", social: "social" });

/** Signs a new account up through /signup/; the browser ends wherever sign-up lands it. */
async function signUp(page: Page, project: Project, prefix: string): Promise<string> {
  const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
  const username = `${prefix}_${project}_${stamp}`.slice(0, 30);
  // From an address of its own: the suite signs up more accounts than the throttle's 10 an hour per address.
  await page.setExtraHTTPHeaders({ "cf-connecting-ip": visitorAddress() });
  await page.goto("/signup/");
  const form = page.locator("main form");
  await form.getByLabel(text(project, "auth.signup.email")).fill(`${username}@e2e.pinloom.test`);
  await form.getByLabel(text(project, "auth.signup.password"), { exact: true }).fill("Loom#e2e-2026");
  await form.getByLabel(text(project, "auth.signup.firstName")).fill("Robin");
  await form.getByLabel(text(project, "auth.signup.username")).fill(username);
  await form.getByRole("button", { name: text(project, "auth.signup.submit") }).click();
  return username;
}

/** The verify-email reminder opens on the first signed-in page of a session: set it aside. */
async function dismissReminder(page: Page, project: Project) {
  const reminder = page.getByRole("dialog", { name: text(project, "shell.verify.title") });
  await expect(reminder).toBeVisible();
  await reminder.getByRole("button", { name: text(project, "shell.verify.gotIt") }).click();
  await expect(reminder).toBeHidden();
}

const heading = (page: Page) => page.locator("main h1");
const atHome = (url: URL) => url.pathname === "/";
/** Astro drops an island's ssr attribute once it has hydrated: its buttons work from then on. */
const hydrated = (page: Page) => expect(page.locator('astro-island[component-url*="OnboardingFlow"]:not([ssr])')).toBeAttached();

test("a new account goes through onboarding and its first home feed starts with its choices", async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  const project = projectOf(testInfo.project.name);
  await signUp(page, project, "nux");
  await expect(page).toHaveURL(/\/onboarding\/$/);
  await dismissReminder(page, project);
  await hydrated(page);
  await expect(heading(page)).toHaveText(text(project, "o.welcome.heading", { name: "Robin" }));
  await expectNoViolations(page, "onboarding welcome");

  await page.getByRole("button", { name: text(project, "o.actions.start") }).click();
  await expect(heading(page)).toHaveText(text(project, "o.interests.heading"));
  const travel = page.getByRole("list", { name: text(project, "o.interests.listLabel") }).getByRole("button", { name: text(project, "social.topic.travel") });
  const followed = page.waitForResponse((response) => response.url().includes("/resource/InterestFollowResource/create/"));
  await travel.click();
  expect((await followed).status()).toBe(200);
  await expect(travel).toHaveAttribute("aria-pressed", "true");
  await expectNoViolations(page, "onboarding interests");

  // Leaving and coming back resumes at the step it stopped at.
  await page.getByRole("button", { name: text(project, "o.actions.next") }).click();
  await expect(heading(page)).toHaveText(text(project, "o.creators.heading"));
  await page.goto("/");
  await page.getByRole("link", { name: text(project, "o.home.resume") }).click();
  await expect(heading(page)).toHaveText(text(project, "o.creators.heading"));
  await hydrated(page);

  const creators = page.getByRole("list", { name: text(project, "o.creators.listLabel") });
  await expect(creators.getByRole("listitem").first()).toBeVisible();
  const first = creators.getByRole("listitem").first();
  const creatorHref = await first.locator("a").first().getAttribute("href");
  expect(creatorHref).toMatch(/^\/[^/]+\/$/);
  const follow = first.getByRole("button", { pressed: false });
  const followAnswer = page.waitForResponse((response) => response.url().includes("/resource/UserFollowResource/create/"));
  await follow.click();
  expect((await followAnswer).status()).toBe(200);
  await expect(first.getByRole("button", { pressed: true })).toHaveText(text(project, "o.creators.following"));
  await expectNoViolations(page, "onboarding creators");

  await page.getByRole("button", { name: text(project, "o.actions.next") }).click();
  await expect(heading(page)).toHaveText(text(project, "o.locale.heading"));
  await expectNoViolations(page, "onboarding locale");
  await page.getByRole("button", { name: text(project, "o.actions.finish") }).click();

  // The first home feed: it says so, and its first pins are the creator's or in the topic.
  await expect(page).toHaveURL(atHome);
  await expect(page.getByText(text(project, "o.home.afterNux"))).toBeVisible();
  const pins = await page.locator("#home-feed-grid a[href^='/pin/']").evaluateAll((links) => links.slice(0, 4).map((link) => link.getAttribute("href")!));
  expect(pins).toHaveLength(4);
  for (const href of pins) {
    const closeUp = await (await page.request.get(href)).text();
    const byCreator = closeUp.includes(`href="${creatorHref}"`);
    const inTopic = closeUp.includes(`>${text(project, "social.topic.travel")}<`);
    expect(byCreator || inTopic, `${href} is by the creator followed or in the topic picked`).toBe(true);
  }
  // Onboarding is over: its page sends them home.
  await page.goto("/onboarding/");
  await expect(page).toHaveURL(atHome);
  await expect(page.getByText(text(project, "o.home.afterNux"))).toHaveCount(0);
});

test("a new account may skip onboarding and go straight to the home feed", async ({ page }, testInfo) => {
  const project = projectOf(testInfo.project.name);
  await signUp(page, project, "skip");
  await expect(page).toHaveURL(/\/onboarding\/$/);
  await dismissReminder(page, project);
  await hydrated(page);
  await page.getByRole("button", { name: text(project, "o.actions.skip") }).click();
  await expect(page).toHaveURL(atHome);
  await expect(page.locator("#home-feed-grid a[href^='/pin/']").first()).toBeVisible();
  await expect(page.getByRole("link", { name: text(project, "o.home.resume") })).toHaveCount(0);
  await expect(page.getByText(text(project, "o.home.afterNux"))).toHaveCount(0);
});
