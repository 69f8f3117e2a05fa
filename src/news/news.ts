// The news hub's rules, shared by the server and the browser: what kinds of news exist, which
// notification setting each obeys, the settings' shape (GET/PUT /v3/settings/news/ and
// /v3/settings/push/) and the bounds.
import { z } from "zod";

/** What a person is told about (spec 001 §2 "Settings lists for news and push notification options"). */
export const NOTIFICATION_KEYS = ["saves", "follows", "comments", "mentions", "messages", "board_invites", "scheduled_pins"] as const;
export type NotificationKey = (typeof NOTIFICATION_KEYS)[number];
export type NotificationSettings = Record<NotificationKey, boolean>;

/** The two settings lists; both start with everything on. */
export const NOTIFICATION_GROUPS = ["news", "push"] as const;
export type NotificationGroup = (typeof NOTIFICATION_GROUPS)[number];

const DEFAULT_NOTIFICATIONS: NotificationSettings = Object.freeze(Object.fromEntries(NOTIFICATION_KEYS.map((key) => [key, true])) as NotificationSettings);

/** Kinds of news items (news_items.kind) and the setting that decides whether each is recorded. */
export const NEWS_KINDS = {
  save: "saves",
  follow: "follows",
  comment: "comments",
  reply: "comments",
  mention: "mentions",
  board_invite: "board_invites",
  scheduled_pin: "scheduled_pins",
  /** Someone asked to join the person's board: the same list as being invited to one. */
  join_request: "board_invites",
  /** Someone posted that they tried the person's pin: a kind of comment on it. */
  did_it: "comments",
  /** Someone copied the person's pins to a board in bulk: saves, many at once. */
  board_copy: "saves",
} as const satisfies Record<string, NotificationKey>;
export type NewsKind = keyof typeof NEWS_KINDS;

/** One item as the hub shows it (NewsHubDetailsResource). */
export interface NewsItem {
  id: string;
  type: NewsKind;
  created_at: number;
  /** Who did it: null for news no one did, and for someone the recipient may not see (shown as "someone"). */
  actor: { id: string; username: string; full_name: string; image_medium_url: string | null } | null;
  pin: { id: string; title: string; image_url: string | null } | null;
  /** Named only when the recipient may see it (or is invited to it). */
  board: { id: string; name: string; url: string | null } | null;
  comment: { id: string; text: string } | null;
  /** Newer than what the person last saw. */
  unseen: boolean;
}

/** Items kept per person: the newest; older ones are dropped by the batch that adds one. */
export const NEWS_ITEMS_KEPT = 200;
/** Items one hub page answers. */
export const NEWS_PAGE_SIZE = 25;

/** A PUT body: any of the keys, each a boolean; at least one; nothing else. */
const flag = z.preprocess((value) => (value === "true" ? true : value === "false" ? false : value), z.boolean());
export const notificationUpdateSchema = z
  .strictObject(Object.fromEntries(NOTIFICATION_KEYS.map((key) => [key, flag.optional()])) as Record<NotificationKey, z.ZodOptional<typeof flag>>)
  .refine((value) => Object.values(value).some((entry) => entry !== undefined), { message: "settings:notifications.api.empty" });

/** A stored group, each field falling back to its default (an old or damaged row never breaks a read). */
export function readNotificationGroup(stored: unknown): NotificationSettings {
  const group = stored && typeof stored === "object" && !Array.isArray(stored) ? (stored as Record<string, unknown>) : {};
  return Object.fromEntries(NOTIFICATION_KEYS.map((key) => [key, typeof group[key] === "boolean" ? group[key] : DEFAULT_NOTIFICATIONS[key]])) as NotificationSettings;
}

/** One option of a settings list as the API answers it. */
interface NotificationOption {
  key: NotificationKey;
  enabled: boolean;
}

/** The list in its fixed order. */
export const optionsOf = (settings: NotificationSettings): NotificationOption[] => NOTIFICATION_KEYS.map((key) => ({ key, enabled: settings[key] }));

/** The updates page (phones and pages without script; the bell's link). */
export const NEWS_PATH = "/news/";
/** Dropped by the updates page once it marked them seen, so the header's badge follows. */
export const NEWS_SEEN_EVENT = "pinloom:news-seen";
/** Dropped with the unseen count as it stands on the server (detail: a number), when the person's live channel tells it. */
export const NEWS_COUNT_EVENT = "pinloom:news-count";
