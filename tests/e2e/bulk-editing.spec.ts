// Bulk editing in a real browser: a new business downloads the campaigns template, uploads a
// file with one bad row and sees that row reported (nothing applied), fixes it, uploads again
// and sees it applied, in the uploads' history and in the business history. axe finds nothing
// on each view.
import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { expectNoViolations } from "./axe.ts";

type Strings = { [key: string]: string | Strings };
const load = (locale: string, ns: string) => JSON.parse(readFileSync(new URL(`../../locales/${locale}/${ns}.json`, import.meta.url), "utf8")) as Strings;
const STRINGS = { en: { bulk: load("en_US", "bulk"), business: load("en_US", "business"), shell: load("en_US", "shell") }, ar: { bulk: load("ar_SA", "bulk"), business: load("ar_SA", "business"), shell: load("ar_SA", "shell") } };
type Project = keyof typeof STRINGS;

function text(project: Project, path: string, values: Record<string, string> = {}): string {
  const [ns, ...keys] = path.split(".");
  let node: string | Strings = STRINGS[project][ns as "bulk"];
  for (const key of keys) node = (node as Strings)[key]!;
  return Object.entries(values).reduce((result, [name, value]) => result.replace(`{{${name}}}`, value), node as string);
}

/** A new account made business through the API, from inside the page (its cookies, its CSRF token). */
async function newBusiness(page: Page, project: Project, stamp: string): Promise<{ businessId: string; adAccountId: string }> {
  await page.goto("/");
  const made = await page.evaluate(
    async ({ username, locale, address }) => {
      const headers = () => ({
        "content-type": "application/json",
        "x-csrftoken": decodeURIComponent(/(?:^|;\s*)csrftoken=([^;]+)/.exec(document.cookie)?.[1] ?? ""),
        "x-requested-with": "XMLHttpRequest",
        "cf-connecting-ip": address,
      });
      const options = { email: `${username}@e2e.pinloom.test`, username, password: "Loom#e2e-2026", first_name: "Lea", country: "FR", locale, birthday: "1990-04-12" };
      const registered = await fetch("/resource/UserRegisterResource/create/", { method: "POST", headers: headers(), body: JSON.stringify({ options }) });
      if (registered.status !== 200) return { error: `sign-up answered ${registered.status}` };
      const answers = {
        businessGoals: ["INCREASE_SALES"],
        businessName: `Maison ${username.slice(-6)}`,
        businessVertical: "HOME_AND_GARDEN",
        numberEmployees: "2_10",
        hasWebsite: false,
        country: "FR",
        locale: "fr",
        advertisingIntent: "NOW",
        worksWithAgency: false,
        firstName: "Lea",
        email: `${username}@e2e.pinloom.test`,
        ageConfirmed: true,
      };
      const response = await fetch("/v3/businesses/", { method: "POST", headers: headers(), body: JSON.stringify(answers) });
      const body = (await response.json()) as { data?: { business?: { id: string }; ad_account?: { id: string } } };
      return response.status === 200 ? { businessId: body.data!.business!.id, adAccountId: body.data!.ad_account!.id } : { error: `onboarding answered ${response.status}` };
    },
    { username: `e2e_bulk_${project}_${stamp}`.slice(0, 30), locale: project === "ar" ? "ar_SA" : "en_US", address: `10.77.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 250)}` },
  );
  if ("error" in made) throw new Error(made.error);
  return made;
}

