-- Re-cut uploads (a crop, a video's poster) are written under new object names and the row
-- switched to them in one statement, so a reader never sees half of an old cut and half of a
-- new one. `revision` is that name's random prefix (NULL: the first cut's plain names).
ALTER TABLE media_uploads ADD COLUMN revision TEXT CHECK (revision IS NULL OR (length(revision) = 8 AND revision NOT GLOB '*[^0-9a-f]*'));
-- The housekeeping sweep finds abandoned uploads (never published, old) by age.
CREATE INDEX media_uploads_unpublished ON media_uploads(created_at) WHERE status = 'uploaded';
-- An upload the sweep has deleted, whose R2 folder is still to be emptied. The row goes in the
-- same batch that deletes the upload, so its objects (already unreadable: the media route serves
-- an upload's folder only while its row exists) are never forgotten when R2 fails; the next
-- run retries them.
CREATE TABLE media_upload_purges (
  folder TEXT PRIMARY KEY,   -- uploads/<user_id>/<upload id>/
  created_at INTEGER NOT NULL
) WITHOUT ROWID;
