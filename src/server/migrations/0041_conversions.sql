-- What happened on an advertiser's own site (spec 002 "Conversion and tag screens"): one row per
-- conversion event, whichever way it arrived: the conversion tag in a visitor's browser, the
-- conversions API from the advertiser's server, or an uploaded file of offline conversions.
-- The tag and the API report the same purchase under the same event id, so an event is kept
-- once per ad account, event name and event id: the second arrival is ignored, never counted.
-- Times are epoch milliseconds; money is in micro-units of `currency`.
CREATE TABLE conversion_events (
  id INTEGER PRIMARY KEY,
  ad_account_id INTEGER NOT NULL REFERENCES ad_accounts(id) ON DELETE CASCADE,
  -- The tag that fired it, for TAG events (and API events naming one); NULL otherwise.
  tag_id INTEGER REFERENCES conversion_tags(id) ON DELETE SET NULL,
  source TEXT NOT NULL CHECK (source IN ('TAG','API','UPLOAD')),
  event_name TEXT NOT NULL CHECK (event_name IN ('page_visit','add_to_cart','checkout','lead','signup')),
  event_id TEXT NOT NULL CHECK (length(event_id) BETWEEN 1 AND 128),
  event_time INTEGER NOT NULL,
  received_at INTEGER NOT NULL,
  -- Test events show live in the hub and never count in results.
  is_test INTEGER NOT NULL DEFAULT 0 CHECK (is_test IN (0, 1)),
  value_micro INTEGER CHECK (value_micro IS NULL OR value_micro >= 0),
  currency TEXT CHECK (currency IS NULL OR length(currency) = 3),
  order_quantity INTEGER CHECK (order_quantity IS NULL OR order_quantity >= 0),
  -- The promoted pin click it followed, if the visitor arrived from one: that click's event id.
  click_id TEXT,
  -- The Pinloom person it was matched to (by the click, or by a hashed e-mail address), if any.
  user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  UNIQUE (ad_account_id, event_name, event_id)
);
-- Results and health read an account's events by time.
CREATE INDEX conversion_events_account_time ON conversion_events(ad_account_id, event_time);
CREATE INDEX conversion_events_tag_time ON conversion_events(tag_id, received_at);
CREATE INDEX conversion_events_click ON conversion_events(click_id) WHERE click_id IS NOT NULL;
CREATE INDEX conversion_events_user ON conversion_events(user_id) WHERE user_id IS NOT NULL;

-- Matching a conversion to a person without keeping a second copy of the address: the SHA-256
-- (hex) of the person's trimmed, lower-cased e-mail address, written when the account is made
-- and when its address changes. D1 cannot hash in SQL, so the Worker writes it.
CREATE TABLE email_match (
  email_sha256 TEXT PRIMARY KEY CHECK (length(email_sha256) = 64),
  user_id INTEGER NOT NULL UNIQUE REFERENCES users(id) ON DELETE CASCADE
) WITHOUT ROWID;
