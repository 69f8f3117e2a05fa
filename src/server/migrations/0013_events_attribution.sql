-- Attribution pings (spec 000 §7 GET /attribution_source/, spec 002 §3 "Attribution source
-- query"), kept for advertiser reporting. Every ping is stored (the 0.1 sample rate is for logs
-- only). 64-bit values are text: source_event_id is unsigned 64-bit, priority signed 64-bit,
-- both beyond what a JavaScript number holds exactly.
CREATE TABLE attribution_pings (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  source_event_id TEXT NOT NULL,
  destination TEXT NOT NULL,            -- the normalised site: scheme://host
  source_event_type TEXT NOT NULL CHECK (source_event_type IN ('click', 'view')),
  expiry_seconds INTEGER NOT NULL,
  priority TEXT NOT NULL,
  advertiser_id TEXT,
  campaign_id TEXT,
  user_id INTEGER,
  request_id TEXT,
  received_at INTEGER NOT NULL
);
CREATE INDEX attribution_pings_advertiser ON attribution_pings(advertiser_id, received_at);
CREATE INDEX attribution_pings_campaign ON attribution_pings(campaign_id, received_at);

-- The client's clock when it sent the batch (ApiCResource create's report_time, nanoseconds as
-- text): with received_at it lets reports correct each event's time for the device's clock skew.
ALTER TABLE events ADD COLUMN report_time_ns TEXT;
