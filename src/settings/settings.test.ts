import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS, isMessagesSection, mentionsSchema, messagesSchema, parseStoredSettings, passwordProblem, permissionsSchema } from "./settings.ts";

describe("stored settings", () => {
  it.each([
    ["nothing", null],
    ["not JSON", "{nope"],
    ["a list", "[]"],
    ["an empty object", "{}"],
  ])("%s reads as the defaults", (_name, text) => {
    expect(parseStoredSettings(text)).toEqual(DEFAULT_SETTINGS);
  });

  it("keeps what parses and defaults the rest, field by field", () => {
    const stored = parseStoredSettings(JSON.stringify({ mentions: { from: "off" }, messages: { from: "everyone", read_receipts: false } }));
    expect(stored.mentions).toEqual({ from: "off" });
    expect(stored.messages).toEqual({ from: "following", contact_requests: true, read_receipts: false });
    expect(stored.permissions).toEqual(DEFAULT_SETTINGS.permissions);
  });
});

describe("settings writes are strict", () => {
  it.each([
    [permissionsSchema, { comments: "anyone", show_reactions: true, allow_saves: false }, true],
    [permissionsSchema, { comments: "anyone", show_reactions: true }, false],
    [permissionsSchema, { comments: "friends", show_reactions: true, allow_saves: true }, false],
    [mentionsSchema, { from: "following" }, true],
    [mentionsSchema, { from: "following", extra: 1 }, false],
    [messagesSchema, { from: "off", contact_requests: false, read_receipts: true }, true],
    [messagesSchema, { from: "off", contact_requests: "no", read_receipts: true }, false],
  ])("%#: %j parses: %s", (schema, input, ok) => {
    expect(schema.safeParse(input).success).toBe(ok);
  });
});

describe("new password rule", () => {
  it.each([
    ["short", "settings:settings.password.tooShort"],
    ["x".repeat(129), "settings:settings.password.tooLong"],
    ["pässwörd-long", "settings:settings.password.rules"],
    ["tab\there-long", "settings:settings.password.rules"],
    ["Correct horse #1!", null],
  ])("%j → %s", (password, reason) => {
    expect(passwordProblem(password)?.reason ?? null).toBe(reason);
  });
});

it.each([
  ["", true],
  ["requests", true],
  ["nope", false],
])("messages section %j is known: %s", (section, known) => {
  expect(isMessagesSection(section)).toBe(known);
});
