-- Client events (spec 000 §3 "Event record"), written by the EVENTS queue consumer.
-- client_id is the id the client gave the event: a retried or duplicated batch is stored once.
CREATE TABLE events (
  client_id TEXT PRIMARY KEY,
  event_type INTEGER NOT NULL,
  view_type INTEGER,
  view_parameter INTEGER,
  component INTEGER,
  object_id_str TEXT,
  view_data TEXT,
  aux_data TEXT,
  event_data TEXT,
  time_ns TEXT NOT NULL,          -- nanoseconds, kept as text (beyond 2^53)
  app_state TEXT,
  user_id INTEGER,
  request_id TEXT,
  received_at INTEGER NOT NULL
);
CREATE INDEX events_type_time ON events(event_type, received_at);
