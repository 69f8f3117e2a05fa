-- Conversion tags take per-asset roles like ad accounts and asset groups (spec 002 §6), so
-- business_asset_roles.asset_type allows 'TAG'. SQLite cannot change a CHECK in place: the table
-- is rebuilt with every column, key and foreign key as 0034 made it, its rows copied, and its
-- index made again. Nothing references this table, so dropping the old one orphans nothing.
CREATE TABLE business_asset_roles_next (
  business_id INTEGER NOT NULL REFERENCES businesses(id),
  member_type TEXT NOT NULL CHECK (member_type IN ('EMPLOYEE','PARTNER')),
  member_id INTEGER NOT NULL,
  asset_type TEXT NOT NULL CHECK (asset_type IN ('AD_ACCOUNT','PROFILE','ASSET_GROUP','TAG')),
  asset_id INTEGER NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('ADMIN','CAMPAIGN_MANAGER','ANALYST','FINANCE')),
  created_at INTEGER NOT NULL,
  PRIMARY KEY (business_id, member_type, member_id, asset_type, asset_id)
) WITHOUT ROWID;

INSERT INTO business_asset_roles_next (business_id, member_type, member_id, asset_type, asset_id, role, created_at)
  SELECT business_id, member_type, member_id, asset_type, asset_id, role, created_at FROM business_asset_roles;

DROP TABLE business_asset_roles;
ALTER TABLE business_asset_roles_next RENAME TO business_asset_roles;

-- Deleting an asset drops every role on it.
CREATE INDEX business_asset_roles_asset ON business_asset_roles(asset_type, asset_id);
