-- What a business buys and runs (spec 002): campaigns in an ad account, their ad groups (who is
-- reached, at what bid), their ads (a promoted pin or product group and where it leads), the
-- keywords of an ad group and an ad account's product groups; and what promotion requires
-- before it may start: a valid billing profile on the ad account and the business's address.
-- Money is in micro-units of the ad account's currency, so sums stay exact. Times are epoch
-- milliseconds; ids are random like every business id.

CREATE TABLE campaigns (
  id INTEGER PRIMARY KEY,
  ad_account_id INTEGER NOT NULL REFERENCES ad_accounts(id),
  business_id INTEGER NOT NULL REFERENCES businesses(id),
  name TEXT NOT NULL,
  goal TEXT NOT NULL CHECK (goal IN ('CONSIDERATION','WEB_CONVERSION','CATALOG_SALES')),
  status TEXT NOT NULL CHECK (status IN ('ACTIVE','PAUSED','ENDED','REJECTED')),
  daily_budget_micro INTEGER NOT NULL CHECK (daily_budget_micro > 0),
  start_at INTEGER NOT NULL,
  -- NULL while the campaign is ongoing.
  end_at INTEGER,
  -- Spec 002's isFdb ("true by default").
  is_fdb INTEGER NOT NULL DEFAULT 1,
  created_by INTEGER NOT NULL REFERENCES users(id),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX campaigns_account ON campaigns(ad_account_id, created_at);
-- The feeds' question: which campaigns run now.
CREATE INDEX campaigns_running ON campaigns(status, end_at);

CREATE TABLE ad_groups (
  id INTEGER PRIMARY KEY,
  campaign_id INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('ACTIVE','PAUSED','ENDED','REJECTED')),
  -- NULL: the platform bids automatically.
  bid_micro INTEGER CHECK (bid_micro IS NULL OR bid_micro > 0),
  -- JSON {auto: boolean, ages: string[], genders: string[], interests: string[], locales: string[], size: NARROW|MEDIUM|WIDE}
  targeting TEXT NOT NULL DEFAULT '{"auto":true}',
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX ad_groups_campaign ON ad_groups(campaign_id);

CREATE TABLE product_groups (
  id INTEGER PRIMARY KEY,
  ad_account_id INTEGER NOT NULL REFERENCES ad_accounts(id),
  name TEXT NOT NULL,
  -- JSON of the catalog filters that pick the group's products.
  filters TEXT NOT NULL DEFAULT '{}',
  status TEXT NOT NULL CHECK (status IN ('ACTIVE','PAUSED','ENDED','REJECTED')),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX product_groups_account ON product_groups(ad_account_id);

CREATE TABLE ads (
  id INTEGER PRIMARY KEY,
  ad_group_id INTEGER NOT NULL REFERENCES ad_groups(id) ON DELETE CASCADE,
  -- Kept on the ad so the feeds and the results read one table.
  campaign_id INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
  ad_account_id INTEGER NOT NULL REFERENCES ad_accounts(id),
  pin_id INTEGER REFERENCES pins(id),
  product_group_id INTEGER REFERENCES product_groups(id),
  name TEXT NOT NULL,
  ad_type TEXT NOT NULL,
  destination_url TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('ACTIVE','PAUSED','ENDED','REJECTED')),
  review_status TEXT NOT NULL DEFAULT 'APPROVED' CHECK (review_status IN ('PENDING','APPROVED','REJECTED')),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  -- An ad promotes a pin or a product group, never both (selecting one clears the other).
  CHECK ((pin_id IS NULL) <> (product_group_id IS NULL))
);
CREATE INDEX ads_ad_group ON ads(ad_group_id);
CREATE INDEX ads_campaign ON ads(campaign_id);
CREATE INDEX ads_pin ON ads(pin_id);

CREATE TABLE keywords (
  id INTEGER PRIMARY KEY,
  ad_group_id INTEGER NOT NULL REFERENCES ad_groups(id) ON DELETE CASCADE,
  text TEXT NOT NULL,
  match_type TEXT NOT NULL CHECK (match_type IN ('BROAD','PHRASE','EXACT','NEGATIVE_PHRASE','NEGATIVE_EXACT')),
  bid_micro INTEGER CHECK (bid_micro IS NULL OR bid_micro > 0),
  status TEXT NOT NULL CHECK (status IN ('ACTIVE','PAUSED')),
  created_at INTEGER NOT NULL,
  UNIQUE (ad_group_id, text, match_type)
);

-- One billing profile per ad account. Pinloom has no payment processor yet: a TEST profile is
-- the only kind, and a VALID one lets the account promote.
CREATE TABLE billing_profiles (
  ad_account_id INTEGER PRIMARY KEY REFERENCES ad_accounts(id),
  mode TEXT NOT NULL CHECK (mode IN ('TEST')),
  status TEXT NOT NULL CHECK (status IN ('VALID','INVALID')),
  -- JSON of the billing information form as saved.
  billing_information TEXT NOT NULL DEFAULT '{}',
  created_by INTEGER NOT NULL REFERENCES users(id),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);

-- The business information form's address; promotion needs one.
CREATE TABLE business_addresses (
  business_id INTEGER PRIMARY KEY REFERENCES businesses(id),
  line1 TEXT NOT NULL,
  line2 TEXT NOT NULL DEFAULT '',
  city TEXT NOT NULL,
  region TEXT NOT NULL DEFAULT '',
  postal_code TEXT NOT NULL,
  country TEXT NOT NULL,
  updated_by INTEGER NOT NULL REFERENCES users(id),
  updated_at INTEGER NOT NULL
);
