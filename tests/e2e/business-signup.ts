// A new business (or personal account) signed up through the form, as a person does it, for the
// journeys that need an account of their own.
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
  await setReminderAside(page, project);
}

/** Signs a new personal account up; it lands on its onboarding with the e-mail reminder dismissed. */
export async function signUpPerson(page: Page, project: Project, username: string): Promise<void> {
  await page.setExtraHTTPHeaders({ "cf-connecting-ip": visitorAddress() });
  await page.goto("/signup/");
  await expect(page.locator("main astro-island[ssr]")).toHaveCount(0, { timeout: 30_000 });
  const form = page.locator("main form");
  await form.getByLabel(text(project, "auth.signup.email")).fill(`${username}@e2e.pinloom.test`);
  await form.getByLabel(text(project, "auth.signup.password"), { exact: true }).fill("Loom#e2e-2026");
  await form.getByLabel(text(project, "auth.signup.firstName")).fill("Robin");
  await form.getByLabel(text(project, "auth.signup.username")).fill(username);
  await form.getByRole("button", { name: text(project, "auth.signup.submit") }).click();
  await expect(page).toHaveURL(/\/onboarding\/$/);
  await setReminderAside(page, project);
}

/** The verify-email reminder opens on the first signed-in page of a session. */
async function setReminderAside(page: Page, project: Project): Promise<void> {
  const reminder = page.getByRole("dialog", { name: text(project, "shell.verify.title") });
  await expect(reminder).toBeVisible();
  await reminder.getByRole("button", { name: text(project, "shell.verify.gotIt") }).click();
  await expect(reminder).toBeHidden();
}
