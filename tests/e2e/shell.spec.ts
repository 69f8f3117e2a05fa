// The app shell in a real browser: connection banner and toast, and the email-verification
// reminder, in English and in Arabic (right to left).
import { expect, test } from "@playwright/test";

const TEXT = {
  en: {
    offline: "You're offline! Check your internet connection.",
    back: "You're back online!",
    toast: "Hmm...you're not connected to the internet",
    title: "Verify your email",
    body: "Keep your account secure by verifying your email address. Check the inbox associated with this account for an email from us to continue using the product.",
    gotIt: "Got it",
    resend: "Resend",
    sent: "Email sent",
  },
  ar: {
    offline: "أنت غير متصل بالإنترنت! تحقق من اتصالك بالإنترنت.",
    back: "لقد عدت متصلًا بالإنترنت!",
    toast: "يبدو أنك غير متصل بالإنترنت",
    title: "تحقق من بريدك الإلكتروني",
    body: "حافظ على أمان حسابك بالتحقق من عنوان بريدك الإلكتروني. تحقق من صندوق الوارد المرتبط بهذا الحساب بحثًا عن رسالة منا لمواصلة استخدام المنتج.",
    gotIt: "حسنًا",
    resend: "إعادة الإرسال",
    sent: "تم إرسال البريد الإلكتروني",
  },
} as const;

type Project = keyof typeof TEXT;
const projectOf = (name: string): Project => (name === "ar" ? "ar" : "en");
const openReminder = () => window.dispatchEvent(new Event("pinloom:verify-email"));

test("the banner and toast follow the connection; back online hides after about 2 s", async ({ page, context }, testInfo) => {
  const text = TEXT[projectOf(testInfo.project.name)];
  await page.goto("/");
  await expect(page.locator("html")).toHaveAttribute("dir", testInfo.project.name === "ar" ? "rtl" : "ltr");
  const banner = page.locator("#shell-banner");
  await expect(banner).toBeHidden();
  await expect(banner).toHaveAttribute("role", "status");

  await context.setOffline(true);
  await expect(page.getByRole("status")).toHaveText(text.offline);
  await expect(page.getByText(text.toast)).toBeVisible();

  await context.setOffline(false);
  await expect(page.getByRole("status")).toHaveText(text.back);
  const shownAt = Date.now();
  await expect(page.getByText(text.toast)).toBeHidden();
  await expect(banner).toBeHidden({ timeout: 4000 });
  const elapsed = Date.now() - shownAt;
  expect(elapsed).toBeGreaterThan(1500);
  expect(elapsed).toBeLessThan(3500);
});

test("toasts stack at the bottom on a desktop-wide window and at the top on a phone-wide one", async ({ page, context }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/");
  await context.setOffline(true);
  const toasts = page.locator("#shell-toasts");
  await expect(toasts).toBeVisible();
  await expect(toasts).toHaveClass(/toasts-bottom-14/);
  let box = (await toasts.boundingBox())!;
  expect(Math.round(800 - (box.y + box.height))).toBe(14);

  await page.setViewportSize({ width: 400, height: 800 });
  await expect(toasts).toHaveClass(/toasts-top-56/);
  box = (await toasts.boundingBox())!;
  expect(Math.round(box.y)).toBe(56);
  await context.setOffline(false);
});

test("the email reminder opens on its event, and Got it or Escape closes it", async ({ page }, testInfo) => {
  const text = TEXT[projectOf(testInfo.project.name)];
  await page.goto("/");
  const dialog = page.getByRole("dialog", { name: text.title });
  await expect(dialog).toBeHidden();

  const opener = page.locator(".site-header .logo");
  await opener.focus();
  await page.evaluate(openReminder);
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("heading", { name: text.title })).toBeVisible();
  await expect(dialog).toContainText(text.body);
  expect(await dialog.evaluate((node) => node.contains(document.activeElement))).toBe(true);
  await dialog.getByRole("button", { name: text.gotIt }).click();
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();

  await page.evaluate(openReminder);
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
});

test("Resend becomes a disabled Email sent; a failure leaves it enabled with an error line", async ({ page }, testInfo) => {
  const text = TEXT[projectOf(testInfo.project.name)];
  let calls = 0;
  let ok = false;
  await page.route("**/v3/users/email/verify/resend/", (route) => {
    calls++;
    return route.fulfill({ status: ok ? 200 : 404, contentType: "application/json", body: "{}" });
  });
  await page.goto("/");
  await page.evaluate(openReminder);
  const dialog = page.getByRole("dialog", { name: text.title });
  const resend = dialog.getByRole("button", { name: text.resend });
  await resend.click();
  await expect(dialog.getByRole("alert")).toBeVisible();
  await expect(resend).toBeEnabled();

  ok = true;
  await resend.click();
  const sent = dialog.getByRole("button", { name: text.sent });
  await expect(sent).toBeDisabled();
  await expect(dialog.getByRole("alert")).toBeHidden();
  expect(calls).toBe(2);
});

test("a crawler's page carries no shell", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ userAgent: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" });
  const page = await context.newPage();
  await page.goto(`${baseURL}/`);
  await expect(page.locator("#pinloom-shell")).toHaveCount(0);
  await expect(page.locator('script:not([type="application/ld+json"]):not([type="application/json"])')).toHaveCount(0);
  await context.close();
});
