// One-time tokens (auth_tokens): a handshake answers one, the session exchange spends it.
// Only the token's SHA-256 is stored. Spending is one guarded UPDATE ... RETURNING, and the
// statement after it aborts the caller's batch unless that UPDATE changed exactly one row:
// two exchanges of one token racing each other cannot both start a session, and a session
// row never exists without the spend that justified it (D1 rolls a failed batch back).
import { DomainError } from "~/domain/errors.ts";
import { hashToken, isTokenShaped, newToken } from "./tokens.ts";
import { forgetSessions } from "./session.server.ts";

export type TokenPurpose = "login" | "register" | "mfa" | "cctld" | "email_verify";

const TOKEN_TTL_MS: Record<TokenPurpose, number> = {
  login: 5 * 60_000,
  register: 10 * 60_000,
  mfa: 5 * 60_000,
  cctld: 60_000,
  email_verify: 24 * 60 * 60_000,
};

/** The error the guard raises; SQLite's json() refuses this text, which aborts the batch. */
const NOT_SPENT_MARKER = "token-not-spent";

export const invalidToken = () => new DomainError("unauthorized", { message: "accounts:token.invalid" });

export interface IssuedToken {
  token: string;
  statement: D1PreparedStatement;
}

/** A fresh token for `userId`; the caller runs the statement (alone or in its batch). */
export async function issueToken(db: D1Database, userId: number, purpose: TokenPurpose, now = Date.now()): Promise<IssuedToken> {
  const token = newToken();
  const statement = db
    .prepare("INSERT INTO auth_tokens (id, user_id, purpose, created_at, expires_at) VALUES (?1, ?2, ?3, ?4, ?5)")
    .bind(await hashToken(token), userId, purpose, now, now + TOKEN_TTL_MS[purpose]);
  return { token, statement };
}

/** The user a live, unspent token belongs to, without spending it; null otherwise. */
export async function peekToken(db: D1Database, token: unknown, purpose: TokenPurpose, now = Date.now()): Promise<number | null> {
  if (!isTokenShaped(token)) return null;
  const row = await db
    .prepare("SELECT user_id FROM auth_tokens WHERE id = ?1 AND purpose = ?2 AND used_at IS NULL AND expires_at > ?3")
    .bind(await hashToken(token), purpose, now)
    .first<{ user_id: number }>();
  return row?.user_id ?? null;
}

/**
 * The two statements that spend `token` inside the caller's batch: the guarded UPDATE and a
 * guard that fails the whole batch when the UPDATE did not change exactly one row.
 */
async function spendStatements(db: D1Database, token: string, purpose: TokenPurpose, userId: number, now = Date.now()): Promise<D1PreparedStatement[]> {
  return [
    db
      .prepare(
        "UPDATE auth_tokens SET used_at = ?3 WHERE id = ?1 AND purpose = ?2 AND user_id = ?4 AND used_at IS NULL AND expires_at > ?3 RETURNING user_id",
      )
      .bind(await hashToken(token), purpose, now, userId),
    db.prepare(`SELECT CASE WHEN changes() = 1 THEN 1 ELSE json('${NOT_SPENT_MARKER}') END AS spent`),
  ];
}

/**
 * A handshake answer that never reached the browser (it sends the same request again): the
 * user's live tokens of `purpose` are spent and one new token issued, in one batch, so there
 * is never more than one way in. Null when none was live: the first was used (a session began
 * from it) or has expired.
 */
export async function reissueToken(db: D1Database, userId: number, purpose: TokenPurpose, now = Date.now()): Promise<string | null> {
  const issued = await issueToken(db, userId, purpose, now);
  try {
    await db.batch([
      db.prepare("UPDATE auth_tokens SET used_at = ?3 WHERE user_id = ?1 AND purpose = ?2 AND used_at IS NULL AND expires_at > ?3").bind(userId, purpose, now),
      db.prepare(`SELECT CASE WHEN changes() > 0 THEN 1 ELSE json('${NOT_SPENT_MARKER}') END AS spent`),
      issued.statement,
    ]);
  } catch (error) {
    if (isNotSpentError(error)) return null;
    throw error;
  }
  return issued.token;
}

/** True when a batch failed because its token guard fired (the token was spent or expired). */
function isNotSpentError(error: unknown): boolean {
  const text = error instanceof Error ? `${error.message} ${String(error.cause ?? "")}` : String(error);
  return /malformed JSON/i.test(text);
}

/** Runs `statements` after spending `token`; 401 when the token was not live. */
export async function spendWith(db: D1Database, token: string, purpose: TokenPurpose, userId: number, statements: D1PreparedStatement[], now = Date.now()): Promise<D1Result[]> {
  try {
    return await db.batch([...(await spendStatements(db, token, purpose, userId, now)), ...statements]);
  } catch (error) {
    if (isNotSpentError(error)) throw invalidToken();
    throw error;
  }
}

/**
 * A new e-mail verification link's token, the send time stored with it in one batch, and
 * whatever `withToken` makes of the token in that batch (its mail in the outbox).
 */
export async function issueEmailVerification(
  db: D1Database,
  userId: number,
  now = Date.now(),
  withToken: (token: string) => D1PreparedStatement[] = () => [],
): Promise<string> {
  const issued = await issueToken(db, userId, "email_verify", now);
  await db.batch([issued.statement, db.prepare("UPDATE users SET email_verification_sent_at = ?2 WHERE id = ?1").bind(userId, now), ...withToken(issued.token)]);
  return issued.token;
}

/** Spends an e-mail verification token and marks the address verified, together; throws invalidToken when spent. */
export async function verifyEmail(db: D1Database, token: string, userId: number): Promise<void> {
  await spendWith(db, token, "email_verify", userId, [db.prepare("UPDATE users SET email_verified = 1 WHERE id = ?1").bind(userId)]);
  // A GET (the link in the mail) that changes the viewer: their cached sessions go.
  forgetSessions({ userIds: [userId] });
}

/** A token issued and stored on its own (no other row goes with it); answers the bearer token. */
export async function storeToken(db: D1Database, userId: number, purpose: TokenPurpose, now = Date.now()): Promise<string> {
  const issued = await issueToken(db, userId, purpose, now);
  await issued.statement.run();
  return issued.token;
}
