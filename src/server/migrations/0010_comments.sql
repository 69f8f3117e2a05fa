-- Issue 6, comments and tried-it posts (contract /work/briefs/comments-api.md; spec 000 §3
-- "Aggregated comment", §4 "Comment changes"; spec 001 §3 "Did-it data"). The comments table
-- itself is in 0001_core.sql; its counts (like_count, helpful_count, reply_count) and
-- pins.comment_count mirror the rows below and are kept in the same batch as each change.

-- A like (reaction type 1, the only type comments carry) or a "helpful" mark, one per person each.
CREATE TABLE comment_marks (
  comment_id INTEGER NOT NULL REFERENCES comments(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('like','helpful')),
  created_at INTEGER NOT NULL,
  PRIMARY KEY (comment_id, user_id, kind)
) WITHOUT ROWID;
CREATE INDEX comment_marks_user ON comment_marks(user_id);

-- Reports, one per person per comment (a second report replaces the first's reasons).
CREATE TABLE comment_flags (
  comment_id INTEGER NOT NULL REFERENCES comments(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  reason TEXT NOT NULL CHECK (length(reason) BETWEEN 1 AND 50),
  detailed_reasons TEXT NOT NULL DEFAULT '[]',  -- JSON string[], at most 10
  created_at INTEGER NOT NULL,
  PRIMARY KEY (comment_id, user_id)
) WITHOUT ROWID;

-- "Hide for this user" on one pin: every comment that author has there is hidden, and so is
-- each one they post there later (comments.is_hidden; a hidden comment shows to its author only).
CREATE TABLE comment_hidden_authors (
  pin_id INTEGER NOT NULL REFERENCES pins(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  hidden_by INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (pin_id, user_id)
) WITHOUT ROWID;

-- Someone who removed their mention from a comment: an edit of that comment cannot tag them again.
CREATE TABLE comment_mention_removals (
  comment_id INTEGER NOT NULL REFERENCES comments(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (comment_id, user_id)
) WITHOUT ROWID;

-- A person's comment feature map (AggregatedCommentFeaturesResource): JSON {feature: boolean};
-- a feature not in the map is on.
CREATE TABLE comment_features (
  user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  feature_map TEXT NOT NULL DEFAULT '{}',
  updated_at INTEGER NOT NULL
);

-- Comments by one person (their own list, the per-pin hide) and the visible ones of a pin.
CREATE INDEX comments_user_pin ON comments(user_id, pin_id);

-- Tried-it posts: the text and the optional photo (R2 key under did-it/) of a did-it.
ALTER TABLE did_its ADD COLUMN details TEXT NOT NULL DEFAULT '' CHECK (length(details) <= 500);
ALTER TABLE did_its ADD COLUMN image_key TEXT;
CREATE INDEX did_its_pin ON did_its(pin_id, created_at DESC);
