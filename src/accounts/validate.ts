// Field checks the forms run before calling the server, mirroring its rules (the server
// checks again and its answer wins). Each returns the strings-key of the problem, or null.
import { FIRST_NAME_MAX, PASSWORD_MAX, PASSWORD_MIN, PASSWORD_PATTERN, USERNAME_PATTERN } from "./account-rules.ts";

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export type Problem = "required" | "passwordCharacters" | "passwordShort" | "usernameRule" | "emailInvalid" | "firstNameLong";

export function passwordProblem(value: string): Problem | null {
  if (value === "") return "required";
  if (!PASSWORD_PATTERN.test(value)) return "passwordCharacters";
  if (value.length < PASSWORD_MIN || value.length > PASSWORD_MAX) return "passwordShort";
  return null;
}

export function usernameProblem(value: string): Problem | null {
  const trimmed = value.trim();
  if (trimmed === "") return "required";
  return USERNAME_PATTERN.test(trimmed) ? null : "usernameRule";
}

export function emailProblem(value: string): Problem | null {
  const trimmed = value.trim();
  if (trimmed === "") return "required";
  return EMAIL_PATTERN.test(trimmed) && trimmed.length <= 254 ? null : "emailInvalid";
}

export function firstNameProblem(value: string): Problem | null {
  const trimmed = value.trim();
  if (trimmed === "") return "required";
  return trimmed.length > FIRST_NAME_MAX ? "firstNameLong" : null;
}

export const requiredProblem = (value: string): Problem | null => (value.trim() === "" ? "required" : null);
