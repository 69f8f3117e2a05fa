-- Publishing a pin from the builder. An upload shows in exactly one pin: `pin_id` names it from
-- the batch that publishes, and the media route reads an upload's bytes for others through
-- that pin's visibility rule (src/media/access.server.ts). A carousel's slots and a video's
-- poster are uploads too, so one column covers every byte a published pin shows. A scheduled
-- pin sets it before its pin exists (it reserves its uploads), so it is no foreign key.
ALTER TABLE media_uploads ADD COLUMN pin_id INTEGER;
CREATE INDEX media_uploads_pin ON media_uploads(pin_id) WHERE pin_id IS NOT NULL;
-- Media access finds an upload's pin by pin_id, so these URL indexes serve no query.
DROP INDEX pin_images_upload;
DROP INDEX pin_video_formats_upload;

-- The pinner's choices spec 001 keeps on a draft, kept on the pin they make.
ALTER TABLE pins ADD COLUMN is_shopping_rec_allowed INTEGER NOT NULL DEFAULT 1;
ALTER TABLE pins ADD COLUMN pin_item_shareable INTEGER NOT NULL DEFAULT 1;

-- A statement a multi-step write puts in its batch to refuse the whole batch when a condition
-- it read earlier no longer holds: `INSERT INTO write_guards (reason) SELECT '<why>' WHERE NOT
-- (<condition>)` fails the batch's transaction, and so undoes every statement of it. No row is
-- ever stored.
CREATE TABLE write_guards (
  reason TEXT NOT NULL,
  CONSTRAINT write_refused CHECK (reason IS NULL)
);
