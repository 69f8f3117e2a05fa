-- A source_event_id is unique per advertiser, not across all of them: the ids come from the
-- advertisers' own pages, and one advertiser must not be able to take another's ids first.
-- SQLite cannot alter a constraint, so the unique index is swapped inside this one migration
-- (D1 runs a migration file as one transaction). Every existing row stays: rows unique on
-- source_event_id alone are unique on (advertiser_id, source_event_id) too. Rows without an
-- advertiser predate the promoted-pin check and are never written any more (the insert needs
-- the advertiser's promoted pin), so NULL's distinctness in a unique index cannot let one in twice.
DROP INDEX attribution_pings_source_event;
CREATE UNIQUE INDEX attribution_pings_advertiser_source_event ON attribution_pings(advertiser_id, source_event_id);
