// The viewer (spec 000 §3 "Viewer"): the signed-in user as the server reads it, and the
// limited-login viewer. Built from a users row; never from anything the client sent.
import { z } from "zod";
import type { UserTableRow } from "~/users/user-row.ts";
import { userImageUrl } from "~/users/user.ts";

export type ViewerType = "AUTH" | "UNAUTH" | "LIMITED_LOGIN";

/**
 * Column list for SELECTs that build a viewer, prefixed with the users alias. The password hash
 * is not among them: a viewer needs only whether there is one (`has_password`, computed in the
 * SELECT), so the hash stays out of every signed-in request's memory.
 */
export const VIEWER_COLUMNS = [
  "id", "username", "email", "full_name", "first_name", "last_name", "country", "locale",
  "gender", "custom_gender", "age_in_years", "image_key", "account_type", "business_name", "is_employee",
  "is_partner", "is_private_profile", "is_under_16", "is_under_18", "is_write_banned", "login_state",
  "email_verified", "has_mfa_enabled", "is_parental_control_passcode_enabled", "parental_control_anonymized_email",
  "allow_personalization_cookies", "allow_analytic_cookies", "allow_marketing_cookies",
  "third_party_marketing_tracking_enabled", "should_show_messaging", "show_personal_boutique", "save_behavior",
  "phone_country", "phone_number", "connected_networks", "domain_url", "domain_verified", "pin_count",
  "board_count", "secret_board_count", "group_board_count", "scheduled_pin_count", "resurrection_date", "created_at",
  "onboarding_step", "first_home_feed_after_nux",
] as const satisfies ReadonlyArray<keyof UserTableRow>;

/**
 * The users columns the viewer is built from, whether the account has a password (0 or 1), and
 * when it chose its cookie consent (a later column: every signed-in request obeys the choice).
 */
export type ViewerUserRow = Pick<UserTableRow, (typeof VIEWER_COLUMNS)[number]> & { has_password: number; cookie_consent_at: number | null };

export const viewerColumns = (alias: string) =>
  `${VIEWER_COLUMNS.map((column) => `${alias}.${column}`).join(", ")}, (${alias}.password_hash IS NOT NULL) AS has_password, ${alias}.cookie_consent_at`;

const networkSchema = z.object({ username: z.string().optional(), url: z.string().optional() }).passthrough();
const networksSchema = z
  .object({
    facebook: networkSchema.optional(),
    google: networkSchema.optional(),
    youtube: networkSchema.optional(),
    microsoft: networkSchema.optional(),
    etsy: networkSchema.optional(),
    instagram: networkSchema.optional(),
    dropbox: networkSchema.optional(),
    twitter: networkSchema.optional(),
    gplus: networkSchema.optional(),
  })
  .catch({});


/** Spec 000 §3 viewer, snake_case as the spec writes it. */
function parseNetworks(text: string): z.infer<typeof networksSchema> {
  try {
    return networksSchema.parse(JSON.parse(text));
  } catch {
    return {};
  }
}

export function toViewer(row: ViewerUserRow) {
  const networks = parseNetworks(row.connected_networks);
  const phone = row.phone_number ?? "";
  return {
    id: String(row.id),
    username: row.username,
    full_name: row.full_name,
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    image_small_url: userImageUrl(row.image_key, "small"),
    image_medium_url: userImageUrl(row.image_key, "medium"),
    image_large_url: userImageUrl(row.image_key, "large"),
    image_xlarge_url: userImageUrl(row.image_key, "xlarge"),
    country: row.country,
    gender: row.gender,
    custom_gender: row.custom_gender,
    created_at: new Date(row.created_at).toISOString(),
    board_count: row.board_count,
    group_board_count: row.group_board_count,
    secret_board_count: row.secret_board_count,
    pin_count: row.pin_count,
    scheduled_pin_count: row.scheduled_pin_count,
    has_password: row.has_password === 1,
    has_published_pins: row.pin_count > 0,
    is_employee: row.is_employee === 1,
    is_partner: row.is_partner === 1 || row.account_type === "business",
    is_private_profile: row.is_private_profile === 1,
    is_under_16: row.is_under_16 === 1,
    is_under_18: row.is_under_18 === 1,
    is_write_banned: row.is_write_banned === 1,
    login_state: row.login_state === "limited" ? 1 : 0,
    nags: row.email_verified === 1 ? [] : ["verify_email"],
    phone_country: row.phone_country,
    phone_number: row.phone_number,
    phone_number_end: phone ? phone.replace(/\D/g, "").slice(-2) : null,
    has_mfa_enabled: row.has_mfa_enabled === 1,
    can_enable_mfa: row.has_password === 1 && row.has_mfa_enabled === 0,
    is_parental_control_passcode_enabled: row.is_parental_control_passcode_enabled === 1,
    is_candidate_for_parental_control_passcode: row.is_under_18 === 1,
    parental_control_anonymized_email: row.parental_control_anonymized_email,
    allow_personalization_cookies: row.allow_personalization_cookies === 1,
    allow_analytic_cookies: row.allow_analytic_cookies === 1,
    allow_marketing_cookies: row.allow_marketing_cookies === 1,
    third_party_marketing_tracking_enabled: row.third_party_marketing_tracking_enabled === 1,
    should_show_messaging: row.should_show_messaging === 1,
    show_personal_boutique: row.show_personal_boutique === 1,
    save_behavior: row.save_behavior,
    age_in_years: row.age_in_years,
    verified_websites: row.domain_url && row.domain_verified === 1 ? [row.domain_url] : [],
    domain_url: row.domain_url,
    domain_verified: row.domain_verified === 1,
    facebook_url: networks.facebook?.url ?? null,
    google_url: networks.google?.url ?? null,
    youtube_url: networks.youtube?.url ?? null,
    microsoft_url: networks.microsoft?.url ?? null,
    etsy_url: networks.etsy?.url ?? null,
    instagram_data: networks.instagram ? { username: networks.instagram.username ?? null, url: networks.instagram.url ?? null } : null,
    dropbox_url: networks.dropbox?.url ?? null,
    twitter_url: networks.twitter?.url ?? null,
    gplus_url: networks.gplus?.url ?? null,
    resurrection_date: row.resurrection_date === null ? null : new Date(row.resurrection_date).toISOString(),
  };
}

/** Spec 000 §3 limited-login viewer. */
export function toLimitedViewer(row: ViewerUserRow) {
  const networks = parseNetworks(row.connected_networks);
  return {
    email: row.email,
    firstName: row.first_name || row.full_name,
    hasPassword: row.has_password === 1,
    imageUrl: userImageUrl(row.image_key, "medium"),
    isConnectedToFacebook: networks.facebook !== undefined,
    isConnectedToGoogle: networks.google !== undefined,
  };
}

export function viewerTypeOf(row: Pick<ViewerUserRow, "login_state">): Exclude<ViewerType, "UNAUTH"> {
  return row.login_state === "limited" ? "LIMITED_LOGIN" : "AUTH";
}

/**
 * What the header's account corner shows of a signed-in or limited-login viewer: the same
 * values toViewer and toLimitedViewer give, without building (and parsing) the whole viewer.
 */
export function accountCornerOf(row: ViewerUserRow) {
  const imageUrl = userImageUrl(row.image_key, "medium");
  return viewerTypeOf(row) === "LIMITED_LOGIN"
    ? { id: null, name: row.first_name || row.full_name, username: null, imageUrl }
    : { id: String(row.id), name: row.full_name || row.username, username: row.username, imageUrl };
}
