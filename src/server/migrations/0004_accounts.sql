-- Accounts (issue 4): the two-step sign-in, devices with several accounts, throttles, the
-- parental passcode lockout and the protected settings. Times are epoch milliseconds.

-- A session belongs to one device (the SHA-256 of the device cookie), so the account switcher
-- can list and switch between the accounts signed in on this device and nowhere else.
ALTER TABLE sessions ADD COLUMN device_id TEXT;
-- When the human check (PUT /v3/sessions/verify/) last passed for this session.
ALTER TABLE sessions ADD COLUMN verified_at INTEGER;
CREATE INDEX sessions_device ON sessions(device_id, user_id);

-- One-time tokens: a handshake answers one, the session exchange spends it. Also the MFA
-- challenge between the password step and the code step, the country-domain hand-off and
-- email verification links. id is the SHA-256 of the token; the token itself is never stored.
CREATE TABLE auth_tokens (
  id TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  purpose TEXT NOT NULL CHECK (purpose IN ('login','register','mfa','cctld','email_verify')),
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER
);
CREATE INDEX auth_tokens_expiry ON auth_tokens(expires_at);

-- Fixed-window counters (src/server/rate-limit.server.ts). key names the rule and its subject,
-- e.g. 'login:account:42' or 'login:ip:203.0.113.9'. Counted with one UPSERT ... RETURNING, so
-- parallel requests each see their own count.
CREATE TABLE rate_limits (
  key TEXT PRIMARY KEY,
  window_start INTEGER NOT NULL,
  count INTEGER NOT NULL
);
CREATE INDEX rate_limits_window ON rate_limits(window_start);

-- Parental passcode: wrong tries since the last success; at 5 the account is locked until
-- the passcode is reset with the account password.
ALTER TABLE users ADD COLUMN parental_passcode_failures INTEGER NOT NULL DEFAULT 0 CHECK (parental_passcode_failures >= 0);
ALTER TABLE users ADD COLUMN parental_passcode_locked_at INTEGER;
-- TOTP replay guard: the last 30-second step a code was accepted for.
ALTER TABLE users ADD COLUMN mfa_last_step INTEGER;
-- How the account was registered and where from (signup payload, spec 000 §3).
ALTER TABLE users ADD COLUMN registration_type TEXT CHECK (registration_type IN ('email','partner','facebook','google'));
ALTER TABLE users ADD COLUMN facebook_id TEXT;
ALTER TABLE users ADD COLUMN google_id TEXT;
ALTER TABLE users ADD COLUMN signup_referrer TEXT;
ALTER TABLE users ADD COLUMN signup_utm_campaign TEXT;
ALTER TABLE users ADD COLUMN signup_invite_code TEXT;
ALTER TABLE users ADD COLUMN email_verification_sent_at INTEGER;
-- Protected settings that have no column of their own (permissions, mentions, messages): JSON
-- validated by src/accounts/settings.ts.
ALTER TABLE users ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';
CREATE UNIQUE INDEX users_facebook ON users(facebook_id) WHERE facebook_id IS NOT NULL;
CREATE UNIQUE INDEX users_google ON users(google_id) WHERE google_id IS NOT NULL;

-- Browser fingerprints reported 300 ms after load (POST /v3/spam/fingerprints/).
CREATE TABLE fingerprints (
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  fingerprint TEXT NOT NULL,
  first_seen_at INTEGER NOT NULL,
  last_seen_at INTEGER NOT NULL,
  PRIMARY KEY (user_id, fingerprint)
);
