// Invites (spec 000 §2, §3 "Invite metadata", §6, §7, §8): the code's shape, the channels a
// link can be shared through, the metadata a lookup answers, and who sees the toast or the
// inviter popover. Pure and free of zod (the landing-page module ships it to browsers); the
// server's schemas are in invites.server.ts.

/**
 * The channels a sender shares through (invite_channel). The spec names only 5, 9, 12 and 16,
 * as the channels whose landing shows no inviter popover: those are the ones whose link can
 * reach people who do not know the sender (a public post, a copied link, the system share
 * sheet), so introducing the sender there would read as a stranger's greeting.
 */
export const INVITE_CHANNELS = {
  email: 1,
  sms: 2,
  message: 3,
  whatsapp: 4,
  facebook: 5,
  messenger: 6,
  line: 7,
  telegram: 8,
  twitter: 9,
  reddit: 10,
  linkedin: 11,
  copyLink: 12,
  kakaotalk: 13,
  viber: 14,
  wechat: 15,
  shareSheet: 16,
} as const;
export type InviteChannel = (typeof INVITE_CHANNELS)[keyof typeof INVITE_CHANNELS];
export const INVITE_CHANNEL_IDS: readonly InviteChannel[] = Object.values(INVITE_CHANNELS);

/** Spec 000 §6: a signed-out desktop visitor gets no inviter popover from these. */
export const NO_POPOVER_CHANNELS: ReadonlySet<number> = new Set([5, 9, 12, 16]);

export const isInviteChannel = (value: unknown): value is InviteChannel =>
  typeof value === "number" && (INVITE_CHANNEL_IDS as readonly number[]).includes(value);

/** Codes we mint: 16 random bytes in base64url, 22 characters. */
export const INVITE_CODE_PATTERN = /^[A-Za-z0-9_-]{22}$/;
/** The request context bounds ?invite_code= at 64; anything but our shape is never looked up. */
export const INVITE_CODE_MAX = 64;

export const isInviteCode = (value: unknown): value is string => typeof value === "string" && INVITE_CODE_PATTERN.test(value);

/** How long a minted invite works. */
export const INVITE_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

/** Spec 000 §3 "Invite metadata", exactly: nothing else about the sender leaves the server. */
export interface InviteMetadata {
  sender: {
    id: string;
    should_show_messaging: boolean;
    image_medium_url: string | null;
    first_name: string;
    full_name: string;
  };
  invite_channel: number;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;

/** Reads a lookup answer's data; anything not of the spec's shape is no invite at all. */
export function parseInviteMetadata(value: unknown): InviteMetadata | null {
  if (!isRecord(value) || !isRecord(value.sender) || typeof value.invite_channel !== "number") return null;
  const { id, should_show_messaging, image_medium_url, first_name, full_name } = value.sender;
  if (typeof id !== "string" || typeof should_show_messaging !== "boolean" || typeof first_name !== "string" || typeof full_name !== "string") return null;
  if (image_medium_url !== null && (typeof image_medium_url !== "string" || !/^\/[^/\\]/.test(image_medium_url))) return null;
  return { sender: { id, should_show_messaging, image_medium_url, first_name, full_name }, invite_channel: value.invite_channel };
}

export type ViewerType = "AUTH" | "UNAUTH" | "LIMITED_LOGIN";
export type InviteDisplay = "toast" | "popover" | null;

export interface InviteDisplayInput {
  viewerType: ViewerType;
  isDesktop: boolean;
  /** The signed-in viewer's id; null when signed out. */
  viewerId: string | null;
  viewerShowsMessaging: boolean;
  invite: InviteMetadata | null;
}

/**
 * Spec 000 §6: the messaging toast shows only when the viewer is signed in, is not the inviter,
 * and both have should_show_messaging. Signed-out desktop viewers get the inviter popover unless
 * the channel is 5, 9, 12 or 16. Everyone else (phones and tablets signed out, limited login,
 * bots never reach here) sees nothing.
 */
export function inviteDisplay({ viewerType, isDesktop, viewerId, viewerShowsMessaging, invite }: InviteDisplayInput): InviteDisplay {
  if (!invite) return null;
  if (viewerType === "AUTH") {
    const differs = viewerId !== null && viewerId !== invite.sender.id;
    return differs && viewerShowsMessaging && invite.sender.should_show_messaging ? "toast" : null;
  }
  if (viewerType === "UNAUTH" && isDesktop && !NO_POPOVER_CHANNELS.has(invite.invite_channel)) return "popover";
  return null;
}

/** The pin's link carrying an invite code (the copy-link action shares this). */
export function withInviteCode(url: string, code: string): string {
  const link = new URL(url);
  link.searchParams.set("invite_code", code);
  return link.href;
}

/** The invite code of a landing URL's query, when it has our shape. */
export function inviteCodeFromSearch(search: string): string | null {
  const value = new URLSearchParams(search).get("invite_code");
  return value !== null && value.length <= INVITE_CODE_MAX && isInviteCode(value) ? value : null;
}

/**
 * Desktop as the app shell places toasts (src/shell/shell.ts deviceOf): the user agent's phone
 * or tablet class wins; otherwise a window 1024 px or wider. A shared (edge-cached) render
 * embeds no user agent, so the width alone decides there.
 */
export function isDesktopViewer(width: number, ua: { isMobile?: boolean; isTablet?: boolean } | undefined): boolean {
  if (ua?.isMobile || ua?.isTablet) return false;
  return width >= 1024;
}
