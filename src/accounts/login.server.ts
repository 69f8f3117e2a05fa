// The login handshake (spec 000 §7): password, then the second factor when the account has
// one. Unknown account and wrong password are one answer (same status, code and message), and
// the password hash runs either way, against a fixed dummy hash, so timing does not tell
// them apart. Throttled per account and per client address before any hash work.
import { DomainError } from "~/domain/errors.ts";
import { clientIp } from "~/server/client-ip.ts";
import { enforce, RATE_RULES, resetStatement } from "~/server/rate-limit.server.ts";
import { issueToken, peekToken, spendWith, invalidToken } from "./handshake.server.ts";
import { verifyPassword } from "./password.ts";
import { verifyTotp } from "./totp.ts";

/**
 * hashPassword("pinloom-dummy-password-never-matches", 16 × 0x2a): a well-formed hash of the
 * same cost as every real one, verified when there is no real one to verify.
 */
const DUMMY_PASSWORD_HASH = "pbkdf2-sha256$6x100000$KioqKioqKioqKioqKioqKg==$ZDsjLMhYKW0UAPAzJPsBQrFlYSQCUbPhdrfW1hvC6mE=";

interface LoginAccount {
  id: number;
  username: string;
  email: string;
  password_hash: string | null;
  has_mfa_enabled: number;
  mfa_secret: string | null;
  mfa_last_step: number | null;
}

const ACCOUNT_COLUMNS = "id, username, email, password_hash, has_mfa_enabled, mfa_secret, mfa_last_step";

const loginFailed = () => new DomainError("unauthorized", { message: "accounts:login.failed" });
const mfaFailed = () => new DomainError("unauthorized", { message: "accounts:login.mfaFailed" });

/** The account a username or e-mail names (both case-insensitive), or null. */
async function findAccount(db: D1Database, identifier: string): Promise<LoginAccount | null> {
  return db
    .prepare(`SELECT ${ACCOUNT_COLUMNS} FROM users WHERE ${identifier.includes("@") ? "email" : "username"} = ?1 COLLATE NOCASE`)
    .bind(identifier)
    .first<LoginAccount>();
}

/** The throttle subject of an identifier: the account id when it exists, else the name itself. */
const accountSubject = (account: LoginAccount | null, identifier: string) => (account ? String(account.id) : `name:${identifier.toLowerCase()}`);

/**
 * A full login forgives the account's earlier misses, from everywhere and from this address:
 * statements for the batch that issues the login token.
 */
function forgiveLogins(db: D1Database, accountId: number, ip: string): D1PreparedStatement[] {
  return [resetStatement(db, RATE_RULES.loginPerAccount, String(accountId)), resetStatement(db, RATE_RULES.loginPerAccountAndIp, `${accountId}:${ip}`)];
}

export type LoginOutcome = { kind: "token"; token: string } | { kind: "mfa"; challenge: string };

/** Password step. Answers a login token, or an MFA challenge when the account has MFA on. */
export async function passwordLogin(db: D1Database, request: Request, identifier: string, password: string, now = Date.now()): Promise<LoginOutcome> {
  const ip = clientIp(request);
  await enforce(db, RATE_RULES.loginPerIp, ip, now);
  const account = await findAccount(db, identifier);
  const subject = accountSubject(account, identifier);
  await enforce(db, RATE_RULES.loginPerAccountAndIp, `${subject}:${ip}`, now);
  await enforce(db, RATE_RULES.loginPerAccount, subject, now);
  // Always one full hash, right or wrong, known or not.
  const matches = await verifyPassword(password, account?.password_hash ?? DUMMY_PASSWORD_HASH);
  if (!account || account.password_hash === null || !matches) throw loginFailed();

  if (account.has_mfa_enabled === 1) {
    const challenge = await issueToken(db, account.id, "mfa", now);
    await challenge.statement.run();
    return { kind: "mfa", challenge: challenge.token };
  }
  const issued = await issueToken(db, account.id, "login", now);
  await db.batch([issued.statement, ...forgiveLogins(db, account.id, ip)]);
  return { kind: "token", token: issued.token };
}

