-- Events the conversion tag sent that were refused (a misspelt event name, a malformed value):
-- kept so the hub's tag health can say what is wrong with an advertiser's setup. One row per
-- refused event, its first problem only; rows older than 30 days are dropped by the writer.
CREATE TABLE conversion_tag_errors (
  id INTEGER PRIMARY KEY,
  tag_id INTEGER NOT NULL REFERENCES conversion_tags(id) ON DELETE CASCADE,
  received_at INTEGER NOT NULL,
  -- The field as the wire names it, the event's place left out ("event_name", "body") and the i18n key of the reason.
  field TEXT NOT NULL CHECK (length(field) <= 100),
  reason TEXT NOT NULL CHECK (length(reason) <= 100),
  -- The reason's values as JSON ({"maximum": 20}), or NULL.
  reason_values TEXT CHECK (reason_values IS NULL OR length(reason_values) <= 200),
  -- The event name as sent, when there was one (it may be the wrong one).
  event_name TEXT CHECK (event_name IS NULL OR length(event_name) <= 32)
);
CREATE INDEX conversion_tag_errors_tag_time ON conversion_tag_errors(tag_id, received_at);
