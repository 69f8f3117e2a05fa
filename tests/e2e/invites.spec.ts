// Invite landings in a real browser (spec 000 §2, §6, §8), in English and in Arabic (right to
// left), against the seeded demo invites (scripts/seed/invites.ts): a signed-out desktop
// visitor meets the inviter in a popover; a copy-link (channel 12) invite shows nothing; an
// unknown, expired or secret-board code shows nothing and no error.
import { expect, test, type Page } from "@playwright/test";

const PIN = "/pin/100001/";
const CODES = {
  popover: "demoInviteEmailPin0001",
  copyLink: "demoInviteCopyLink0012",
  expired: "demoInviteExpiredPin01",
  secret: "demoInviteSecretPin013",
  unknown: "thisCodeWasNeverMinted",
} as const;

const TEXT = {
  en: { title: "Ava Thompson invited you to Pinloom", dismiss: "Dismiss" },
  ar: { title: "دعاك Ava Thompson إلى Pinloom", dismiss: "إغلاق" },
} as const;
const textOf = (project: string) => TEXT[project === "ar" ? "ar" : "en"];

/** Opens the landing and waits for its lookup to be answered; collects uncaught errors. */
async function land(page: Page, code: string, expectedStatus: number): Promise<Error[]> {
  const errors: Error[] = [];
  page.on("pageerror", (error) => errors.push(error));
  const answered = page.waitForResponse((response) => response.url().includes("/resource/InviteMetadataResource/get/"));
  await page.goto(`${PIN}?invite_code=${code}`);
  expect((await answered).status()).toBe(expectedStatus);
  return errors;
}

test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
});

test("a signed-out desktop visitor meets the inviter in a popover, and can dismiss it", async ({ page }, testInfo) => {
  const text = textOf(testInfo.project.name);
  const errors = await land(page, CODES.popover, 200);
  await expect(page.locator("html")).toHaveAttribute("dir", testInfo.project.name === "ar" ? "rtl" : "ltr");
  const popover = page.getByRole("dialog", { name: text.title });
  await expect(popover).toBeVisible();
  await expect(popover.locator("img.invite-avatar")).toHaveAttribute("src", /^\/media\/users\/1\/medium\.jpg$/);
  await expect(popover.locator("img.invite-avatar")).toHaveJSProperty("naturalWidth", 75);

  // Keyboard: the dismiss button is reachable and closes the popover; focus lands on the pin's heading.
  const dismiss = popover.getByRole("button", { name: text.dismiss });
  await dismiss.focus();
  await page.keyboard.press("Enter");
  await expect(popover).toHaveCount(0);
  await expect(page.locator("#pin-title")).toBeFocused();
  expect(errors).toEqual([]);
});

test("Escape closes the popover too", async ({ page }, testInfo) => {
  await land(page, CODES.popover, 200);
  const popover = page.getByRole("dialog", { name: textOf(testInfo.project.name).title });
  await popover.getByRole("button").focus();
  await page.keyboard.press("Escape");
  await expect(popover).toHaveCount(0);
});

test("a copy-link invite (channel 12) shows no popover", async ({ page }) => {
  const errors = await land(page, CODES.copyLink, 200);
  await page.waitForLoadState("networkidle");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.locator("#invite-mount")).toBeHidden();
  expect(errors).toEqual([]);
});

for (const [name, code] of [["an unknown", CODES.unknown], ["an expired", CODES.expired], ["a secret board's", CODES.secret]] as const) {
  test(`${name} code shows nothing and no error`, async ({ page }) => {
    const errors = await land(page, code, 404);
    await page.waitForLoadState("networkidle");
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(page.getByRole("alert")).toHaveCount(0);
    await expect(page.locator("#shell-toasts")).toBeHidden();
    await expect(page.locator("#invite-mount")).toBeHidden();
    // The pin itself is there as ever.
    await expect(page.locator("#pin-title")).toBeVisible();
    expect(errors).toEqual([]);
  });
}

test("a signed-out phone-wide visitor gets no popover (spec: desktop only)", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await land(page, CODES.popover, 200);
  await page.waitForLoadState("networkidle");
  await expect(page.getByRole("dialog")).toHaveCount(0);
});

test("without an invite code the page never loads the invite module nor asks for an invite", async ({ page }) => {
  const requests: string[] = [];
  page.on("request", (request) => requests.push(request.url()));
  await page.goto(PIN);
  await page.waitForLoadState("networkidle");
  expect(requests.filter((url) => /invite-landing|InviteMetadataResource/.test(url))).toEqual([]);
});

test("the app shell shows a toast another script pushes with pinloom:toast (the invite toast's path)", async ({ page }) => {
  await page.goto(PIN);
  await page.evaluate(() => dispatchEvent(new CustomEvent("pinloom:toast", { detail: { id: "invite", message: "Sam sent you this Pin." } })));
  await expect(page.locator("#shell-toasts")).toBeVisible();
  await expect(page.locator("#shell-toasts li")).toHaveText(["Sam sent you this Pin."]);
});
