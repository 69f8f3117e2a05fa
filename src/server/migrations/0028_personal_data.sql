-- A person's own data: cookie consent, the stored ad identifier, the mail outbox and the pins
-- of deleted accounts. Times are epoch milliseconds.

-- Cookie consent (spec 001 §4): when the person last chose. NULL while they never did: the
-- allow_*_cookies columns (0001) then hold their defaults, and where the law asks for consent
-- nothing optional runs until they choose.
ALTER TABLE users ADD COLUMN cookie_consent_at INTEGER;
-- The stored ad identifier (spec 001 §3 User.epik): the click id an ad's landing URL carried.
-- Cleared in the consent countries unless both analytics and personalization are allowed.
ALTER TABLE users ADD COLUMN epik TEXT CHECK (epik IS NULL OR length(epik) <= 128);

-- Mail waiting to go out. The row is written in the same batch as whatever the mail carries
-- (a verification token), so a mail is never lost between the two; delivery marks it sent and
-- blanks the body (it holds a bearer link). A row not sent stays here, retried and counted.
CREATE TABLE mail_outbox (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('email_verify')),
  to_address TEXT NOT NULL,
  subject TEXT NOT NULL,
  body TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  sent_at INTEGER,
  attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  last_error TEXT
);
CREATE INDEX mail_outbox_pending ON mail_outbox(created_at) WHERE sent_at IS NULL;

-- The pins of deleted accounts. The account's rows go (pins cascade with their pinner), and
-- these ids stay, so their pages answer 410 Gone rather than 404: search engines drop them and
-- links explain themselves. Only the id and the time: nothing of the content is kept.
CREATE TABLE gone_pins (
  pin_id INTEGER PRIMARY KEY,
  gone_at INTEGER NOT NULL
) WITHOUT ROWID;
