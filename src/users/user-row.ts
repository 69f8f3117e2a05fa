// One row of the `users` table as created by src/server/migrations/0001_core.sql, as D1
// returns it: booleans are 0/1, JSON columns are text, times are epoch milliseconds. Shared by
// the server reads (the viewer, src/accounts/viewer.ts) and the seed, so the two cannot
// disagree about a column. Later migrations' account columns are read where they are used.

export interface UserTableRow {
  id: number;
  username: string;
  email: string;
  password_hash: string | null;
  full_name: string;
  first_name: string;
  last_name: string;
  about: string;
  country: string;
  locale: string;
  gender: string | null;
  custom_gender: string | null;
  birthday: string | null;
  age_in_years: number | null;
  image_key: string | null;
  account_type: "personal" | "business";
  business_name: string | null;
  is_partner: number;
  is_verified_merchant: number;
  verified_identity: number;
  is_ads_only_profile: number;
  domain_url: string | null;
  domain_verified: number;
  is_employee: number;
  is_under_16: number;
  is_under_18: number;
  is_write_banned: number;
  is_private_profile: number;
  login_state: "full" | "limited";
  email_verified: number;
  has_mfa_enabled: number;
  mfa_secret: string | null;
  is_parental_control_passcode_enabled: number;
  parental_passcode_hash: string | null;
  parental_control_anonymized_email: string | null;
  allow_personalization_cookies: number;
  allow_analytic_cookies: number;
  allow_marketing_cookies: number;
  third_party_marketing_tracking_enabled: number;
  should_show_messaging: number;
  show_personal_boutique: number;
  save_behavior: number;
  phone_country: string | null;
  phone_number: string | null;
  connected_networks: string;
  follower_count: number;
  following_count: number;
  pin_count: number;
  board_count: number;
  secret_board_count: number;
  scheduled_pin_count: number;
  group_board_count: number;
  resurrection_date: number | null;
  created_at: number;
  /** Where onboarding stands (src/onboarding/onboarding.ts): a new account starts at 'welcome'. */
  onboarding_step: string;
  /** 1 until the first home feed after onboarding has been served. */
  first_home_feed_after_nux: number;
}
