// The business hub in a real browser: a business signs up, completes onboarding (with the
// underage confirmation, as a business sign-up gives no birthday) and the marketing plan (with
// the scheduling modal), creates an ad account and an asset group, and finds each change in
// the history. axe finds nothing on each view.
import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { expectNoViolations } from "./axe.ts";
import { signUpBusiness } from "./business-signup.ts";
import { hydrated } from "./hydrated.ts";

type Strings = { [key: string]: string | Strings };
const load = (locale: string, ns: string) => JSON.parse(readFileSync(new URL(`../../locales/${locale}/${ns}.json`, import.meta.url), "utf8")) as Strings;
const STRINGS = { en: { auth: load("en_US", "auth"), shell: load("en_US", "shell"), business: load("en_US", "business") }, ar: { auth: load("ar_SA", "auth"), shell: load("ar_SA", "shell"), business: load("ar_SA", "business") } };
type Project = keyof typeof STRINGS;
const projectOf = (name: string): Project => (name === "ar" ? "ar" : "en");
function text(project: Project, path: string, values: Record<string, string> = {}): string {
  const [ns, ...keys] = path.split(".");
  let node: string | Strings = STRINGS[project][ns as "auth"];
  for (const key of keys) node = (node as Strings)[key]!;
  return Object.entries(values).reduce((result, [name, value]) => result.replace(`{{${name}}}`, value), node as string);
}


