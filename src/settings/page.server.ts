// What every settings page needs first: a signed-in, full-login viewer and the current
// settings row (src/settings/settings-page.ts sends anyone else to the login page).
import type { Session } from "~/accounts/session.server.ts";
import { PASSCODE_MAX_FAILURES } from "~/accounts/passcode.ts";
import { parseStoredSettings, type UserSettings } from "./settings.ts";

export interface SettingsViewer {
  session: Session;
  email: string;
  hasPassword: boolean;
  isPrivateProfile: boolean;
  settings: UserSettings;
  passcode: { enabled: boolean; locked: boolean; anonymizedEmail: string | null };
}

interface SettingsRow {
  email: string;
  is_private_profile: number;
  settings: string;
  is_parental_control_passcode_enabled: number;
  parental_control_anonymized_email: string | null;
  parental_passcode_failures: number;
  parental_passcode_locked_at: number | null;
}

/** The settings of a full login, or null for anyone else (signed out, limited login, no such row). */
export async function loadSettingsViewer(db: D1Database, session: Session | null): Promise<SettingsViewer | null> {
  if (!session || session.user.login_state === "limited") return null;
  const row = await db.prepare(
    `SELECT email, is_private_profile, settings, is_parental_control_passcode_enabled, parental_control_anonymized_email,
            parental_passcode_failures, parental_passcode_locked_at
       FROM users WHERE id = ?1`,
  )
    .bind(session.user.id)
    .first<SettingsRow>();
  if (!row) return null;
  const enabled = row.is_parental_control_passcode_enabled === 1;
  return {
    session,
    email: row.email,
    /** Accounts with a password confirm it to change their login e-mail. */
    hasPassword: session.user.has_password === 1,
    isPrivateProfile: row.is_private_profile === 1,
    settings: parseStoredSettings(row.settings),
    passcode: {
      enabled,
      locked: enabled && (row.parental_passcode_locked_at !== null || row.parental_passcode_failures >= PASSCODE_MAX_FAILURES),
      anonymizedEmail: row.parental_control_anonymized_email,
    },
  };
}
