-- Issue 6, second part. Tried-it photo uploads awaiting their post: an upload's signature is
-- good only for the person who uploaded it and the pin it was uploaded for, and an upload
-- never attached to a post is deleted (row and R2 object) by the cron housekeeping after
-- DID_IT_UPLOAD_TTL_MS (src/comments/photo.ts). No foreign keys: the row must outlive its
-- user or pin long enough for housekeeping to find and delete the R2 object it names.
CREATE TABLE did_it_uploads (
  signature TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL,
  pin_id INTEGER NOT NULL,
  r2_key TEXT NOT NULL,
  created_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX did_it_uploads_created ON did_it_uploads(created_at);
