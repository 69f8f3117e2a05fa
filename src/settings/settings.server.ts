// Protected settings writes (spec 000 §2 settings groups, §6). Each is ONE D1 batch; the
// edge functions (functions/passcode.ts) have parsed the body and passed the passcode first.
import type { SettingsGroup } from "./settings.ts";
import { forgetSessions } from "~/accounts/session.server.ts";
import { emailMatchStatements, emailSha256 } from "~/conversions/record.server.ts";

/** The account's password hash (null for accounts signed up through another service). */
export async function passwordHashOf(db: D1Database, userId: number): Promise<string | null> {
  const row = await db.prepare("SELECT password_hash FROM users WHERE id = ?1").bind(userId).first<{ password_hash: string | null }>();
  return row?.password_hash ?? null;
}

/** One settings group replaced; json_set in SQL, so a group changes without a read-modify-write race on the others. */
export async function writeSettingsGroup(db: D1Database, userId: number, group: SettingsGroup, stored: unknown): Promise<void> {
  await db.batch([
    db
      .prepare(
        `UPDATE users SET settings = json_set(
            CASE WHEN json_valid(settings) AND json_type(settings) = 'object' THEN settings ELSE '{}' END,
            '$.${group}', json(?2))
          WHERE id = ?1`,
      )
      .bind(userId, JSON.stringify(stored)),
  ]);
}

export async function writeProfilePrivacy(db: D1Database, userId: number, isPrivate: boolean): Promise<void> {
  await db.batch([db.prepare("UPDATE users SET is_private_profile = ?2 WHERE id = ?1").bind(userId, isPrivate ? 1 : 0)]);
}

/** True when another account has this login e-mail. */
export async function emailTakenByOther(db: D1Database, userId: number, email: string): Promise<boolean> {
  return (await db.prepare("SELECT 1 AS taken FROM users WHERE email = ?1 AND id != ?2").bind(email, userId).first()) !== null;
}

/**
 * A new login e-mail, unverified until its owner proves it. Verification links sent to the
 * old address die with it: otherwise one could verify an address its owner never saw (and
 * Google sign-in links by verified address). Throws the UNIQUE error when another account
 * took the address meanwhile.
 */
export async function writeEmail(db: D1Database, userId: number, email: string, now = Date.now()): Promise<void> {
  await db.batch([
    db.prepare("UPDATE users SET email = ?2, email_verified = 0 WHERE id = ?1").bind(userId, email),
    db.prepare("UPDATE auth_tokens SET used_at = ?2 WHERE user_id = ?1 AND purpose = 'email_verify' AND used_at IS NULL").bind(userId, now),
    // Conversions match a person by the hash of the address they have now, never an old one.
    ...emailMatchStatements(db, userId, await emailSha256(email)),
  ]);
  // The viewer carries the e-mail and whether it is verified.
  forgetSessions({ userIds: [userId] });
}

/** The new password and the end of every other session of this account, together. */
export async function writePassword(db: D1Database, userId: number, keepSessionId: string, hash: string, now = Date.now()): Promise<void> {
  await db.batch([
    db.prepare("UPDATE users SET password_hash = ?2 WHERE id = ?1").bind(userId, hash),
    db.prepare("UPDATE sessions SET revoked_at = ?3 WHERE user_id = ?1 AND id != ?2 AND revoked_at IS NULL").bind(userId, keepSessionId, now),
  ]);
  forgetSessions({ userIds: [userId] });
}
