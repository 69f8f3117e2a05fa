-- A business's further assets (spec 002): profiles linked besides its own, audiences shared
-- between ad accounts, conversion tags, the business hierarchy (child businesses and
-- organization managers, with their invites) and the state people give an advertiser's
-- recommendations. Times are epoch milliseconds; ids are random like every business id.
-- Closing an ad account takes its audiences, tags, shares and recommendations with it.

-- Profiles linked to a business besides the one it was made from (businesses.profile_id).
-- PENDING until the profile's own person approves; LINKED after.
CREATE TABLE business_profiles (
  business_id INTEGER NOT NULL REFERENCES businesses(id),
  profile_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  status TEXT NOT NULL CHECK (status IN ('PENDING','LINKED')),
  requested_by INTEGER NOT NULL REFERENCES users(id),
  created_at INTEGER NOT NULL,
  linked_at INTEGER,
  PRIMARY KEY (business_id, profile_id)
) WITHOUT ROWID;
-- "Which businesses ask for my profile?"
CREATE INDEX business_profiles_profile ON business_profiles(profile_id, status);

-- A named set of people defined by a rule, owned by one ad account.
CREATE TABLE audiences (
  id INTEGER PRIMARY KEY,
  business_id INTEGER NOT NULL REFERENCES businesses(id),
  ad_account_id INTEGER NOT NULL REFERENCES ad_accounts(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  type TEXT NOT NULL CHECK (type IN ('ENGAGEMENT','CUSTOMER_LIST')),
  -- ENGAGEMENT: JSON {lookback_days, engagements}; CUSTOMER_LIST: {} (its people are below).
  rule TEXT NOT NULL DEFAULT '{}',
  created_by INTEGER NOT NULL REFERENCES users(id),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX audiences_business ON audiences(business_id, created_at);
CREATE INDEX audiences_account ON audiences(ad_account_id);

-- A customer list's people: only the accounts its e-mail addresses matched (the addresses
-- themselves are never kept).
CREATE TABLE audience_members (
  audience_id INTEGER NOT NULL REFERENCES audiences(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  PRIMARY KEY (audience_id, user_id)
) WITHOUT ROWID;

-- The ad accounts an audience is shared with (its sharedAccounts; their received audiences).
CREATE TABLE audience_shares (
  audience_id INTEGER NOT NULL REFERENCES audiences(id) ON DELETE CASCADE,
  ad_account_id INTEGER NOT NULL REFERENCES ad_accounts(id) ON DELETE CASCADE,
  shared_by INTEGER NOT NULL REFERENCES users(id),
  created_at INTEGER NOT NULL,
  PRIMARY KEY (audience_id, ad_account_id)
) WITHOUT ROWID;
CREATE INDEX audience_shares_account ON audience_shares(ad_account_id);

-- Conversion tags as assets (the tag script and its events arrive later: last_fired_event stays
-- NULL until one fires). A child tag is grouped under a leader of its own business or its parent's.
CREATE TABLE conversion_tags (
  id INTEGER PRIMARY KEY,
  business_id INTEGER NOT NULL REFERENCES businesses(id),
  ad_account_id INTEGER NOT NULL REFERENCES ad_accounts(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  automatic_enhanced_match INTEGER NOT NULL DEFAULT 0 CHECK (automatic_enhanced_match IN (0, 1)),
  leader_tag_id INTEGER REFERENCES conversion_tags(id) ON DELETE SET NULL,
  -- JSON {event_type, fired_time} of the newest event, or NULL.
  last_fired_event TEXT,
  created_by INTEGER NOT NULL REFERENCES users(id),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX conversion_tags_business ON conversion_tags(business_id, created_at);
CREATE INDEX conversion_tags_account ON conversion_tags(ad_account_id);
CREATE INDEX conversion_tags_leader ON conversion_tags(leader_tag_id);

-- The ad accounts a tag is shared with besides its owner (its adAccounts).
CREATE TABLE conversion_tag_shares (
  tag_id INTEGER NOT NULL REFERENCES conversion_tags(id) ON DELETE CASCADE,
  ad_account_id INTEGER NOT NULL REFERENCES ad_accounts(id) ON DELETE CASCADE,
  shared_by INTEGER NOT NULL REFERENCES users(id),
  created_at INTEGER NOT NULL,
  PRIMARY KEY (tag_id, ad_account_id)
) WITHOUT ROWID;
CREATE INDEX conversion_tag_shares_account ON conversion_tag_shares(ad_account_id);

-- The hierarchy: a parent business invites a child business (its ADMIN answers) or a person as
-- organization manager (they answer). An ACCEPTED row is the relationship itself.
CREATE TABLE business_hierarchy (
  id INTEGER PRIMARY KEY,
  parent_business_id INTEGER NOT NULL REFERENCES businesses(id),
  type TEXT NOT NULL CHECK (type IN ('CHILD_BUSINESS','ORGANIZATION_MANAGER')),
  child_business_id INTEGER REFERENCES businesses(id),
  user_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
  status TEXT NOT NULL CHECK (status IN ('PENDING','ACCEPTED','DECLINED','CANCELLED','REMOVED')),
  invited_by INTEGER NOT NULL REFERENCES users(id),
  decided_by INTEGER REFERENCES users(id),
  created_at INTEGER NOT NULL,
  decided_at INTEGER,
  CHECK ((type = 'CHILD_BUSINESS') = (child_business_id IS NOT NULL)),
  CHECK ((type = 'ORGANIZATION_MANAGER') = (user_id IS NOT NULL))
);
CREATE INDEX business_hierarchy_parent ON business_hierarchy(parent_business_id, status);
CREATE INDEX business_hierarchy_user ON business_hierarchy(user_id, status);
-- A business has at most one parent, and one open invite per pair.
CREATE UNIQUE INDEX business_hierarchy_one_parent ON business_hierarchy(child_business_id) WHERE status = 'ACCEPTED';
CREATE UNIQUE INDEX business_hierarchy_open_child ON business_hierarchy(parent_business_id, child_business_id) WHERE status = 'PENDING';
CREATE UNIQUE INDEX business_hierarchy_manager ON business_hierarchy(parent_business_id, user_id) WHERE status IN ('PENDING','ACCEPTED');

-- What people made of an ad account's recommendations (spec 002 notification states). The
-- recommendations themselves are computed from the account's data on each read; a row exists
-- once someone acted on one.
CREATE TABLE advertiser_recommendations (
  ad_account_id INTEGER NOT NULL REFERENCES ad_accounts(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('ADD_BILLING','INSTALL_TAG','CREATE_CAMPAIGN','RAISE_BUDGET')),
  state TEXT NOT NULL CHECK (state IN ('UNREAD','READ','ACCEPTED','REJECTED','DISMISSED','INVALID','MUTED','SNOOZED','PMP_REPORTED','EMAILED','BULK_DOWNLOADED','FILTERED','PUSHED')),
  snoozed_until INTEGER,
  updated_by INTEGER NOT NULL REFERENCES users(id),
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (ad_account_id, kind)
) WITHOUT ROWID;
