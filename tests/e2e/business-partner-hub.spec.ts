// A partner business's person works in a client's hub in a real browser: an agency and a client
// sign up, the client invites the agency with a campaign manager's role on one of its ad
// accounts and the agency accepts; the agency's person then finds the client on the hub's entry
// (marked as reached through the agency), sees only the shared account on the client's
// dashboard, opens its advertiser page and renames it. The account that was not shared answers
// 404. axe finds nothing on each view.
import { expect, test, type Page } from "@playwright/test";
import { expectNoViolations } from "./axe.ts";
import { signUpBusiness } from "./business-signup.ts";
import { localeText, projectOf } from "./strings.ts";

const text = localeText({ business: "business" });

/** A JSON call from inside the page (its session and CSRF token), answering the HTTP status and data. */
function call<T = Record<string, unknown>>(page: Page, method: string, path: string, body: unknown): Promise<{ status: number; data: T }> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const csrf = /(?:^|;\s*)csrftoken=([^;]+)/.exec(document.cookie)?.[1] ?? "";
      const response = await fetch(path, { method, headers: { "content-type": "application/json", "x-csrftoken": decodeURIComponent(csrf) }, body: JSON.stringify(body) });
      const json = (await response.json().catch(() => ({}))) as { data?: unknown };
      return { status: response.status, data: (json.data ?? {}) as never };
    },
    { method, path, body },
  );
}

/** Onboarding's answers for a business of that name (onboarding's own journey is business-hub.spec.ts). */
const onboarding = (businessName: string) => ({
  businessGoals: ["BUILD_AWARENESS"],
  businessName,
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

test("a partner's person finds the client in the hub and renames the ad account shared with their agency", async ({ browser, page }, testInfo) => {
  test.setTimeout(120_000);
  const project = projectOf(testInfo.project.name);
  const t = (path: string, values?: Record<string, string>) => text(project, `business.${path}`, values);
  const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
  const clientName = `Client ${stamp}`.slice(0, 30);
  const agencyName = `Agency ${stamp}`.slice(0, 30);

  // The client: its first ad account is shared, a second one is not.
  await signUpBusiness(page, project, clientName, `e2e_cli_${project}_${stamp}`.slice(0, 30));
  const client = await call<{ business: { id: string }; ad_account: { id: string } }>(page, "POST", "/v3/businesses/", onboarding(clientName));
  expect(client.status).toBe(200);
  const clientId = client.data.business.id;
  const shared = client.data.ad_account.id;
  const kept = await call<{ id: string }>(page, "POST", `/v3/businesses/${clientId}/ad_accounts/`, { name: `Kept ${stamp}`, country: "GB" });
  expect(kept.status).toBe(200);

  // The agency, in a browser of its own.
  const context = await browser.newContext({ locale: project === "ar" ? "ar-SA" : "en-US", userAgent: await page.evaluate(() => navigator.userAgent) });
  try {
    const agency = await context.newPage();
    await signUpBusiness(agency, project, agencyName, `e2e_agy_${project}_${stamp}`.slice(0, 30));
    const made = await call<{ business: { id: string } }>(agency, "POST", "/v3/businesses/", onboarding(agencyName));
    expect(made.status).toBe(200);
    const agencyId = made.data.business.id;

    // The client asks the agency to work for it, with a campaign manager's role on the shared account; the agency accepts.
    const invite = await call<{ id: string }>(page, "POST", `/v3/businesses/${clientId}/partner_invites/`, { business_id: agencyId, kind: "INVITE", asset_roles: [{ asset_type: "AD_ACCOUNT", asset_id: shared, role: "CAMPAIGN_MANAGER" }] });
    expect(invite.status).toBe(200);
    expect((await call(agency, "POST", `/v3/businesses/${agencyId}/partner_invites/${invite.data.id}/accept/`, {})).status).toBe(200);

    // The hub's entry lists the client, marked as reached through the agency.
    await agency.goto("/business/hub/");
    const entry = agency.locator('li[data-reachable="PARTNER"]');
    await expect(entry).toContainText(clientName);
    await expect(entry).toContainText(t("guest.viaPartner", { partners: agencyName }));
    await expectNoViolations(agency, "the hub's entry with a client");

    // The client's dashboard shows the shared account only.
    await entry.getByRole("link", { name: clientName }).click();
    await expect(agency).toHaveURL(new RegExp(`/business/hub/${clientId}/$`));
    await expect(agency.locator("[data-shared-asset]")).toHaveCount(1);
    await expect(agency.getByText(`Kept ${stamp}`)).toHaveCount(0);
    await expectNoViolations(agency, "a client's dashboard seen through a partner");

    // Its advertiser page offers the rename a campaign manager may make.
    await agency.locator(`li[data-shared-asset="${shared}"]`).getByRole("link").click();
    await expect(agency).toHaveURL(new RegExp(`/advertiser/${shared}/$`));
    await expectNoViolations(agency, "a client's ad account seen through a partner");
    const renamed = `Renamed ${stamp}`.slice(0, 30);
    const form = agency.getByRole("form", { name: t("adAccounts.rename") });
    await form.getByLabel(t("adAccounts.name")).fill(renamed);
    await form.getByRole("button", { name: t("adAccounts.rename") }).click();
    await expect(agency.getByRole("heading", { level: 1 })).toHaveText(t("hub.advertiserTitle", { name: renamed }));
    // The client sees the new name too.
    expect((await call<{ name: string }>(page, "GET", `/v3/businesses/${clientId}/ad_accounts/${shared}/`, undefined)).data.name).toBe(renamed);

    // The account not shared is not there for the agency.
    expect((await agency.goto(`/advertiser/${kept.data.id}/`))?.status()).toBe(404);
  } finally {
    await context.close();
  }
});
