-- Bulk editing (spec 002 §2 "Bulk editing"): every CSV file uploaded to an ad account, applied
-- whole or refused whole, and the row errors of a refused one. The objects a file creates or
-- changes live in 0033's tables; their history rows in business_history. Times are epoch ms.

CREATE TABLE bulk_uploads (
  id INTEGER PRIMARY KEY,
  ad_account_id INTEGER NOT NULL REFERENCES ad_accounts(id) ON DELETE CASCADE,
  business_id INTEGER NOT NULL REFERENCES businesses(id),
  uploaded_by INTEGER NOT NULL REFERENCES users(id),
  file_name TEXT NOT NULL,
  -- SHA-256 of the file's bytes, hex: the same file applied again is recognised and not re-applied.
  content_hash TEXT NOT NULL,
  -- Data rows in the file (the header and # example rows not counted).
  row_count INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('APPLIED','FAILED')),
  -- Every error found; only the first 1,000 are kept in bulk_upload_errors.
  error_count INTEGER NOT NULL DEFAULT 0,
  created_count INTEGER NOT NULL DEFAULT 0,
  updated_count INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
);
CREATE INDEX bulk_uploads_account ON bulk_uploads(ad_account_id, created_at);
-- A file applies once per ad account: a retry (or a second tab) finds the applied one instead.
CREATE UNIQUE INDEX bulk_uploads_applied_once ON bulk_uploads(ad_account_id, content_hash) WHERE status = 'APPLIED';

CREATE TABLE bulk_upload_errors (
  upload_id INTEGER NOT NULL REFERENCES bulk_uploads(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  -- The row as a spreadsheet numbers it (the header is row 1); 0 for the file as a whole.
  row_number INTEGER NOT NULL,
  column_name TEXT NOT NULL DEFAULT '',
  code TEXT NOT NULL,
  -- JSON of the values the message names (a minimum, the allowed values).
  detail TEXT NOT NULL DEFAULT '{}',
  PRIMARY KEY (upload_id, seq)
) WITHOUT ROWID;