test("a business signs up, onboards, plans, creates an ad account and an asset group, and sees each change in history", async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const project = projectOf(testInfo.project.name);
  const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
  const username = `e2e_biz_${project}_${stamp}`.slice(0, 30);
  const name = `Bloom ${stamp}`.slice(0, 30);
  const t = (path: string, values?: Record<string, string>) => text(project, `business.${path}`, values);
  await signUpBusiness(page, project, name, username);

  // The hub, reached by its link (show_vmp=true), offers onboarding to a profile without a business.
  await page.goto("/business/hub/?show_vmp=true");
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
  await page.getByRole("link", { name: t("hub.createBusiness") }).click();
  await expect(page).toHaveURL(/\/business\/hub\/onboarding\/$/);
  await hydrated(page);
  const stepper = page.locator("main form.hub-form");
  const next = stepper.getByRole("button", { name: t("stepper.next") });

  await expect(stepper.getByText(t("stepper.progress", { step: "1", total: "5" }))).toBeVisible();
  await expect(next).toBeDisabled();
  await stepper.getByLabel(t("stepper.options.businessGoals.INCREASE_SALES")).check();
  await next.click();
  await expect(stepper.getByLabel(t("stepper.fields.businessName"))).toHaveValue(name);
  await stepper.getByLabel(t("stepper.fields.businessVertical")).selectOption("FOOD_AND_DRINK");
  await stepper.getByLabel(t("stepper.fields.numberEmployees")).selectOption("2_10");
  // Back keeps the answers; forward again.
  await stepper.getByRole("button", { name: t("stepper.back") }).click();
  await expect(stepper.getByLabel(t("stepper.options.businessGoals.INCREASE_SALES"))).toBeChecked();
  await next.click();
  await next.click();
  await stepper.getByLabel(t("stepper.fields.country")).selectOption("FR");
  await stepper.getByLabel(t("stepper.fields.locale")).selectOption("fr");
  await next.click();
  await stepper.getByLabel(t("stepper.fields.advertisingIntent")).selectOption("NOW");
  await next.click();
  await stepper.getByLabel(t("stepper.fields.firstName")).fill("Camille");
  await stepper.getByLabel(t("stepper.fields.lastName")).fill("Durand");
  await expectNoViolations(page, "the onboarding stepper");
  await stepper.getByRole("button", { name: t("stepper.finish") }).click();

  const underage = page.getByRole("alertdialog", { name: t("stepper.underage.title") });
  await expect(underage).toBeVisible();
  await expectNoViolations(page, "the underage confirmation");
  await underage.getByRole("button", { name: t("stepper.underage.confirm") }).click();

  // The marketing plan: goals step, survey, suggested plan, scheduling modal.
  await expect(page).toHaveURL(/\/business\/hub\/\d+\/marketing-plan\/$/);
  const businessPath = new URL(page.url()).pathname.replace(/marketing-plan\/$/, "");
  await hydrated(page);
  await page.getByLabel(t("stepper.options.businessGoals.INCREASE_SALES")).check();
  await page.getByRole("button", { name: t("plan.continue") }).click();
  await page.getByLabel(t("plan.fields.dailyAdsBudget", { currency: "EUR" })).fill("80");
  await page.getByLabel(t("plan.fields.weeklyCheckouts")).fill("12");
  await page.getByLabel(t("plan.fields.hasFeed")).check();
  await page.getByRole("button", { name: t("plan.submit") }).click();
  await expect(page.locator("[data-plan-goal]")).toHaveAttribute("data-plan-goal", "CATALOG_SALES");
  await page.getByRole("button", { name: t("plan.schedule") }).click();
  const schedule = page.getByRole("dialog", { name: t("plan.scheduleTitle") });
  await schedule.getByLabel(t("plan.scheduleWhen")).fill("2030-05-04T10:30");
  await expectNoViolations(page, "the scheduling modal");
  await schedule.getByRole("button", { name: t("plan.scheduleConfirm") }).click();
  await expect(schedule).toBeHidden();
  // The time is written in the page's language (Arabic digits in Arabic): the sentence around it is checked.
  await expect(page.getByRole("status").filter({ hasText: t("plan.scheduled").split("{{when}}")[0]!.trim() })).toBeVisible();
  await page.getByRole("link", { name: t("plan.toDashboard") }).click();

  // The dashboard lists the first ad account, named after the business.
  await expect(page).toHaveURL(new RegExp(`${businessPath}$`));
  await expect(page.getByRole("heading", { name: t("hub.recentlyAdded") })).toBeVisible();
  await expect(page.getByRole("region", { name: t("hub.recentlyAdded") }).getByRole("link", { name, exact: true })).toBeVisible();
  await expect(page.getByRole("region", { name: t("hub.profiles") }).getByRole("link", { name, exact: true })).toBeVisible();
  await expectNoViolations(page, "the dashboard");

  // An ad account: created, then selected in the list, billing in pounds for GB.
  await page.getByRole("navigation", { name: t("hub.navLabel") }).getByRole("link", { name: t("hub.pages.ad_accounts") }).click();
  const newAccount = page.getByRole("form", { name: t("adAccounts.create") });
  await newAccount.getByLabel(t("adAccounts.name")).fill("Spring campaigns");
  await newAccount.getByLabel(t("adAccounts.country")).selectOption("GB");
  await newAccount.getByRole("button", { name: t("adAccounts.submit") }).click();
  await expect(page).toHaveURL(/[?&]selected=\d+/);
  const accountRow = page.locator("tr[aria-current=true]");
  await expect(accountRow).toContainText("Spring campaigns");
  await expect(accountRow).toContainText("GBP");
  await expectNoViolations(page, "the ad accounts");

  // An asset group holding it: created and selected.
  await page.getByRole("navigation", { name: t("hub.navLabel") }).getByRole("link", { name: t("hub.pages.asset_groups") }).click();
  const newGroup = page.getByRole("form", { name: t("assetGroups.create") });
  await newGroup.getByLabel(t("assetGroups.name")).fill("Spring brand");
  await newGroup.getByRole("group", { name: t("assetGroups.adAccounts") }).getByLabel("Spring campaigns").check();
  await newGroup.getByRole("button", { name: t("assetGroups.submit") }).click();
  await expect(page).toHaveURL(/[?&]selected=\d+/);
  await expect(page.locator("tr[aria-current=true]")).toContainText("Spring brand");
  await expectNoViolations(page, "the asset groups");

  // History: today's changes, once the range includes today (the default ends yesterday).
  await page.getByRole("navigation", { name: t("hub.navLabel") }).getByRole("link", { name: t("hub.pages.history") }).click();
  await expect(page.locator("tr[data-history-action]")).toHaveCount(0);
  const today = new Date().toISOString().slice(0, 10);
  await page.getByLabel(t("history.startDate"), { exact: true }).fill(today);
  await page.getByLabel(t("history.endDate"), { exact: true }).fill(today);
  await page.getByRole("button", { name: t("history.show") }).click();
  const actions = page.locator("tr[data-history-action]");
  await expect(actions).toHaveCount(7);
  expect(await actions.evaluateAll((rows) => rows.map((row) => row.getAttribute("data-history-action")).sort())).toEqual(
    ["AD_ACCOUNT_CREATED", "AD_ACCOUNT_CREATED", "ASSET_GROUP_CREATED", "BUSINESS_CREATED", "MARKETING_PLAN_UPDATED", "MARKETING_PLAN_UPDATED", "PROFILE_LINKED"],
  );
  await expect(page.locator("tr[data-history-action=ASSET_GROUP_CREATED]")).toContainText("Spring brand");
  await expect(page.locator("tr[data-history-action=ASSET_GROUP_CREATED]")).toContainText(name);
  await expectNoViolations(page, "the history");
});
