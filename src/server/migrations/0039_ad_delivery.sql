-- What promoted pins earned (spec 002 §7 "Attribution reporting is used for ad views and
-- clicks"): one row per ad per UTC day with its counted impressions, clicks and spend, written by
-- the attribution ping that counts them and read by the advertiser's results and by billing.
-- day is the UTC date as text (YYYY-MM-DD); money is in micro-units of the ad account's currency.
CREATE TABLE ad_spend_daily (
  ad_id INTEGER NOT NULL REFERENCES ads(id) ON DELETE CASCADE,
  campaign_id INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
  ad_account_id INTEGER NOT NULL REFERENCES ad_accounts(id),
  day TEXT NOT NULL,
  impressions INTEGER NOT NULL DEFAULT 0 CHECK (impressions >= 0),
  clicks INTEGER NOT NULL DEFAULT 0 CHECK (clicks >= 0),
  spend_micro INTEGER NOT NULL DEFAULT 0 CHECK (spend_micro >= 0),
  PRIMARY KEY (ad_id, day)
) WITHOUT ROWID;
-- Pacing reads a campaign's spend today; results read an account's days.
CREATE INDEX ad_spend_daily_campaign ON ad_spend_daily(campaign_id, day);
CREATE INDEX ad_spend_daily_account ON ad_spend_daily(ad_account_id, day);

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

