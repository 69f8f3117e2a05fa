-- Pin drafts (spec 001 §3 "Pin draft"), each person's own. The draft is one JSON document,
-- read back through one schema (src/builder/drafts.ts): the builder autosaves it whole, no
-- query filters on its fields, and its shape (items, tags, story pages) grows with the
-- builder without a migration per field. `version` lets an autosave apply only on the draft
-- it read. Ids come from AUTOINCREMENT so a deleted draft's id never names another.
CREATE TABLE pin_drafts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  draft TEXT NOT NULL CHECK (json_valid(draft)),
  version INTEGER NOT NULL DEFAULT 1,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);

-- A person's drafts, newest first, and the count the per-person limit reads.
CREATE INDEX pin_drafts_user ON pin_drafts (user_id, id);
