// The parental passcode's rules (spec 000 §4 "Parental passcode modal", §5, §9 "Passcode
// length 4"), shared by the server and the browser so both say the same thing in the same
// words. Messages are i18n keys of the settings namespace; the caller translates them.

const PASSCODE_LENGTH = 4;
/** Wrong tries before the passcode locks; reset needs the account password. */
export const PASSCODE_MAX_FAILURES = 5;
const MAX_EMAIL_LENGTH = 254;

export const PASSCODE_ERRORS = {
  required: "passcode.errors.required",
  onlyNumbers: "passcode.errors.onlyNumbers",
  fourDigits: "passcode.errors.fourDigits",
  passcodesMatch: "passcode.errors.passcodesMatch",
  invalidEmail: "passcode.errors.invalidEmail",
  emailIsAccountEmail: "passcode.errors.emailIsAccountEmail",
  emailsMatch: "passcode.errors.emailsMatch",
} as const;
export type PasscodeErrorKey = (typeof PASSCODE_ERRORS)[keyof typeof PASSCODE_ERRORS];

export const stripWhitespace = (value: string) => value.replace(/\s+/gu, "");

/**
 * What a passcode field keeps of what was typed or pasted: whitespace stripped, anything past
 * four characters ignored (spec 000 §5). Array.from counts code points, so an emoji is one.
 */
export function normalizePasscodeInput(raw: string): string {
  return Array.from(stripWhitespace(raw)).slice(0, PASSCODE_LENGTH).join("");
}

/** The first rule a passcode breaks, or null. Order: required, digits only, exactly four. */
export function validatePasscode(value: string): PasscodeErrorKey | null {
  const passcode = stripWhitespace(value);
  if (passcode === "") return PASSCODE_ERRORS.required;
  if (!/^[0-9]+$/.test(passcode)) return PASSCODE_ERRORS.onlyNumbers;
  if (passcode.length !== PASSCODE_LENGTH) return PASSCODE_ERRORS.fourDigits;
  return null;
}

export function validateConfirmPasscode(passcode: string, confirm: string): PasscodeErrorKey | null {
  const value = stripWhitespace(confirm);
  if (value === "") return PASSCODE_ERRORS.required;
  return value === stripWhitespace(passcode) ? null : PASSCODE_ERRORS.passcodesMatch;
}

/** One address, no spaces, a dot in the domain; deliberately not RFC 5322's full grammar. */
export function isValidEmail(value: string): boolean {
  return value.length <= MAX_EMAIL_LENGTH && /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/.test(value);
}

const sameEmail = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** Backup email: required, valid, and not the account's own address (it must reach a parent). */
export function validateBackupEmail(value: string, accountEmail: string): PasscodeErrorKey | null {
  const email = value.trim();
  if (email === "") return PASSCODE_ERRORS.required;
  if (!isValidEmail(email)) return PASSCODE_ERRORS.invalidEmail;
  if (sameEmail(email, accountEmail)) return PASSCODE_ERRORS.emailIsAccountEmail;
  return null;
}

export function validateConfirmBackupEmail(email: string, confirm: string): PasscodeErrorKey | null {
  if (confirm.trim() === "") return PASSCODE_ERRORS.required;
  return sameEmail(email, confirm) ? null : PASSCODE_ERRORS.emailsMatch;
}

export interface PasscodeSetupInput {
  passcode: string;
  confirm_passcode: string;
  backup_email: string;
  confirm_backup_email: string;
}
export type PasscodeSetupErrors = Partial<Record<keyof PasscodeSetupInput, PasscodeErrorKey>>;

/** Every field's first problem; an empty object when the setup form is valid. */
export function validatePasscodeSetup(input: PasscodeSetupInput, accountEmail: string): PasscodeSetupErrors {
  const errors: PasscodeSetupErrors = {};
  const checks: Array<[keyof PasscodeSetupInput, PasscodeErrorKey | null]> = [
    ["passcode", validatePasscode(input.passcode)],
    ["confirm_passcode", validateConfirmPasscode(input.passcode, input.confirm_passcode)],
    ["backup_email", validateBackupEmail(input.backup_email, accountEmail)],
    ["confirm_backup_email", validateConfirmBackupEmail(input.backup_email, input.confirm_backup_email)],
  ];
  for (const [field, error] of checks) if (error) errors[field] = error;
  return errors;
}

/** "parent@example.com" → "p****@example.com": shown to the account, never the full address. */
export function anonymizeEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at < 1) return "****";
  return `${email[0]}****${email.slice(at)}`;
}

// The modal (spec 000 §4): closed → open on a protected change → Enter enabled only with a
// value and no error → validating (close disabled, loader) → a server error under the field,
// cleared on edit → closing resets everything.

type PasscodeModalStatus = "closed" | "open" | "validating";

export interface PasscodeModalState {
  status: PasscodeModalStatus;
  value: string;
  /** A rule the value breaks; null until the person has typed. */
  error: PasscodeErrorKey | null;
  /** The server's words for a refused passcode, already translated. */
  serverError: string | null;
}

export type PasscodeModalAction =
  | { type: "open" }
  | { type: "input"; raw: string }
  | { type: "submit" }
  | { type: "failed"; message: string }
  | { type: "succeeded" }
  | { type: "close" };

export const closedModal: PasscodeModalState = { status: "closed", value: "", error: null, serverError: null };

export const canSubmitPasscode = (state: PasscodeModalState) =>
  state.status === "open" && state.value !== "" && state.error === null;

export const canClosePasscode = (state: PasscodeModalState) => state.status !== "validating";

export function passcodeModalReducer(state: PasscodeModalState, action: PasscodeModalAction): PasscodeModalState {
  switch (action.type) {
    case "open":
      return state.status === "closed" ? { ...closedModal, status: "open" } : state;
    case "input": {
      if (state.status !== "open") return state;
      const value = normalizePasscodeInput(action.raw);
      return { status: "open", value, error: validatePasscode(value), serverError: null };
    }
    case "submit":
      return canSubmitPasscode(state) ? { ...state, status: "validating" } : state;
    case "failed":
      return state.status === "validating" ? { ...state, status: "open", serverError: action.message } : state;
    case "succeeded":
      return state.status === "validating" ? closedModal : state;
    case "close":
      return canClosePasscode(state) ? closedModal : state;
  }
}
