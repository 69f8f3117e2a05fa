-- One row per attribution ping: the browser may send a keepalive ping twice, and a replayed
-- ping must not count again. Earlier duplicates keep their first row. The promoted pin the
-- ping was checked against is kept with it.
DELETE FROM attribution_pings WHERE id NOT IN (SELECT min(id) FROM attribution_pings GROUP BY source_event_id);
CREATE UNIQUE INDEX attribution_pings_source_event ON attribution_pings(source_event_id);
ALTER TABLE attribution_pings ADD COLUMN pin_id INTEGER;
