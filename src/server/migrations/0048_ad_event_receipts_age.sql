-- Housekeeping drops ad event claims past any redelivery of their event, oldest first.
CREATE INDEX ad_event_receipts_received ON ad_event_receipts(received_at);
