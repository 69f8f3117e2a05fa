-- The business area of spec 002: a business made by onboarding, the people who belong to it
-- with their role, its ad accounts and asset groups, the history of every change made in it,
-- and per-person business properties (navigation shortcuts). Times are epoch milliseconds.
-- Ids are random (as users'), so they say nothing about how many businesses exist.

CREATE TABLE businesses (
  id INTEGER PRIMARY KEY,
  owner_id INTEGER NOT NULL REFERENCES users(id),
  -- The profile the business was made from: one business per profile.
  profile_id INTEGER NOT NULL UNIQUE REFERENCES users(id),
  name TEXT NOT NULL,
  vertical TEXT NOT NULL,
  country TEXT NOT NULL,
  locale TEXT NOT NULL,
  website TEXT,
  -- Every onboarding answer as given (goals, agency fields, contact): validated on write.
  onboarding TEXT NOT NULL,
  -- The marketing plan's answers and the suggestion computed from them, or NULL before the survey.
  marketing_plan TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);

CREATE TABLE business_members (
  business_id INTEGER NOT NULL REFERENCES businesses(id),
  user_id INTEGER NOT NULL REFERENCES users(id),
  role TEXT NOT NULL CHECK (role IN ('ADMIN','CAMPAIGN_MANAGER','ANALYST','FINANCE')),
  created_at INTEGER NOT NULL,
  PRIMARY KEY (business_id, user_id)
) WITHOUT ROWID;
-- "Which businesses am I in?" for the hub.
CREATE INDEX business_members_user ON business_members(user_id);

CREATE TABLE ad_accounts (
  id INTEGER PRIMARY KEY,
  business_id INTEGER NOT NULL REFERENCES businesses(id),
  name TEXT NOT NULL,
  country TEXT NOT NULL,
  currency TEXT NOT NULL,
  created_by INTEGER NOT NULL REFERENCES users(id),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX ad_accounts_business ON ad_accounts(business_id, created_at);

CREATE TABLE asset_groups (
  id INTEGER PRIMARY KEY,
  business_id INTEGER NOT NULL REFERENCES businesses(id),
  name TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  types TEXT NOT NULL DEFAULT '[]',  -- JSON array of asset_group_types
  created_by INTEGER NOT NULL REFERENCES users(id),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX asset_groups_business ON asset_groups(business_id, created_at);

-- The ad accounts and profiles a group holds.
CREATE TABLE asset_group_assets (
  group_id INTEGER NOT NULL REFERENCES asset_groups(id),
  asset_type TEXT NOT NULL CHECK (asset_type IN ('AD_ACCOUNT','PROFILE')),
  asset_id INTEGER NOT NULL,
  PRIMARY KEY (group_id, asset_type, asset_id)
) WITHOUT ROWID;
-- Deleting an ad account takes it out of every group.
CREATE INDEX asset_group_assets_asset ON asset_group_assets(asset_type, asset_id);

-- Every change made in a business, by whom: written in the same batch as the change.
CREATE TABLE business_history (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  business_id INTEGER NOT NULL REFERENCES businesses(id),
  actor_id INTEGER NOT NULL REFERENCES users(id),
  action TEXT NOT NULL,
  entity_type TEXT NOT NULL,
  entity_id TEXT NOT NULL,
  detail TEXT NOT NULL DEFAULT '{}',
  created_at INTEGER NOT NULL
);
CREATE INDEX business_history_business ON business_history(business_id, created_at);

-- Properties a person keeps in a business (entity type BIZ_USER), e.g. NAVBAR_CONFIG.
CREATE TABLE business_properties (
  business_id INTEGER NOT NULL REFERENCES businesses(id),
  user_id INTEGER NOT NULL REFERENCES users(id),
  entity_type TEXT NOT NULL CHECK (entity_type IN ('BIZ_USER')),
  key TEXT NOT NULL CHECK (key IN ('NAVBAR_CONFIG')),
  value TEXT NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (business_id, user_id, entity_type, key)
) WITHOUT ROWID;
