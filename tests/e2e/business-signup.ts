// A new business signed up through the form, as a person does it, for the business journeys.
import { expect, type Page } from "@playwright/test";
import { hydrated } from "./hydrated.ts";
import { visitorAddress } from "./session.ts";
import { localeText, type Project } from "./strings.ts";

const text = localeText({ auth: "auth", shell: "shell" });

/**
 * Signs a new business up and lands on its onboarding with the e-mail reminder dismissed. Each
 * sign-up comes from its own visitor address: the suite signs up more businesses than the
 * sign-up throttle's 10 an hour per address allow (the throttle is tested in tests/worker).
 */
export async function signUpBusiness(page: Page, project: Project, name: string, username: string): Promise<void> {
  await page.setExtraHTTPHeaders({ "cf-connecting-ip": visitorAddress() });
  await page.goto("/signup/");
  // The form is an island.
  await hydrated(page);
  const form = page.locator("main form");
  await form.getByLabel(text(project, "auth.signup.business")).check();
  await form.getByLabel(text(project, "auth.signup.businessName")).fill(name);
  await form.getByLabel(text(project, "auth.signup.email")).fill(`${username}@e2e.pinloom.test`);
  await form.getByLabel(text(project, "auth.signup.password"), { exact: true }).fill("Loom#e2e-2026");
  await form.getByLabel(text(project, "auth.signup.username")).fill(username);
  await form.getByRole("button", { name: text(project, "auth.signup.submit") }).click();
  // A business goes on to onboarding.
  await expect(page).toHaveURL(/\/business\/hub\/onboarding\/$/);
  const reminder = page.getByRole("dialog", { name: text(project, "shell.verify.title") });
  await expect(reminder).toBeVisible();
  await reminder.getByRole("button", { name: text(project, "shell.verify.gotIt") }).click();
  await expect(reminder).toBeHidden();
}