/**
 * Second step: the challenge from the password step, the same username or e-mail, and a TOTP
 * code. The code's step is claimed with one conditional UPDATE (mfa_last_step only moves
 * forward), so a code works once even when sent twice at the same moment; then the challenge
 * is spent and the login token issued in one batch.
 */
export async function mfaLogin(db: D1Database, request: Request, identifier: string, code: string, challenge: string, now = Date.now()): Promise<string> {
  const userId = await peekToken(db, challenge, "mfa", now);
  if (userId === null) throw invalidToken();
  const account = await db.prepare(`SELECT ${ACCOUNT_COLUMNS} FROM users WHERE id = ?1`).bind(userId).first<LoginAccount>();
  const lower = identifier.toLowerCase();
  if (!account || (account.username.toLowerCase() !== lower && account.email.toLowerCase() !== lower)) throw invalidToken();
  await enforce(db, RATE_RULES.mfaPerAccount, account.id, now);
  if (account.has_mfa_enabled !== 1 || !account.mfa_secret) throw mfaFailed();

  const step = await verifyTotp(account.mfa_secret, code, now, account.mfa_last_step);
  if (step === null) throw mfaFailed();
  const claimed = await db
    .prepare("UPDATE users SET mfa_last_step = ?2 WHERE id = ?1 AND (mfa_last_step IS NULL OR mfa_last_step < ?2) RETURNING id")
    .bind(account.id, step)
    .first<{ id: number }>();
  if (!claimed) throw mfaFailed();

  const issued = await issueToken(db, account.id, "login", now);
  await spendWith(
    db,
    challenge,
    "mfa",
    account.id,
    [issued.statement, ...forgiveLogins(db, account.id, clientIp(request)), resetStatement(db, RATE_RULES.mfaPerAccount, account.id)],
    now,
  );
  return issued.token;
}

/**
 * Login for an account an outside provider vouched for (Facebook, Google): a login token, or
 * the MFA challenge when the account has a second factor (a provider does not replace it).
 */
export async function providerLogin(db: D1Database, request: Request, userId: number | null, now = Date.now()): Promise<LoginOutcome> {
  await enforce(db, RATE_RULES.loginPerIp, clientIp(request), now);
  if (userId === null) throw loginFailed();
  const account = await db.prepare("SELECT has_mfa_enabled FROM users WHERE id = ?1").bind(userId).first<{ has_mfa_enabled: number }>();
  if (!account) throw loginFailed();
  const issued = await issueToken(db, userId, account.has_mfa_enabled === 1 ? "mfa" : "login", now);
  await issued.statement.run();
  return account.has_mfa_enabled === 1 ? { kind: "mfa", challenge: issued.token } : { kind: "token", token: issued.token };
}

/** The account a Facebook id signed up with, if any. */
export async function userIdByFacebook(db: D1Database, facebookId: string): Promise<number | null> {
  const row = await db.prepare("SELECT id FROM users WHERE facebook_id = ?1").bind(facebookId).first<{ id: number }>();
  return row?.id ?? null;
}

/**
 * The account a Google identity signs in to: the one linked to it, else (first Google sign-in)
 * the account with its e-mail, linked now, only when both sides verified that e-mail;
 * otherwise whoever registered an address first could share an account with its real owner.
 */
export async function userIdByGoogle(db: D1Database, identity: { sub: string; email: string | null; emailVerified: boolean }): Promise<number | null> {
  let row = await db.prepare("SELECT id FROM users WHERE google_id = ?1").bind(identity.sub).first<{ id: number }>();
  if (!row && identity.email && identity.emailVerified) {
    row = await db
      .prepare("UPDATE users SET google_id = ?1 WHERE email = ?2 COLLATE NOCASE AND email_verified = 1 AND google_id IS NULL RETURNING id")
      .bind(identity.sub, identity.email)
      .first<{ id: number }>();
  }
  return row?.id ?? null;
}
