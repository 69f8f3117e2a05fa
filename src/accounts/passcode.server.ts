// The parental passcode on the server (spec 000 §6: the passcode is required to
// change protected settings). A four-digit code has 10,000 values, so hashing alone cannot
// protect it: the lockout is the defence. Each guess first RESERVES an attempt with one
// UPDATE ... RETURNING, which SQLite applies atomically; only a reserved guess is ever
// compared. Fifty parallel guesses are therefore all counted (none lost to a race), and at most five
// of them are evaluated before the account locks. A success refunds the counter to 0. A
// locked account stays locked until the passcode is reset with the account password.
import { DomainError, badRequest } from "~/domain/errors.ts";
import { signedOut, type Viewer } from "./guards.server.ts";
import { PASSCODE_MAX_FAILURES, stripWhitespace, validatePasscode } from "./passcode.ts";
import { hashPassword, verifyPassword } from "./password.ts";

/** Same PBKDF2 as passwords: a leaked row must cost an attacker real work per guess. */
export const hashPasscode = (passcode: string) => hashPassword(passcode);

export type PasscodeCheck =
  | { status: "ok" }
  | { status: "not_enabled" }
  | { status: "wrong"; remaining: number }
  | { status: "locked" };

interface PasscodeState {
  enabled: number;
  hash: string | null;
  failures: number;
  locked_at: number | null;
}

export async function passcodeState(db: D1Database, userId: number): Promise<PasscodeState | null> {
  return db
    .prepare(
      `SELECT is_parental_control_passcode_enabled AS enabled, parental_passcode_hash AS hash,
              parental_passcode_failures AS failures, parental_passcode_locked_at AS locked_at
         FROM users WHERE id = ?1`,
    )
    .bind(userId)
    .first<PasscodeState>();
}

export const isEnabled = (state: PasscodeState | null): state is PasscodeState & { hash: string } =>
  state !== null && state.enabled === 1 && state.hash !== null;
const isLocked = (state: PasscodeState) => state.locked_at !== null || state.failures >= PASSCODE_MAX_FAILURES;

/** Reserve, verify, refund: see the file comment. `passcode` is compared only when reserved. */
export async function checkPasscode(db: D1Database, userId: number, passcode: string, now = Date.now()): Promise<PasscodeCheck> {
  const reserved = await db
    .prepare(
      `UPDATE users SET parental_passcode_failures = parental_passcode_failures + 1
        WHERE id = ?1 AND is_parental_control_passcode_enabled = 1 AND parental_passcode_hash IS NOT NULL
          AND parental_passcode_locked_at IS NULL AND parental_passcode_failures < ?2
        RETURNING parental_passcode_hash AS hash, parental_passcode_failures AS failures`,
    )
    .bind(userId, PASSCODE_MAX_FAILURES)
    .first<{ hash: string; failures: number }>();
  if (!reserved) {
    // Nothing reserved: either there is no passcode, or the tries are spent (locked, or the
    // fifth failure's lock write has not landed yet: locked all the same).
    return isEnabled(await passcodeState(db, userId)) ? { status: "locked" } : { status: "not_enabled" };
  }
  if (await verifyPassword(passcode, reserved.hash)) {
    await db
      .prepare("UPDATE users SET parental_passcode_failures = 0 WHERE id = ?1 AND parental_passcode_locked_at IS NULL")
      .bind(userId)
      .run();
    return { status: "ok" };
  }
  const remaining = Math.max(0, PASSCODE_MAX_FAILURES - reserved.failures);
  if (remaining === 0) {
    await db
      .prepare("UPDATE users SET parental_passcode_locked_at = ?2 WHERE id = ?1 AND parental_passcode_locked_at IS NULL")
      .bind(userId, now)
      .run();
  }
  return { status: "wrong", remaining };
}

export const passcodeRequired = () =>
  new DomainError("passcode_required", { message: "settings:passcode.api.required", extraData: { field: "passcode" } });
const passcodeLocked = () =>
  new DomainError("passcode_locked", {
    message: "settings:passcode.api.locked",
    extraData: { field: "passcode", remaining_tries: 0, locked: true },
  });
const passcodeIncorrect = (remaining: number) =>
  new DomainError("passcode_incorrect", {
    // The try that spends the last attempt says what happens next: the lock.
    message: remaining === 0 ? "settings:passcode.api.locked" : "settings:passcode.api.incorrect",
    values: { count: remaining },
    extraData: { field: "passcode", remaining_tries: remaining, locked: remaining === 0 },
  });

/** Throws the refusal a failed check means; returns when the passcode is right. */
export function assertPasscodeCheck(result: PasscodeCheck): void {
  if (result.status === "locked") throw passcodeLocked();
  if (result.status === "wrong") throw passcodeIncorrect(result.remaining);
}

/**
 * The guard every protected change runs before it writes (spec 000 §6): no passcode on the
 * account → pass; locked → 403 code 15; missing → 403 code 14; malformed → 400 on the field
 * (a typo is not a guess and costs no try); wrong → 403 code 16 with the tries left.
 * `field` names the body field the passcode came in, for the 400.
 */
export async function requirePasscode(db: D1Database, viewer: Pick<Viewer, "session">, passcode: unknown, field = "passcode"): Promise<void> {
  const session = viewer.session;
  if (!session) throw signedOut();
  const state = await passcodeState(db, session.user.id);
  if (!isEnabled(state)) return;
  if (isLocked(state)) throw passcodeLocked();
  const value = typeof passcode === "string" ? stripWhitespace(passcode) : "";
  if (value === "") throw passcodeRequired();
  const problem = validatePasscode(value);
  if (problem) throw badRequest([{ field, reason: `settings:${problem}` }]);
  const result = await checkPasscode(db, session.user.id, value);
  if (result.status === "not_enabled") return;
  assertPasscodeCheck(result);
}

/** Turns the passcode on (or replaces it) with its backup e-mail; tries and lock start afresh. */
export async function enablePasscode(db: D1Database, userId: number, hash: string, backupEmail: string, anonymizedEmail: string): Promise<void> {
  await db.batch([
    db
      .prepare(
        `UPDATE users SET is_parental_control_passcode_enabled = 1, parental_passcode_hash = ?2,
              parental_passcode_backup_email = ?3, parental_control_anonymized_email = ?4,
              parental_passcode_failures = 0, parental_passcode_locked_at = NULL
        WHERE id = ?1`,
      )
      .bind(userId, hash, backupEmail, anonymizedEmail),
  ]);
}

export async function disablePasscode(db: D1Database, userId: number): Promise<void> {
  await db.batch([
    db
      .prepare(
        `UPDATE users SET is_parental_control_passcode_enabled = 0, parental_passcode_hash = NULL,
              parental_passcode_backup_email = NULL, parental_control_anonymized_email = NULL,
              parental_passcode_failures = 0, parental_passcode_locked_at = NULL
        WHERE id = ?1`,
      )
      .bind(userId),
  ]);
}

/** A new passcode set with the account password: the lock lifted, the backup e-mail kept. */
export async function resetPasscode(db: D1Database, userId: number, hash: string): Promise<void> {
  await db.batch([
    db
      .prepare(
        `UPDATE users SET parental_passcode_hash = ?2, parental_passcode_failures = 0, parental_passcode_locked_at = NULL
        WHERE id = ?1 AND is_parental_control_passcode_enabled = 1`,
      )
      .bind(userId, hash),
  ]);
}
