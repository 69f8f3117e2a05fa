// The people of a business in a real browser: a new business's owner invites a demo account as
// a campaign manager; that person signs in, finds the invite on the hub, accepts it, and can then
// do what the role allows (make an asset group) and is refused what it does not (open an ad
// account); the owner finds the invite, the joining and the new group in the history and the
// person in the people table. axe finds nothing on each view.
import { expect, test, type Page } from "@playwright/test";
import { expectNoViolations } from "./axe.ts";
import { signIn } from "./session.ts";
import { localeText, projectOf } from "./strings.ts";
import { signUpBusiness } from "./business-signup.ts";

const text = localeText({ auth: "auth", shell: "shell", business: "business" });

/** A JSON call from inside the page (its session and CSRF token), answering the HTTP status and data. */
function call(page: Page, method: string, path: string, body: unknown): Promise<{ status: number; data: { business?: { id: string } } }> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const csrf = /(?:^|;\s*)csrftoken=([^;]+)/.exec(document.cookie)?.[1] ?? "";
      const response = await fetch(path, { method, headers: { "content-type": "application/json", "x-csrftoken": decodeURIComponent(csrf) }, body: JSON.stringify(body) });
      const json = (await response.json().catch(() => ({}))) as { data?: unknown };
      return { status: response.status, data: (json.data ?? {}) as { business?: { id: string } } };
    },
    { method, path, body },
  );
}

test("an owner invites a demo account, who accepts and then works with exactly that role, and history shows it", async ({ browser, page }, testInfo) => {
  test.setTimeout(120_000);
  const project = projectOf(testInfo.project.name);
  const t = (path: string, values?: Record<string, string>) => text(project, `business.${path}`, values);
  // Each project its own demo invitee, so the two projects never meet.
  const invitee = project === "ar" ? "demo" : "sam";
  const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
  const name = `Team ${stamp}`.slice(0, 30);
  await signUpBusiness(page, project, name, `e2e_ppl_${project}_${stamp}`.slice(0, 30));
  // The business itself (onboarding's own journey is tests/e2e/business-hub.spec.ts).
  const made = await call(page, "POST", "/v3/businesses/", {
    businessGoals: ["BUILD_AWARENESS"],
    businessName: name,
    businessVertical: "RETAIL",
    numberEmployees: "2_10",
    hasWebsite: false,
    country: "GB",
    locale: "en_GB",
    advertisingIntent: "NOW",
    worksWithAgency: false,
    firstName: "Robin",
    lastName: "Hale",
    email: "robin@e2e.pinloom.test",
    whatsAppConsent: false,
    ageConfirmed: true,
  });
  expect(made.status).toBe(200);
  const businessId = made.data.business!.id;
  const hub = `/business/hub/${businessId}`;

  // The owner invites the demo account as a campaign manager.
  await page.goto(`${hub}/`);
  await page.getByRole("navigation", { name: t("hub.navLabel") }).getByRole("link", { name: t("hub.pages.invites") }).click();
  const inviteForm = page.getByRole("form", { name: t("invites.invite") });
  await inviteForm.getByLabel(t("invites.invitee")).fill(invitee);
  await inviteForm.getByLabel(t("people.role")).selectOption("CAMPAIGN_MANAGER");
  await inviteForm.getByRole("button", { name: t("invites.submit") }).click();
  await expect(page).toHaveURL(/[?&]selected=\d+/);
  const row = page.locator(`tr[data-invite="${invitee}"]`);
  await expect(row).toHaveAttribute("data-status", "PENDING");
  await expect(row).toContainText(t("roles.CAMPAIGN_MANAGER"));
  await expectNoViolations(page, "the invites page");

  // The invited person signs in and finds the invite on the hub.
  const context = await browser.newContext({ locale: project === "ar" ? "ar-SA" : "en-US", userAgent: await page.evaluate(() => navigator.userAgent) });
  const person = await context.newPage();
  await signIn(person, invitee);
  await person.goto("/business/hub/");
  const mine = person.locator(`li[data-my-invite="${businessId}"]`);
  await expect(mine).toContainText(name);
  await expectNoViolations(person, "the hub with an invite");
  await mine.getByRole("button", { name: t("invites.accept") }).click();
  await expect(person.locator(`li[data-my-invite="${businessId}"]`)).toHaveCount(0);

  // A campaign manager makes asset groups…
  await person.goto(`${hub}/asset-groups/`);
  const newGroup = person.getByRole("form", { name: t("assetGroups.create") });
  await newGroup.getByLabel(t("assetGroups.name")).fill("Invitee's group");
  await newGroup.getByRole("button", { name: t("assetGroups.submit") }).click();
  await expect(person).toHaveURL(/[?&]selected=\d+/);
  await expect(person.locator("tr[aria-current=true]")).toContainText("Invitee's group");
  // …but opens no ad account: no form, and the API refuses.
  await person.goto(`${hub}/ad-accounts/`);
  await expect(person.getByRole("form", { name: t("adAccounts.create") })).toHaveCount(0);
  expect((await call(person, "POST", `/v3/businesses/${businessId}/ad_accounts/`, { name: "Not mine to open", country: "GB" })).status).toBe(403);
  // Nor manages people.
  await person.goto(`${hub}/people/`);
  await expect(person.getByRole("button", { name: t("people.remove") })).toHaveCount(0);
  await context.close();

  // The owner sees the new employee with that role, and each change in today's history.
  await page.goto(`${hub}/people/`);
  await expect(page.locator(`tr[data-employee="${invitee}"] td[data-role]`)).toHaveAttribute("data-role", "CAMPAIGN_MANAGER");
  await expectNoViolations(page, "the people page");
  await page.goto(`${hub}/history/`);
  const today = new Date().toISOString().slice(0, 10);
  await page.getByLabel(t("history.startDate"), { exact: true }).fill(today);
  await page.getByLabel(t("history.endDate"), { exact: true }).fill(today);
  await page.getByRole("button", { name: t("history.show") }).click();
  await expect(page.locator("tr[data-history-action=EMPLOYEE_INVITED]")).toContainText(t("history.actions.EMPLOYEE_INVITED"));
  await expect(page.locator("tr[data-history-action=EMPLOYEE_JOINED]")).toHaveCount(1);
  await expect(page.locator("tr[data-history-action=ASSET_GROUP_CREATED]")).toContainText("Invitee's group");
});
