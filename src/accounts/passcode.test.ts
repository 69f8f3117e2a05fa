import { describe, expect, it } from "vitest";
import english from "../../locales/en_US/settings.json" with { type: "json" };
import {
  anonymizeEmail,
  canClosePasscode,
  canSubmitPasscode,
  closedModal,
  normalizePasscodeInput,
  passcodeModalReducer,
  validateBackupEmail,
  validateConfirmBackupEmail,
  validateConfirmPasscode,
  validatePasscode,
  validatePasscodeSetup,
  type PasscodeModalAction,
  type PasscodeModalState,
} from "./passcode.ts";

/** The English words a key shows, so every assertion checks the spec's text itself. */
function words(key: string | null | undefined): string | null {
  if (!key) return null;
  let node: unknown = english;
  for (const part of key.split(".")) node = (node as Record<string, unknown>)[part];
  if (typeof node !== "string") throw new Error(`no English text for ${key}`);
  return node;
}

describe("passcode input", () => {
  it.each([
    ["1234", "1234"],
    [" 1 2 3 4 ", "1234"],
    ["12\t3\n4", "1234"],
    ["123456", "1234"],
    ["12 34 56", "1234"],
    ["ab", "ab"],
    ["", ""],
    ["\u00a01\u20032", "12"],
  ])("%j is kept as %j (whitespace stripped, past four ignored)", (raw, kept) => {
    expect(normalizePasscodeInput(raw)).toBe(kept);
  });
});

describe("passcode validation, word for word (spec 000 §5)", () => {
  it.each([
    ["", "Required"],
    ["   ", "Required"],
    ["12a4", "Please only use numbers"],
    ["abcd", "Please only use numbers"],
    ["١٢٣٤", "Please only use numbers"],
    ["-123", "Please only use numbers"],
    ["123", "Please enter four digits"],
    ["1", "Please enter four digits"],
    ["12345", "Please enter four digits"],
    ["1234", null],
    [" 0 0 0 0", null],
  ])("passcode %j → %j", (value, message) => {
    expect(words(validatePasscode(value))).toBe(message);
  });

  it.each([
    ["1234", "", "Required"],
    ["1234", "1235", "Please make sure your passcodes match"],
    ["1234", "12 34", null],
    ["1234", "1234", null],
  ])("confirm of %j given %j → %j", (passcode, confirm, message) => {
    expect(words(validateConfirmPasscode(passcode, confirm))).toBe(message);
  });

  it.each([
    ["", "Required"],
    ["  ", "Required"],
    ["parent", "Please enter a valid email address"],
    ["parent@", "Please enter a valid email address"],
    ["parent@example", "Please enter a valid email address"],
    ["par ent@example.com", "Please enter a valid email address"],
    ["kid@pinloom.example", "This email address is already used for this account. Please enter a different one"],
    [" KID@Pinloom.Example ", "This email address is already used for this account. Please enter a different one"],
    ["parent@example.com", null],
  ])("backup email %j → %j", (email, message) => {
    expect(words(validateBackupEmail(email, "kid@pinloom.example"))).toBe(message);
  });

  it.each([
    ["parent@example.com", "", "Required"],
    ["parent@example.com", "parent@example.org", "Please make sure your email addresses match"],
    ["parent@example.com", "Parent@Example.com", null],
  ])("confirm backup email of %j given %j → %j", (email, confirm, message) => {
    expect(words(validateConfirmBackupEmail(email, confirm))).toBe(message);
  });

  it("a setup form reports each field's first problem, and nothing when valid", () => {
    const errors = validatePasscodeSetup(
      { passcode: "12", confirm_passcode: "1234", backup_email: "kid@pinloom.example", confirm_backup_email: "x@y.z" },
      "kid@pinloom.example",
    );
    expect(Object.fromEntries(Object.entries(errors).map(([field, key]) => [field, words(key)]))).toEqual({
      passcode: "Please enter four digits",
      confirm_passcode: "Please make sure your passcodes match",
      backup_email: "This email address is already used for this account. Please enter a different one",
      confirm_backup_email: "Please make sure your email addresses match",
    });
    expect(
      validatePasscodeSetup(
        { passcode: "1234", confirm_passcode: "1234", backup_email: "mum@example.com", confirm_backup_email: "mum@example.com" },
        "kid@pinloom.example",
      ),
    ).toEqual({});
  });

  it.each([
    ["parent@example.com", "p****@example.com"],
    ["a@b.co", "a****@b.co"],
    ["broken", "****"],
  ])("anonymizes %s as %s", (email, shown) => {
    expect(anonymizeEmail(email)).toBe(shown);
  });
});

