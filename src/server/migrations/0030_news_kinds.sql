-- Three more kinds of news (src/news/record.server.ts): someone asked to join a person's board
-- (`join_request`, the board's owner is told), someone posted that they tried a person's pin
-- (`did_it`, the pin's pinner is told), and someone copied a person's pins to a board in bulk
-- (`board_copy`, each copied pin's pinner is told once per board). SQLite cannot widen a CHECK
-- in place, so the table is made again with the same columns, rows and indexes.
CREATE TABLE news_items_next (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('save','follow','comment','reply','mention','board_invite','scheduled_pin','join_request','did_it','board_copy')),
  actor_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
  pin_id INTEGER REFERENCES pins(id) ON DELETE CASCADE,
  board_id INTEGER REFERENCES boards(id) ON DELETE CASCADE,
  comment_id INTEGER REFERENCES comments(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL
);
INSERT INTO news_items_next (id, user_id, kind, actor_id, pin_id, board_id, comment_id, created_at)
  SELECT id, user_id, kind, actor_id, pin_id, board_id, comment_id, created_at FROM news_items;
-- An id is never given again: the seen marks (news_hub_seen.last_seen_id) may name items that
-- went since, above every id copied. A row at the highest mark, made and dropped at once, moves
-- the new table's sequence past it, so no later item is ever under anyone's mark.
INSERT OR IGNORE INTO news_items_next (id, user_id, kind, created_at)
  SELECT s.last_seen_id, s.user_id, 'follow', 0 FROM news_hub_seen s ORDER BY s.last_seen_id DESC LIMIT 1;
DELETE FROM news_items_next WHERE created_at = 0 AND actor_id IS NULL AND kind = 'follow' AND id NOT IN (SELECT id FROM news_items);
DROP TABLE news_items;
ALTER TABLE news_items_next RENAME TO news_items;
CREATE UNIQUE INDEX news_items_once ON news_items(user_id, kind, ifnull(actor_id, 0), ifnull(pin_id, 0), ifnull(board_id, 0), ifnull(comment_id, 0));
CREATE INDEX news_items_user ON news_items(user_id, id DESC);
