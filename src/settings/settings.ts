// The protected settings kept in users.settings (JSON, migration 0004): social permissions,
// mentions and messages (spec 000 §2 "Settings groups", §6). Schema first: every write is
// parsed with the group's schema, and every read falls back to the defaults field by field,
// so an old or damaged row never breaks a page.
import { z } from "zod";
import { PASSWORD_MAX, PASSWORD_MIN } from "~/accounts/account-rules.ts";

export const AUDIENCES = ["anyone", "following", "off"] as const;
const audience = z.enum(AUDIENCES);

export const permissionsSchema = z.strictObject({
  comments: audience,
  show_reactions: z.boolean(),
  allow_saves: z.boolean(),
});
export const mentionsSchema = z.strictObject({ from: audience });
export const messagesSchema = z.strictObject({
  from: audience,
  contact_requests: z.boolean(),
  read_receipts: z.boolean(),
});

export type PermissionsSettings = z.infer<typeof permissionsSchema>;
export type MentionsSettings = z.infer<typeof mentionsSchema>;
export type MessagesSettings = z.infer<typeof messagesSchema>;

export const DEFAULT_SETTINGS = {
  permissions: { comments: "anyone", show_reactions: true, allow_saves: true } satisfies PermissionsSettings,
  mentions: { from: "anyone" } satisfies MentionsSettings,
  messages: { from: "following", contact_requests: true, read_receipts: true } satisfies MessagesSettings,
};

export const SETTINGS_GROUPS = { permissions: permissionsSchema, mentions: mentionsSchema, messages: messagesSchema } as const;
export type SettingsGroup = keyof typeof SETTINGS_GROUPS;

/** Each group, each field: the stored value when it parses, else the default. */
const storedSchema = z.object({
  permissions: z
    .object({
      comments: audience.catch(DEFAULT_SETTINGS.permissions.comments),
      show_reactions: z.boolean().catch(DEFAULT_SETTINGS.permissions.show_reactions),
      allow_saves: z.boolean().catch(DEFAULT_SETTINGS.permissions.allow_saves),
    })
    .catch(DEFAULT_SETTINGS.permissions),
  mentions: z.object({ from: audience.catch(DEFAULT_SETTINGS.mentions.from) }).catch(DEFAULT_SETTINGS.mentions),
  messages: z
    .object({
      from: audience.catch(DEFAULT_SETTINGS.messages.from),
      contact_requests: z.boolean().catch(DEFAULT_SETTINGS.messages.contact_requests),
      read_receipts: z.boolean().catch(DEFAULT_SETTINGS.messages.read_receipts),
    })
    .catch(DEFAULT_SETTINGS.messages),
});
export type UserSettings = z.infer<typeof storedSchema>;

export function parseStoredSettings(text: string | null | undefined): UserSettings {
  let raw: unknown;
  try {
    raw = JSON.parse(text ?? "{}");
  } catch {
    raw = {};
  }
  return storedSchema.parse(raw && typeof raw === "object" && !Array.isArray(raw) ? raw : {});
}

/** The /settings/messages* tracking group: its main page and its sub-pages (spec 000 §2). */
const MESSAGES_SECTIONS = ["", "requests"] as const;
export type MessagesSection = (typeof MESSAGES_SECTIONS)[number];
export const isMessagesSection = (value: string): value is MessagesSection => (MESSAGES_SECTIONS as readonly string[]).includes(value);

/** New account password: the sign-up rule's message for anything beyond basic symbols. */
export function passwordProblem(password: string): { reason: string; values?: Record<string, number> } | null {
  if (password.length < PASSWORD_MIN) return { reason: "settings:settings.password.tooShort", values: { minimum: PASSWORD_MIN } };
  if (password.length > PASSWORD_MAX) return { reason: "settings:settings.password.tooLong", values: { maximum: PASSWORD_MAX } };
  if (!/^[\x20-\x7e]+$/.test(password)) return { reason: "settings:settings.password.rules" };
  return null;
}
