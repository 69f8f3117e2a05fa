-- What promoted pins earned is the spend ledger `ad_spend_daily` (migration 0036): one row per
-- ad per UTC day with its counted impressions, clicks and spend, written here by the attribution
-- ping that counts them and read by the advertiser's results and by billing.
-- Pacing reads a campaign's spend today.
CREATE INDEX ad_spend_daily_campaign ON ad_spend_daily(campaign_id, day);

-- Each counted view or click once: a view once per viewer per ad per day (dedupe_key "u<user
-- id>"), a click once per click event (dedupe_key its source_event_id). A retried ping finds its
-- row and adds nothing. request_key names the ping that wrote the row, so the spend row of the
-- same batch is added only by that ping.
CREATE TABLE ad_delivery_counts (
  ad_id INTEGER NOT NULL REFERENCES ads(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('view','click')),
  day TEXT NOT NULL,
  dedupe_key TEXT NOT NULL,
  request_key TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (ad_id, kind, day, dedupe_key)
) WITHOUT ROWID;
CREATE INDEX ad_delivery_counts_request ON ad_delivery_counts(request_key);

