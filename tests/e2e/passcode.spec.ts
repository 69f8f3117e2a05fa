// The parental passcode in a real browser, in English and in Arabic (right to left): set one up
// on the full-page flow (every validation message shown), then a protected change opens the
// modal, which validates, shows the server's refusal under the field, clears it on edit,
// resets when closed, and applies the change with the right passcode.
import { expect, test, type Page } from "@playwright/test";
import arabic from "../../locales/ar_SA/settings.json" with { type: "json" };
import { DEMO_PASSWORD, signIn } from "./session.ts";

const TEXT = {
  en: {
    required: "Required",
    onlyNumbers: "Please only use numbers",
    fourDigits: "Please enter four digits",
    passcodesMatch: "Please make sure your passcodes match",
    invalidEmail: "Please enter a valid email address",
    emailIsAccountEmail: "This email address is already used for this account. Please enter a different one",
    emailsMatch: "Please make sure your email addresses match",
    wrong: "That passcode isn't right. You have 4 tries left.",
    setupTitle: "Set up a passcode",
    passcode: "Passcode",
    confirmPasscode: "Confirm passcode",
    backupEmail: "Backup email",
    confirmBackupEmail: "Confirm backup email",
    save: "Save passcode",
    statusOn: "The parental passcode is on.",
    modalTitle: "Enter your parental passcode",
    enter: "Enter",
    close: "Close",
    settingsSave: "Save",
    saved: "Your settings are saved.",
    nobody: "No one",
  },
  ar: {
    ...arabic.passcode.errors,
    wrong: arabic.passcode.api.incorrect_few.replace("{{count}}", "4"),
    setupTitle: arabic.passcode.page.setupTitle,
    passcode: arabic.passcode.page.passcode,
    confirmPasscode: arabic.passcode.page.confirmPasscode,
    backupEmail: arabic.passcode.page.backupEmail,
    confirmBackupEmail: arabic.passcode.page.confirmBackupEmail,
    save: arabic.passcode.page.save,
    statusOn: arabic.passcode.page.statusOn.split("{{email}}")[0]!.replace(/ البريد.*$/, ""),
    modalTitle: arabic.passcode.modal.title,
    enter: arabic.passcode.modal.submit,
    close: arabic.passcode.modal.close,
    settingsSave: arabic.settings.save,
    saved: arabic.settings.saved,
    nobody: arabic.settings.audience.off,
  },
};

/** en and ar run side by side: each its own demo account with a password. */
const ACCOUNTS = {
  en: { username: "sam", id: 7, email: "sam@pinloom.example", passcode: "2468" },
  ar: { username: "mia_sketches", id: 5, email: "mia@pinloom.example", passcode: "1357" },
};

/** Leaves the account with no passcode, whatever an earlier run left (even a lock). */
async function clearPasscode(page: Page, passcode: string): Promise<void> {
  const status = await page.evaluate(
    async ({ password, passcode }) => {
      const csrf = /(?:^|;\s*)csrftoken=([^;]+)/.exec(document.cookie)?.[1] ?? "";
      const send = (method: string, url: string, body: unknown) =>
        fetch(url, { method, headers: { "content-type": "application/json", "x-csrftoken": csrf }, body: JSON.stringify(body) });
      const reset = await send("POST", "/v3/users/parental_passcode/reset/", { password, passcode, confirm_passcode: passcode });
      if (reset.status === 409) return 200;
      if (reset.status !== 200) return reset.status;
      return (await send("DELETE", "/v3/users/parental_passcode/", { passcode })).status;
    },
    { password: DEMO_PASSWORD, passcode },
  );
  expect(status).toBe(200);
}

