import { describe, expect, it } from "vitest";
import { emailProblem, firstNameProblem, passwordProblem, usernameProblem } from "./validate.ts";

describe("password", () => {
  it.each([
    ["", "required"],
    ["PinloomDemo#2026", null],
    ["mot de passe été", null],
    ["كلمةمرور123", null],
    ["short1!", "passwordShort"],
    ["emoji🙂password", "passwordCharacters"],
    ["tab\tpassword", "passwordCharacters"],
    ["curly“quotes”pw", "passwordCharacters"],
  ])("%j → %s", (value, problem) => {
    expect(passwordProblem(value)).toBe(problem);
  });
});

describe("other fields", () => {
  it.each([
    [usernameProblem, "ok_name1", null],
    [usernameProblem, "ab", "usernameRule"],
    [usernameProblem, "123", "usernameRule"],
    [usernameProblem, "has space", "usernameRule"],
    [emailProblem, " a@b.example ", null],
    [emailProblem, "a@b", "emailInvalid"],
    [emailProblem, "", "required"],
    [firstNameProblem, "x".repeat(31), "firstNameLong"],
    [firstNameProblem, " ", "required"],
  ] as const)("%o(%j) → %s", (check, value, problem) => {
    expect(check(value)).toBe(problem);
  });
});