describe("passcode modal (spec 000 §4)", () => {
  const run = (actions: PasscodeModalAction[], from: PasscodeModalState = closedModal) => actions.reduce(passcodeModalReducer, from);
  const open = run([{ type: "open" }]);

  it("opens empty, with Enter disabled", () => {
    expect(open).toEqual({ status: "open", value: "", error: null, serverError: null });
    expect(canSubmitPasscode(open)).toBe(false);
  });

  it.each([
    ["12", "12", "Please enter four digits", false],
    ["12a", "12a", "Please only use numbers", false],
    ["", "", "Required", false],
    ["1 2 3 4 5 6", "1234", null, true],
    ["1234", "1234", null, true],
  ])("typing %j keeps %j, shows %j, Enter enabled: %s", (raw, value, message, enabled) => {
    const state = run([{ type: "input", raw }], open);
    expect(state.value).toBe(value);
    expect(words(state.error)).toBe(message);
    expect(canSubmitPasscode(state)).toBe(enabled);
  });

  it("Enter validates: close disabled until the server answers", () => {
    const validating = run([{ type: "input", raw: "1234" }, { type: "submit" }], open);
    expect(validating.status).toBe("validating");
    expect(canClosePasscode(validating)).toBe(false);
    expect(canSubmitPasscode(validating)).toBe(false);
    expect(run([{ type: "close" }], validating)).toBe(validating);
    expect(run([{ type: "input", raw: "9" }], validating)).toBe(validating);
  });

  it("Enter does nothing without a valid value", () => {
    expect(run([{ type: "submit" }], open)).toBe(open);
    const invalid = run([{ type: "input", raw: "12" }], open);
    expect(run([{ type: "submit" }], invalid)).toBe(invalid);
  });

  it("a server error shows under the field and clears on the next edit", () => {
    const failed = run([{ type: "input", raw: "1234" }, { type: "submit" }, { type: "failed", message: "Wrong" }], open);
    expect(failed).toEqual({ status: "open", value: "1234", error: null, serverError: "Wrong" });
    expect(canSubmitPasscode(failed)).toBe(true);
    expect(run([{ type: "input", raw: "123" }], failed).serverError).toBeNull();
  });

  it("success closes and resets", () => {
    expect(run([{ type: "input", raw: "1234" }, { type: "submit" }, { type: "succeeded" }], open)).toEqual(closedModal);
  });

  it("closing resets everything, so reopening starts empty", () => {
    const failed = run([{ type: "input", raw: "1234" }, { type: "submit" }, { type: "failed", message: "Wrong" }], open);
    const reopened = run([{ type: "close" }, { type: "open" }], failed);
    expect(reopened).toEqual(open);
  });

  it("ignores events that do not belong to the current state", () => {
    expect(run([{ type: "input", raw: "1234" }])).toEqual(closedModal);
    expect(run([{ type: "failed", message: "x" }], open)).toBe(open);
    expect(run([{ type: "succeeded" }], open)).toBe(open);
    const typed = run([{ type: "input", raw: "12" }], open);
    expect(run([{ type: "open" }], typed)).toBe(typed);
  });
});