test("set a passcode, then a protected change asks for it in the modal", async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  const project = testInfo.project.name === "ar" ? "ar" : "en";
  const text = TEXT[project];
  const account = ACCOUNTS[project];
  await signIn(page, account.username);
  await clearPasscode(page, account.passcode);

  // The full-page flow: set one up, seeing each validation message on the way.
  await page.goto("/parental-passcode/");
  await expect(page.locator("html")).toHaveAttribute("dir", project === "ar" ? "rtl" : "ltr");
  const setup = page.getByRole("form", { name: text.setupTitle });
  const passcode = setup.getByLabel(text.passcode, { exact: true });
  const confirm = setup.getByLabel(text.confirmPasscode);
  const backup = setup.getByLabel(text.backupEmail, { exact: true });
  const confirmBackup = setup.getByLabel(text.confirmBackupEmail);
  const save = setup.getByRole("button", { name: text.save });
  const errorOf = (name: string) => setup.locator(`[data-error-for="${name}"]`);

  await save.click();
  for (const name of ["passcode", "confirm_passcode", "backup_email", "confirm_backup_email"]) await expect(errorOf(name)).toHaveText(text.required);
  await expect(passcode).toBeFocused();

  await passcode.fill("12a");
  await save.click();
  await expect(errorOf("passcode")).toHaveText(text.onlyNumbers);
  await passcode.fill("12");
  await save.click();
  await expect(errorOf("passcode")).toHaveText(text.fourDigits);
  // Whitespace is stripped and anything past four characters ignored.
  await passcode.fill("");
  await passcode.pressSequentially(` ${account.passcode.split("").join(" ")} 99`);
  await expect(passcode).toHaveValue(account.passcode);
  await confirm.fill("0000");
  await backup.fill("parent@");
  await confirmBackup.fill("parent@example.com");
  await save.click();
  await expect(errorOf("passcode")).toBeHidden();
  await expect(errorOf("confirm_passcode")).toHaveText(text.passcodesMatch);
  await expect(errorOf("backup_email")).toHaveText(text.invalidEmail);
  await expect(backup).toHaveAttribute("aria-invalid", "true");
  await confirm.fill(account.passcode);
  await backup.fill(account.email);
  await confirmBackup.fill(account.email);
  await save.click();
  await expect(errorOf("backup_email")).toHaveText(text.emailIsAccountEmail);
  await backup.fill("parent@example.com");
  await confirmBackup.fill("parent@example.org");
  await save.click();
  await expect(errorOf("confirm_backup_email")).toHaveText(text.emailsMatch);
  await confirmBackup.fill("parent@example.com");
  await save.click();
  await expect(page.locator("[data-passcode-status]")).toContainText(text.statusOn);

  // A protected change: the modal opens.
  await page.goto("/settings/edit/mentions");
  await page.getByLabel(text.nobody).check();
  const saveSetting = page.getByRole("button", { name: text.settingsSave, exact: true });
  await saveSetting.click();
  const dialog = page.getByRole("dialog", { name: text.modalTitle });
  await expect(dialog).toBeVisible();
  const field = dialog.getByLabel(text.passcode);
  const enter = dialog.getByRole("button", { name: text.enter });
  const alert = dialog.getByRole("alert");
  await expect(field).toBeFocused();
  await expect(field).toHaveAttribute("inputmode", "numeric");
  await expect(enter).toBeDisabled();

  await field.fill("12");
  await expect(alert).toHaveText(text.fourDigits);
  await expect(enter).toBeDisabled();
  await field.fill("1a");
  await expect(alert).toHaveText(text.onlyNumbers);
  await field.fill("");
  await expect(alert).toHaveText(text.required);
  await expect(enter).toBeDisabled();

  // A wrong passcode: the server's words under the field, gone on the next edit.
  await field.fill("9999");
  await expect(enter).toBeEnabled();
  await enter.click();
  await expect(alert).toHaveText(text.wrong);
  await expect(field).toHaveAttribute("aria-describedby", await alert.getAttribute("id") ?? "");
  await field.press("Backspace");
  await expect(alert).toHaveText(text.fourDigits);
  await field.fill("9998");
  await expect(alert).toHaveText("");

  // Escape closes and resets; focus goes back to the button that opened it.
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(saveSetting).toBeFocused();
  await saveSetting.click();
  await expect(dialog).toBeVisible();
  await expect(field).toHaveValue("");
  await expect(alert).toHaveText("");

  // The right passcode applies the change.
  await field.fill(account.passcode);
  await enter.click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("status").filter({ hasText: text.saved })).toBeVisible();
  await page.reload();
  await expect(page.getByLabel(text.nobody)).toBeChecked();

  await clearPasscode(page, account.passcode);
});
