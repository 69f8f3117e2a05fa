// Follows and reactions in a real browser (spec 001 §4 "Reactions, follows and
// did-it"), in English and in Arabic (right to left). The e2e state outlives a run and both
// projects run against it, so each project acts as its own demo account and every test
// toggles from whatever state it finds, checks the flip survives a reload, and flips it back.
import { expect, test, type Locator, type Page } from "@playwright/test";
import { signIn } from "./session.ts";

const TEXT = {
  en: {
    followName: (name: string) => `Follow ${name}`,
    unfollowName: (name: string) => `Unfollow ${name}`,
    like: /^(Like|Liked)$/,
    tried: "I tried this",
    followBoard: /^(Follow board|Following board)$/,
  },
  ar: {
    followName: (name: string) => `متابعة ${name}`,
    unfollowName: (name: string) => `إلغاء متابعة ${name}`,
    like: /^(إعجاب|أعجبك)$/,
    tried: "جرّبت هذا",
    followBoard: /^(متابعة اللوحة|تتابع اللوحة)$/,
  },
} as const;

/** Each project acts as its own account, on its own targets. */
const CAST = {
  en: { viewer: "sam", profile: "/bakeandbloom/", profileName: "Bake & Bloom Studio", pin: "/pin/100001/", board: "/demo/weeknight-dinners/" },
  ar: { viewer: "marlowandmain", profile: "/demo/", profileName: "Ava Thompson", pin: "/pin/100005/", board: "/demo/family-recipes-we-share/" },
} as const;

const of = (project: string) => (project === "ar" ? "ar" : "en");

async function pressed(button: Locator): Promise<boolean> {
  return (await button.getAttribute("aria-pressed")) === "true";
}

/** Presses a toggle, waits for the server's answer, and checks the new state. */
async function toggle(page: Page, button: Locator, resource: string, expected: boolean): Promise<void> {
  const answered = page.waitForResponse((response) => response.url().includes(`/resource/${resource}/`));
  await button.click();
  expect((await answered).status()).toBe(200);
  await expect(button).toHaveAttribute("aria-pressed", String(expected));
}

test.beforeEach(async ({ page }, testInfo) => {
  await signIn(page, CAST[of(testInfo.project.name)].viewer);
});

test("follow and unfollow a user", async ({ page }, testInfo) => {
  const text = TEXT[of(testInfo.project.name)];
  const cast = CAST[of(testInfo.project.name)];
  await page.goto(cast.profile);
  const follow = page.getByRole("button", { name: text.followName(cast.profileName), exact: true });
  const unfollow = page.getByRole("button", { name: text.unfollowName(cast.profileName), exact: true });
  await expect(follow.or(unfollow)).toBeVisible();
  // The button's name says what it will do, so it changes with each press.
  const press = async (button: Locator, then: Locator, following: boolean) => {
    const answered = page.waitForResponse((response) => response.url().includes("/resource/UserFollowResource/"));
    await button.click();
    expect((await answered).status()).toBe(200);
    await expect(then).toHaveAttribute("aria-pressed", String(following));
  };
  if (await unfollow.isVisible()) await press(unfollow, follow, false);
  await press(follow, unfollow, true);
  await page.reload();
  await expect(unfollow).toHaveAttribute("aria-pressed", "true");
  await press(unfollow, follow, false);
  await page.reload();
  await expect(follow).toHaveAttribute("aria-pressed", "false");
});

test("react to a pin, and take the reaction back", async ({ page }, testInfo) => {
  const text = TEXT[of(testInfo.project.name)];
  await page.goto(CAST[of(testInfo.project.name)].pin);
  const like = page.getByRole("button", { name: text.like });
  const before = await pressed(like);
  await toggle(page, like, "PinReactionResource", !before);
  await page.reload();
  await expect(like).toHaveAttribute("aria-pressed", String(!before));
  await toggle(page, like, "PinReactionResource", before);
});

test("toggle I tried this", async ({ page }, testInfo) => {
  const text = TEXT[of(testInfo.project.name)];
  await page.goto(CAST[of(testInfo.project.name)].pin);
  const tried = page.getByRole("button", { name: text.tried, exact: true });
  const before = await pressed(tried);
  await toggle(page, tried, "DidItResource", !before);
  await page.reload();
  await expect(tried).toHaveAttribute("aria-pressed", String(!before));
  await toggle(page, tried, "DidItResource", before);
});

test("follow a board", async ({ page }, testInfo) => {
  const text = TEXT[of(testInfo.project.name)];
  await page.goto(CAST[of(testInfo.project.name)].board);
  const button = page.getByRole("button", { name: text.followBoard });
  const before = await pressed(button);
  await toggle(page, button, "BoardFollowResource", !before);
  await page.reload();
  await expect(button).toHaveAttribute("aria-pressed", String(!before));
  await toggle(page, button, "BoardFollowResource", before);
});

test("a close-up shared between signed-in people hydrates as each person's own page", async ({ page }, testInfo) => {
  const text = TEXT[of(testInfo.project.name)];
  const cast = CAST[of(testInfo.project.name)];
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  // Served from the member template (src/member-page/member-page.server.ts), filled in for this person.
  const response = await page.goto(cast.pin);
  expect(response?.headers()["x-pinloom-cache"]).toMatch(/^MEMBER-(HIT|MISS)$/);
  const name = await page.evaluate(() => (JSON.parse(document.getElementById("pinloom-context")!.textContent!) as { viewer: { full_name: string } }).viewer.full_name);
  const account = page.locator(".account-button");
  await expect(account).toContainText(name);
  // Each island hydrates over the markup the server wrote for this person: the like flips, the menu opens.
  const like = page.getByRole("button", { name: text.like });
  const before = await pressed(like);
  await toggle(page, like, "PinReactionResource", !before);
  await toggle(page, like, "PinReactionResource", before);
  await account.click();
  await expect(account).toHaveAttribute("aria-expanded", "true");
  // Development builds say "Hydration failed…"; production ones name React's minified errors 418–425.
  // An island without its table in the page's strings block throws, naming it (src/i18n/page-strings.ts).
  expect(errors.filter((error) => /hydrat|did not match|server rendered|react\.dev\/errors\/4(1[89]|2[0-5])|page strings/i.test(error))).toEqual([]);
});
