// The verified merchant program in a real browser: a business opens the program from the hub's
// link (show_vmp=true), sees every check pass and applies; the reviewer approves it on the
// review page; the profile shows the badge; the welcome banner shows and is dismissed. axe finds
// nothing on each view. Each project has its own seeded business (docs/demo-accounts.md), and a
// membership left by an earlier run is first cancelled by the reviewer, as the program allows.
import { expect, test, type Page } from "@playwright/test";
import { expectNoViolations } from "./axe.ts";
import { signIn } from "./session.ts";
import { localeText, projectOf } from "./strings.ts";

const text = localeText({ m: "merchants", b: "business" });
const APPLICANTS = { en: { username: "marta_kutch90", business: "910003" }, ar: { username: "marlowandmain", business: "910001" } } as const;
const REVIEWER = "merchant_reviewer";

/** The page's API, with its session cookie and CSRF token. */
async function call(page: Page, method: string, path: string, body?: unknown): Promise<{ status: number; data: Record<string, unknown> | null }> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const csrf = decodeURIComponent(/(?:^|;\s*)csrftoken=([^;]+)/.exec(document.cookie)?.[1] ?? "");
      const response = await fetch(path, { method, headers: { "content-type": "application/json", "x-csrftoken": csrf }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
      const json = (await response.json().catch(() => ({}))) as { data?: Record<string, unknown> };
      return { status: response.status, data: json.data ?? null };
    },
    { method, path, body },
  );
}

test("a business applies, a reviewer approves, the badge shows on the profile and the welcome banner is dismissed", async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const project = projectOf(testInfo.project.name);
  const t = (path: string, values?: Record<string, string | number>) => text(project, path, values);
  const { username, business } = APPLICANTS[project];

  // A membership left by an earlier run ends first, so the business may apply again.
  await signIn(page, REVIEWER);
  const earlier = await call(page, "GET", `/v3/merchant_reviews/${business}/`);
  if (earlier.status === 200 && ["APPLIED", "ACCEPTED", "NON_COMPLIANT", "SUSPENDED"].includes(String(earlier.data?.["program_status"]))) {
    expect((await call(page, "POST", `/v3/merchant_reviews/${business}/decision/`, { decision: "cancel", review_reasons: ["Test reset"] })).status).toBe(200);
  }

  // The business reaches the program through the hub's link and its card.
  await signIn(page, username);
  await page.goto("/business/hub/?show_vmp=true");
  await expect(page).toHaveURL(new RegExp(`/business/hub/${business}/\\?show_vmp=true$`));
  const card = page.getByRole("region", { name: t("m.program.title") });
  await expect(card).toBeVisible();
  await card.getByRole("link", { name: t("m.program.open") }).click();
  await expect(page).toHaveURL(new RegExp(`/business/hub/${business}/verified-merchant/$`));
  const checks = page.getByRole("region", { name: t("m.program.checks") });
  await expect(checks.getByRole("row")).toHaveCount(8);
  await expect(checks.getByText(t("m.result.PASS"), { exact: true })).toHaveCount(7);
  await expectNoViolations(page, "the program before applying");
  await page.getByRole("form", { name: t("m.program.apply") }).getByRole("button", { name: t("m.program.apply") }).click();
  await expect(page.locator("[data-review-status]")).toHaveAttribute("data-review-status", "UNDER_REVIEW");
  await expect(page.locator("[data-program-status]")).toHaveAttribute("data-program-status", "APPLIED");

  // The reviewer finds it in the queue and approves it.
  await signIn(page, REVIEWER);
  await page.goto("/admin/merchants/");
  await expect(page.getByRole("heading", { level: 1, name: t("m.admin.title") })).toBeVisible();
  await expectNoViolations(page, "the reviewers' queue");
  await page.locator(`tr[data-business="${business}"]`).getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/admin/merchants/${business}/$`));
  const decide = page.getByRole("form", { name: t("m.admin.decide") });
  await decide.getByLabel(t("m.admin.decision")).selectOption("approve");
  await expectNoViolations(page, "an application under review");
  await decide.getByRole("button", { name: t("m.admin.submit") }).click();
  await expect(page.locator("[data-review-status]")).toHaveAttribute("data-review-status", "COMPLETED");
  await expect(page.locator("[data-program-status]")).toHaveAttribute("data-program-status", "ACCEPTED");

  // The profile shows the badge, named for screen readers.
  await page.goto(`/${username}/`);
  await expect(page.getByRole("heading", { level: 1 }).locator("[data-verified-merchant]")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(t("m.badge.label"));
  await expect(page.locator(".profile-header").getByRole("link", { name: t("m.shop.link"), exact: true })).toBeVisible();

  // Back as the business: the welcome banner shows until it is dismissed.
  await signIn(page, username);
  await page.goto(`/business/hub/${business}/verified-merchant/`);
  const welcome = page.getByRole("region", { name: t("m.banners.welcomeTitle") });
  await expect(welcome).toBeVisible();
  await expect(page.getByRole("region", { name: t("m.banners.celebrationTitle") })).toBeVisible();
  await expectNoViolations(page, "the program once accepted");
  await welcome.getByRole("button", { name: t("m.banners.dismissWelcome") }).click();
  await expect(welcome).toBeHidden();
  await page.reload();
  await expect(page.getByRole("region", { name: t("m.banners.welcomeTitle") })).toBeHidden();
});
