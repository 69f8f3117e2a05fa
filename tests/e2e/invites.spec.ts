// Invite landings in a real browser (spec 000 §2, §6, §8), in English and in Arabic (right to
// left), against the seeded demo invites (scripts/seed/invites.ts): a signed-out desktop
// visitor meets the inviter in a popover; a copy-link (channel 12) invite shows nothing; an
// unknown, expired or secret-board code shows nothing and no error.
import { randomInt } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { signIn } from "./session.ts";

const PIN = "/pin/100001/";
const CODES = {
  popover: "demoInviteEmailPin0001",
  copyLink: "demoInviteCopyLink0012",
  expired: "demoInviteExpiredPin01",
  secret: "demoInviteSecretPin013",
  unknown: "thisCodeWasNeverMinted",
  /** From sam (7) by message: a toast for the demo account (1). */
  toast: "samInviteMessagePin003",
} as const;

const TEXT = {
  en: { title: "Ava Thompson invited you to Pinloom", dismiss: "Dismiss", toast: "Sam sent you this Pin. Say thanks in Messages.", messageSam: "Message Sam", copy: "Copy link", copied: "Link copied" },
  ar: { title: "دعاك Ava Thompson إلى Pinloom", dismiss: "إغلاق", toast: "أرسل إليك Sam هذا الدبوس. اشكره في الرسائل.", messageSam: "مراسلة Sam", copy: "نسخ الرابط", copied: "تم نسخ الرابط" },
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
  // Lookups are throttled per address and the e2e state outlives a run: each test speaks from
  // its own documentation-range address, so reruns never meet the limit.
  await page.setExtraHTTPHeaders({ "cf-connecting-ip": `192.0.2.${randomInt(1, 255)}` });
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

test.describe("signed in", () => {
  test("another person's invite shows the messaging toast; your own shows nothing", async ({ page }, testInfo) => {
    const text = textOf(testInfo.project.name);
    await signIn(page, "demo");
    await land(page, CODES.toast, 200);
    // The toast's words, then its action: a button that opens a conversation with the inviter.
    await expect(page.locator("#shell-toasts li")).toHaveText([text.toast + text.messageSam]);
    await expect(page.locator("#shell-toasts li").getByRole("button", { name: text.messageSam })).toBeVisible();
    await expect(page.getByRole("dialog")).toHaveCount(0);

    await land(page, CODES.popover, 200);
    await page.waitForLoadState("networkidle");
    await expect(page.locator("#shell-toasts")).toBeHidden();
    await expect(page.getByRole("dialog")).toHaveCount(0);
  });

  test("copy link copies the pin's link with a fresh invite code", async ({ page, context, baseURL }, testInfo) => {
    const text = textOf(testInfo.project.name);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL! });
    await signIn(page, "demo");
    await page.goto(PIN);
    const minted = page.waitForResponse((response) => response.url().includes("/resource/InviteResource/create/"));
    await page.getByRole("button", { name: text.copy }).click();
    expect((await minted).status()).toBe(200);
    await expect(page.getByRole("status").filter({ hasText: text.copied })).toBeVisible();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toMatch(/\/pin\/100001\/\?invite_code=[A-Za-z0-9_-]{22}$/);
  });
});
