-- Billing (spec 002 §2 "Billing sections"): what an ad account's campaigns delivered each day,
-- the monthly invoices made from it (PROGRESS while the month accrues, then issued once), their
-- frozen order lines, promotion codes and the credits they give, and a billing history. Money
-- is in micro-units of the ad account's currency; times are epoch milliseconds.

-- The business information form's legal name and (optional) tax id, beside its address.
ALTER TABLE business_addresses ADD COLUMN legal_name TEXT NOT NULL DEFAULT '';
ALTER TABLE business_addresses ADD COLUMN tax_id TEXT NOT NULL DEFAULT '';

-- What each ad delivered on one UTC day, written by the promotion work as delivery is counted
-- (an upsert per ad and day). A ledger: no foreign keys, so deleting an ad or a campaign never
-- loses what was spent, and invoices stay reproducible.
CREATE TABLE ad_spend_daily (
  ad_id INTEGER NOT NULL,
  campaign_id INTEGER NOT NULL,
  ad_account_id INTEGER NOT NULL,
  -- YYYY-MM-DD, UTC.
  day TEXT NOT NULL CHECK (length(day) = 10),
  spend_micro INTEGER NOT NULL CHECK (spend_micro >= 0),
  impressions INTEGER NOT NULL DEFAULT 0 CHECK (impressions >= 0),
  clicks INTEGER NOT NULL DEFAULT 0 CHECK (clicks >= 0),
  PRIMARY KEY (ad_id, day)
) WITHOUT ROWID;
-- The invoice's question: an account's spend in a month, by campaign.
CREATE INDEX ad_spend_daily_account ON ad_spend_daily(ad_account_id, day);

-- One invoice per ad account and month. Kept when the ad account is closed (tax records), so
-- the account is not a foreign key.
CREATE TABLE invoices (
  id INTEGER PRIMARY KEY,
  ad_account_id INTEGER NOT NULL,
  business_id INTEGER NOT NULL REFERENCES businesses(id),
  -- YYYY-MM, UTC.
  period TEXT NOT NULL CHECK (length(period) = 7),
  status TEXT NOT NULL CHECK (status IN ('PROGRESS','UNPAID','PAID')),
  currency TEXT NOT NULL,
  -- Sequential over all issued invoices (numbers must not have gaps); NULL while PROGRESS.
  seq INTEGER UNIQUE,
  -- Frozen when issued; 0 while PROGRESS (its amounts are computed from the spend as it accrues).
  subtotal_micro INTEGER NOT NULL DEFAULT 0,
  credit_micro INTEGER NOT NULL DEFAULT 0,
  tax_rate_bp INTEGER NOT NULL DEFAULT 0,
  tax_micro INTEGER NOT NULL DEFAULT 0,
  total_micro INTEGER NOT NULL DEFAULT 0,
  -- JSON: the business and billing information the invoice was issued to.
  bill_to TEXT NOT NULL DEFAULT '{}',
  issued_at INTEGER,
  due_at INTEGER,
  paid_at INTEGER,
  -- The payment processor's reference for the charge that paid it.
  payment_reference TEXT,
  created_at INTEGER NOT NULL,
  UNIQUE (ad_account_id, period),
  CHECK ((status = 'PROGRESS') = (seq IS NULL))
);
CREATE INDEX invoices_business ON invoices(business_id, ad_account_id, status, period);
-- The closing run's question: which PROGRESS invoices belong to an ended month.
CREATE INDEX invoices_open ON invoices(status, period);

-- An issued invoice's order lines: one per campaign, as delivered in the month.
CREATE TABLE invoice_lines (
  invoice_id INTEGER NOT NULL REFERENCES invoices(id),
  campaign_id INTEGER NOT NULL,
  campaign_name TEXT NOT NULL,
  first_day TEXT NOT NULL,
  last_day TEXT NOT NULL,
  impressions INTEGER NOT NULL,
  clicks INTEGER NOT NULL,
  amount_micro INTEGER NOT NULL,
  PRIMARY KEY (invoice_id, campaign_id)
) WITHOUT ROWID;

-- Promotion codes Pinloom hands out: a credit in one currency, usable until it expires.
CREATE TABLE promotion_codes (
  code TEXT PRIMARY KEY,
  currency TEXT NOT NULL,
  credit_micro INTEGER NOT NULL CHECK (credit_micro > 0),
  expires_at INTEGER NOT NULL
);

-- A code applied to an ad account (once per account); its credit is used up by invoices.
CREATE TABLE promotion_redemptions (
  ad_account_id INTEGER NOT NULL,
  code TEXT NOT NULL REFERENCES promotion_codes(code),
  business_id INTEGER NOT NULL REFERENCES businesses(id),
  credit_micro INTEGER NOT NULL,
  remaining_micro INTEGER NOT NULL CHECK (remaining_micro >= 0),
  applied_by INTEGER NOT NULL REFERENCES users(id),
  applied_at INTEGER NOT NULL,
  PRIMARY KEY (ad_account_id, code)
) WITHOUT ROWID;

-- Which credits an issued invoice used.
CREATE TABLE invoice_credits (
  invoice_id INTEGER NOT NULL REFERENCES invoices(id),
  code TEXT NOT NULL,
  amount_micro INTEGER NOT NULL CHECK (amount_micro > 0),
  PRIMARY KEY (invoice_id, code)
) WITHOUT ROWID;

-- Every billing change, by whom (NULL: Pinloom's own monthly run) and when.
CREATE TABLE billing_history (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  business_id INTEGER NOT NULL REFERENCES businesses(id),
  ad_account_id INTEGER,
  actor_id INTEGER REFERENCES users(id),
  action TEXT NOT NULL,
  detail TEXT NOT NULL DEFAULT '{}',
  created_at INTEGER NOT NULL
);
CREATE INDEX billing_history_business ON billing_history(business_id, created_at);

-- An ad account's billing profile goes with the account (billing_profiles references it), so
-- closing an account that has one is not refused by the foreign key; so does an open invoice
-- with nothing delivered. An open month with delivery stays, and the closing run issues it.
CREATE TRIGGER ad_accounts_drop_billing_profile BEFORE DELETE ON ad_accounts
BEGIN
  DELETE FROM billing_profiles WHERE ad_account_id = OLD.id;
  DELETE FROM invoices WHERE ad_account_id = OLD.id AND status = 'PROGRESS'
    AND NOT EXISTS (SELECT 1 FROM ad_spend_daily WHERE ad_account_id = OLD.id AND substr(day, 1, 7) = invoices.period);
END;

-- The codes Pinloom offers new advertisers, one per billing currency, valid until the end of 2027.
INSERT INTO promotion_codes (code, currency, credit_micro, expires_at) VALUES
  ('WELCOME-USD', 'USD', 50000000, 1830297600000),
  ('WELCOME-EUR', 'EUR', 50000000, 1830297600000),
  ('WELCOME-GBP', 'GBP', 40000000, 1830297600000);
