-- Issue 5, social: blocks, topics (interests) and did-its (spec 001 §3 "Did-it data", "Topic",
-- §4 "Reactions, follows and did-it"). Follows, reactions, their per-type counts and
-- collaborator rows already live in 0001_core.sql; sponsorship stays the pins.sponsorship JSON.

-- Who blocked whom. A block clears follows both ways and keeps either side from following
-- the other again until it is lifted (src/social/follows.server.ts).
CREATE TABLE blocks (
  blocker_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  blocked_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (blocker_id, blocked_id),
  CHECK (blocker_id != blocked_id)
) WITHOUT ROWID;
CREATE INDEX blocks_blocked ON blocks(blocked_id);

-- Topics a pin is about and a person may follow (follows.target_type 'interest').
-- key is the stable machine name (the world's pin categories); name is the English label.
CREATE TABLE interests (
  id INTEGER PRIMARY KEY,
  key TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 100)
);

CREATE TABLE pin_interests (
  pin_id INTEGER NOT NULL REFERENCES pins(id) ON DELETE CASCADE,
  interest_id INTEGER NOT NULL REFERENCES interests(id) ON DELETE CASCADE,
  PRIMARY KEY (pin_id, interest_id)
) WITHOUT ROWID;
CREATE INDEX pin_interests_interest ON pin_interests(interest_id);

-- "I tried this": one per person per pin; pins.did_it_images_count counts these rows.
CREATE TABLE did_its (
  id INTEGER PRIMARY KEY,
  pin_id INTEGER NOT NULL REFERENCES pins(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  like_count INTEGER NOT NULL DEFAULT 0 CHECK (like_count >= 0),
  helpful_count INTEGER NOT NULL DEFAULT 0 CHECK (helpful_count >= 0),
  comment_count INTEGER NOT NULL DEFAULT 0 CHECK (comment_count >= 0),
  created_at INTEGER NOT NULL,
  UNIQUE (pin_id, user_id)
);

-- Likes and "helpful" marks on a did-it, one per person each; the counts above mirror them.
CREATE TABLE did_it_marks (
  did_it_id INTEGER NOT NULL REFERENCES did_its(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('like','helpful')),
  created_at INTEGER NOT NULL,
  PRIMARY KEY (did_it_id, user_id, kind)
) WITHOUT ROWID;
