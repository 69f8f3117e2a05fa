-- The news hub (what happened to a person's pins, boards and comments), how far they have
-- read it, and the feedback people send (spec 000 §3 "Feedback payload", §4, §7; spec 001 §2).
-- Times are epoch milliseconds. Notification settings live in users.settings ($.news, $.push).

-- One thing that happened, for its recipient (user_id). Written by the save, follow, comment,
-- invite and scheduled-publish batches themselves (src/news/record.server.ts), never for the
-- recipient's own acts; at most NEWS_ITEMS_KEPT per person (older ones are dropped in the same
-- batch). The pin, board and comment are checked against the recipient again when read: a
-- board that turns secret or a block that arrives later hides what the item names.
-- AUTOINCREMENT: an id is never given again, even after the newest items went with their
-- comment or pin, so the seen mark below (an id) never covers news that arrives later.
CREATE TABLE news_items (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('save','follow','comment','reply','mention','board_invite','scheduled_pin')),
  actor_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
  pin_id INTEGER REFERENCES pins(id) ON DELETE CASCADE,
  board_id INTEGER REFERENCES boards(id) ON DELETE CASCADE,
  comment_id INTEGER REFERENCES comments(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL
);
-- The same act told once: following, unfollowing and following again is one item, not three.
CREATE UNIQUE INDEX news_items_once ON news_items(user_id, kind, ifnull(actor_id, 0), ifnull(pin_id, 0), ifnull(board_id, 0), ifnull(comment_id, 0));
CREATE INDEX news_items_user ON news_items(user_id, id DESC);

-- The newest item a person has seen (opening the hub moves it): the bell counts items above it.
CREATE TABLE news_hub_seen (
  user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  last_seen_id INTEGER NOT NULL,
  seen_at INTEGER NOT NULL
);

-- Feedback (POST /v3/analytics/feedback/): the text and where it was sent from; at most
-- FEEDBACK_KEPT per person, dropped oldest first in the same batch.
CREATE TABLE feedback (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  verbatim_text TEXT NOT NULL CHECK (length(verbatim_text) BETWEEN 1 AND 2000),
  action_from TEXT NOT NULL DEFAULT '' CHECK (length(action_from) <= 100),
  page TEXT NOT NULL DEFAULT '' CHECK (length(page) <= 2048),
  created_at INTEGER NOT NULL
);
CREATE INDEX feedback_user ON feedback(user_id, id DESC);
