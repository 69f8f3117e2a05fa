-- The conversions API's access tokens and call history, and the uploads of offline conversions
-- and customer lists (spec 002 "Conversion and tag screens"). Times are epoch milliseconds.

-- A token an advertiser's server presents (Authorization: Bearer) to send events for ONE ad
-- account. Only its SHA-256 is kept: the token is shown once, in full, when made; afterwards its
-- first characters (prefix) name it. A revoked token stays listed, and is refused.
CREATE TABLE conversion_api_tokens (
  id INTEGER PRIMARY KEY,
  ad_account_id INTEGER NOT NULL REFERENCES ad_accounts(id) ON DELETE CASCADE,
  business_id INTEGER NOT NULL REFERENCES businesses(id),
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  token_sha256 TEXT NOT NULL UNIQUE CHECK (length(token_sha256) = 64),
  prefix TEXT NOT NULL,
  created_by INTEGER NOT NULL REFERENCES users(id),
  created_at INTEGER NOT NULL,
  revoked_by INTEGER REFERENCES users(id),
  revoked_at INTEGER,
  last_used_at INTEGER
);
CREATE INDEX conversion_api_tokens_account ON conversion_api_tokens(ad_account_id, created_at);

-- One authenticated call of the events endpoint and what became of its events.
CREATE TABLE conversion_api_calls (
  id INTEGER PRIMARY KEY,
  ad_account_id INTEGER NOT NULL REFERENCES ad_accounts(id) ON DELETE CASCADE,
  token_id INTEGER REFERENCES conversion_api_tokens(id) ON DELETE SET NULL,
  received_at INTEGER NOT NULL,
  is_test INTEGER NOT NULL CHECK (is_test IN (0, 1)),
  event_count INTEGER NOT NULL,
  processed_count INTEGER NOT NULL,
  duplicate_count INTEGER NOT NULL,
  failed_count INTEGER NOT NULL
);
CREATE INDEX conversion_api_calls_account ON conversion_api_calls(ad_account_id, received_at);

-- An uploaded file: OFFLINE conversions (stored as conversion_events, source UPLOAD) or a PCA
-- customer list (its hashed addresses matched into a CUSTOMER_LIST audience; never kept). A file
-- with any bad row applies nothing and is kept FAILED with its row errors.
CREATE TABLE conversion_uploads (
  id INTEGER PRIMARY KEY,
  ad_account_id INTEGER NOT NULL REFERENCES ad_accounts(id) ON DELETE CASCADE,
  business_id INTEGER NOT NULL REFERENCES businesses(id),
  kind TEXT NOT NULL CHECK (kind IN ('OFFLINE','PCA')),
  audience_id INTEGER REFERENCES audiences(id) ON DELETE SET NULL,
  uploaded_by INTEGER NOT NULL REFERENCES users(id),
  file_name TEXT NOT NULL,
  row_count INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('APPLIED','FAILED')),
  error_count INTEGER NOT NULL DEFAULT 0,
  -- OFFLINE: events stored new, and rows already stored under the same event id.
  -- PCA: addresses that matched a person, and rows that matched nobody.
  stored_count INTEGER NOT NULL DEFAULT 0,
  skipped_count INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
);
CREATE INDEX conversion_uploads_account ON conversion_uploads(ad_account_id, kind, created_at);

CREATE TABLE conversion_upload_errors (
  upload_id INTEGER NOT NULL REFERENCES conversion_uploads(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  row_number INTEGER NOT NULL,
  column_name TEXT NOT NULL,
  code TEXT NOT NULL,
  PRIMARY KEY (upload_id, seq)
) WITHOUT ROWID;