test("a business downloads a template, sees a bad row reported and nothing applied, fixes it, and finds it applied in both histories", async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const project: Project = testInfo.project.name === "ar" ? "ar" : "en";
  const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
  const t = (path: string, values?: Record<string, string>) => text(project, path, values);
  const { businessId, adAccountId } = await newBusiness(page, project, stamp);

  // The download tab; a new account is asked once to verify its e-mail.
  await page.goto(`/advertiser/${adAccountId}/bulk/`);
  const reminder = page.getByRole("dialog", { name: t("shell.verify.title") });
  await expect(reminder).toBeVisible();
  await reminder.getByRole("button", { name: t("shell.verify.gotIt") }).click();
  const tabs = page.getByRole("navigation", { name: t("bulk.tabsLabel") });
  await expect(page.getByRole("heading", { level: 1 })).toContainText(t("bulk.title", { name: "" }).trim());
  await expect(tabs.getByRole("link", { name: t("bulk.tabs.download") })).toHaveAttribute("aria-current", "page");
  await expectNoViolations(page, "the download tab");
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: t("bulk.download.templateLink", { section: t("bulk.sections.campaigns") }) }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`pinloom-campaigns-${adAccountId}-template.csv`);
  const template = readFileSync(await download.path(), "utf8");
  expect(template.replace(/^\uFEFF/, "").split("\r\n")[0]).toBe("type,id,ref,name,status,goal,daily_budget,start_date,duration_days");

  // A file with one bad row: its third row's budget is under France's minimum of 7.
  const header = "type,id,ref,name,status,goal,daily_budget,start_date,duration_days";
  const bad = `${header}\r\nCAMPAIGN,,,Spring ${stamp},ACTIVE,CONSIDERATION,20,,30\r\nCAMPAIGN,,,Summer ${stamp},PAUSED,WEB_CONVERSION,3,,\r\n`;
  await tabs.getByRole("link", { name: t("bulk.tabs.upload") }).click();
  await expect(page).toHaveURL(new RegExp(`/advertiser/${adAccountId}/bulk/upload/$`));
  // The form's script runs before the page's load: a press before it would submit natively.
  await page.waitForLoadState("load");
  const form = page.locator("form[data-bulk-upload]");
  const file = form.getByLabel(t("bulk.form.file", { bytes: "", rows: "" }).split("(")[0]!.trim());
  await file.setInputFiles({ name: "seasons.csv", mimeType: "text/csv", buffer: Buffer.from(bad) });
  await form.getByRole("button", { name: t("bulk.form.submit") }).click();
  const reported = form.locator('tr[data-row="3"][data-code="BUDGET_BELOW_MINIMUM"]');
  await expect(reported).toBeVisible();
  await expect(reported).toContainText(t("bulk.codes.BUDGET_BELOW_MINIMUM"));
  await expect(form.locator("tr[data-row]")).toHaveCount(1);
  await expectNoViolations(page, "an upload's errors");

  // Fixed, it applies both rows.
  await file.setInputFiles({ name: "seasons-fixed.csv", mimeType: "text/csv", buffer: Buffer.from(bad.replace(",3,,", ",30,,")) });
  await form.getByRole("button", { name: t("bulk.form.submit") }).click();
  await expect(form.locator("[data-form-status]")).toHaveText(t("bulk.upload.applied", { created: "2", updated: "0" }));
  await expect(form.locator("tr[data-row]")).toHaveCount(0);

  // The uploads' history: the failed file and the applied one.
  await tabs.getByRole("link", { name: t("bulk.tabs.history") }).click();
  const rows = page.locator("tr[data-upload]");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toHaveAttribute("data-status", "FAILED");
  await expect(rows.nth(1)).toHaveAttribute("data-status", "APPLIED");
  await expect(rows.nth(1)).toContainText(t("bulk.history.statuses.APPLIED"));
  await expectNoViolations(page, "the history tab");
  await page.getByRole("link", { name: t("bulk.history.open", { file: "seasons.csv" }), exact: true }).click();
  await expect(page.locator('tr[data-row="3"][data-code="BUDGET_BELOW_MINIMUM"]')).toBeVisible();
  await expectNoViolations(page, "a failed upload");

  // The resources tab lists the code the validator answered.
  await tabs.getByRole("link", { name: t("bulk.tabs.resources") }).click();
  await expect(page.locator("#code-BUDGET_BELOW_MINIMUM")).toContainText(t("bulk.codes.BUDGET_BELOW_MINIMUM"));
  await expectNoViolations(page, "the resources tab");

  // The business history holds the upload and each campaign it made.
  const today = new Date().toISOString().slice(0, 10);
  await page.goto(`/business/hub/${businessId}/history/?start_date=${today}&end_date=${today}`);
  await expect(page.locator('tr[data-history-action="BULK_UPLOAD_APPLIED"]')).toContainText("seasons-fixed.csv");
  const created = page.locator('tr[data-history-action="CAMPAIGN_CREATED"]');
  await expect(created).toHaveCount(2);
  await expect(created.filter({ hasText: `Summer ${stamp}` })).toContainText(t("business.history.actions.CAMPAIGN_CREATED"));
});
