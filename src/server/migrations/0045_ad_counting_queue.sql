-- Promoted pins' views and clicks are counted by the EVENTS queue's consumer, which may receive
-- the same event many times (a browser's retried ping, a queue redelivery, a duplicate batch).
-- Each event id is claimed here once per advertiser: the delivery whose request_key wrote the
-- row is the only one that may count it, whatever happens to the others.
CREATE TABLE ad_event_receipts (
  advertiser_id TEXT NOT NULL,
  source_event_id TEXT NOT NULL,
  request_key TEXT NOT NULL,
  received_at INTEGER NOT NULL,
  PRIMARY KEY (advertiser_id, source_event_id)
) WITHOUT ROWID;

-- Saves of a promoted pin by a person it was shown to as promoted: once per person per ad.
-- request_key names the save that wrote the row, so the day's row of the same batch is added
-- only by that save.
CREATE TABLE ad_save_counts (
  ad_id INTEGER NOT NULL REFERENCES ads(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL,
  day TEXT NOT NULL CHECK (length(day) = 10),
  request_key TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (ad_id, user_id)
) WITHOUT ROWID;
CREATE INDEX ad_save_counts_request ON ad_save_counts(request_key);

-- The day's saves beside its impressions and clicks (a save costs nothing).
ALTER TABLE ad_spend_daily ADD COLUMN saves INTEGER NOT NULL DEFAULT 0 CHECK (saves >= 0);

-- A save asks whether its person was shown the pin as promoted in a feed lately.
CREATE INDEX attribution_pings_user_pin ON attribution_pings(user_id, pin_id, received_at);
