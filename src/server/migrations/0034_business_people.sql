-- The people of a business (spec 002 §3 "Employee", §4 "Invites", "Permissions", §6): invites
-- to become an employee, per-asset roles held by employees and partners, the partner businesses
-- (agencies) that work for a business with their invites and requests, and ad-account-owner
-- access approval (AOAA) requests. Times are epoch milliseconds; ids are random like every
-- business id. An invite is PENDING until expires_at, then EXPIRED (computed, never stored).
-- Deleting an account takes its invites, sent or received, with it.

CREATE TABLE business_employee_invites (
  id INTEGER PRIMARY KEY,
  business_id INTEGER NOT NULL REFERENCES businesses(id),
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role TEXT NOT NULL CHECK (role IN ('ADMIN','CAMPAIGN_MANAGER','ANALYST','FINANCE')),
  -- The per-asset roles given on acceptance: JSON [{asset_type, asset_id, role}].
  asset_roles TEXT NOT NULL DEFAULT '[]',
  invited_by INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  sent_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  -- One open invite per person and business: inviting again refreshes it.
  UNIQUE (business_id, user_id)
);
-- "Which invites are waiting for me?" for the hub's landing page.
CREATE INDEX business_employee_invites_user ON business_employee_invites(user_id);

-- A role on one asset of a business, held by an employee (member_id: a user) or a partner
-- (member_id: the partner business). Where present it decides for that asset (src/business/roles.ts).
CREATE TABLE business_asset_roles (
  business_id INTEGER NOT NULL REFERENCES businesses(id),
  member_type TEXT NOT NULL CHECK (member_type IN ('EMPLOYEE','PARTNER')),
  member_id INTEGER NOT NULL,
  asset_type TEXT NOT NULL CHECK (asset_type IN ('AD_ACCOUNT','PROFILE','ASSET_GROUP')),
  asset_id INTEGER NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('ADMIN','CAMPAIGN_MANAGER','ANALYST','FINANCE')),
  created_at INTEGER NOT NULL,
  PRIMARY KEY (business_id, member_type, member_id, asset_type, asset_id)
) WITHOUT ROWID;
-- Deleting an asset drops every role on it.
CREATE INDEX business_asset_roles_asset ON business_asset_roles(asset_type, asset_id);

-- A partner (agency) business that works for a business.
CREATE TABLE business_partners (
  business_id INTEGER NOT NULL REFERENCES businesses(id),
  partner_id INTEGER NOT NULL REFERENCES businesses(id),
  created_at INTEGER NOT NULL,
  PRIMARY KEY (business_id, partner_id)
) WITHOUT ROWID;
-- "Whom do we work for?" from the agency's side.
CREATE INDEX business_partners_partner ON business_partners(partner_id);

-- An open partnership proposal between a client (business_id) and an agency (partner_id).
-- INVITE: the client asked the agency to work for it; REQUEST: the agency asked the client to
-- share access. The other side's ADMIN accepts or declines.
CREATE TABLE business_partner_invites (
  id INTEGER PRIMARY KEY,
  business_id INTEGER NOT NULL REFERENCES businesses(id),
  partner_id INTEGER NOT NULL REFERENCES businesses(id),
  kind TEXT NOT NULL CHECK (kind IN ('INVITE','REQUEST')),
  -- The client's per-asset roles given on acceptance (INVITE only): JSON [{asset_type, asset_id, role}].
  asset_roles TEXT NOT NULL DEFAULT '[]',
  sent_by INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  sent_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  UNIQUE (business_id, partner_id)
);
CREATE INDEX business_partner_invites_partner ON business_partner_invites(partner_id);

-- Ad-account-owner access approval: the owner business (business_id) offers one of its ad
-- accounts to another business with a role; that business's ADMIN approves or declines.
CREATE TABLE business_aoaa_requests (
  id INTEGER PRIMARY KEY,
  business_id INTEGER NOT NULL REFERENCES businesses(id),
  ad_account_id INTEGER NOT NULL,
  target_id INTEGER NOT NULL REFERENCES businesses(id),
  role TEXT NOT NULL CHECK (role IN ('ADMIN','CAMPAIGN_MANAGER','ANALYST','FINANCE')),
  status TEXT NOT NULL CHECK (status IN ('PENDING','APPROVED','DECLINED')),
  created_by INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  UNIQUE (ad_account_id, target_id)
);
CREATE INDEX business_aoaa_requests_business ON business_aoaa_requests(business_id, created_at);
CREATE INDEX business_aoaa_requests_target ON business_aoaa_requests(target_id, created_at);
