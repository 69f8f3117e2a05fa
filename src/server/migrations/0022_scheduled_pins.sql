-- Scheduled pins (spec 001 §3 "Scheduled pin": id, title, scheduled_ts), each a draft made
-- ready to publish at scheduled_ts. It is not a pin until it publishes, so nobody but its
-- owner can see it by any door. `pin_id` is chosen when it is scheduled: the batch that
-- publishes inserts the pin under that id and deletes this row, so two runs of the cron that
-- overlap cannot both publish it (the second batch's INSERT meets the first's pin).
CREATE TABLE scheduled_pins (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  pin_id INTEGER NOT NULL UNIQUE,
  board_id INTEGER NOT NULL REFERENCES boards(id) ON DELETE CASCADE,
  title TEXT NOT NULL DEFAULT '',
  draft TEXT NOT NULL CHECK (json_valid(draft)),
  scheduled_ts INTEGER NOT NULL,
  -- When a cron run last tried it and failed (it is tried again on the next run).
  failed_at INTEGER,
  created_at INTEGER NOT NULL
);
CREATE INDEX scheduled_pins_user ON scheduled_pins(user_id, scheduled_ts, id);
CREATE INDEX scheduled_pins_due ON scheduled_pins(scheduled_ts);

ALTER TABLE users ADD COLUMN scheduled_pin_count INTEGER NOT NULL DEFAULT 0 CHECK (scheduled_pin_count >= 0);
