-- The verified merchant program of spec 002 (§3 "Verified merchant", §4, §5): one application
-- per business, the review of its product pins (items), the merchant's per-person banners, each
-- viewer's storefront locale, and the staff who review applications. Times are epoch ms.

-- Staff with a role on Pinloom itself (spec 002 §6 "an admin user state exists"). A row makes an
-- account an admin; the role says what it may do. Nobody becomes one through the product.
CREATE TABLE admin_users (
  user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  role TEXT NOT NULL CHECK (role IN ('MERCHANT_REVIEWER')),
  created_at INTEGER NOT NULL
);

-- A business's application and its review (src/merchants/program.ts holds the states and the
-- transition table). review_status codes: 1 PROCESSING, 2 UNDER_REVIEW, 3 COMPLETED, 4 FAILED,
-- 5 DISAPPROVED. program_status is NULL while there is no membership (the checks failed).
CREATE TABLE merchant_applications (
  business_id INTEGER PRIMARY KEY REFERENCES businesses(id),
  profile_id INTEGER NOT NULL UNIQUE REFERENCES users(id),
  country TEXT NOT NULL,
  program_status TEXT CHECK (program_status IN ('APPLIED','ACCEPTED','NON_COMPLIANT','SUSPENDED','CANCELLED')),
  review_status INTEGER NOT NULL DEFAULT 2 CHECK (review_status BETWEEN 1 AND 5),
  review_reasons TEXT NOT NULL DEFAULT '[]',   -- JSON string[]
  checks TEXT NOT NULL DEFAULT '[]',           -- JSON [{check, result, reason, value, threshold}]
  can_appeal INTEGER NOT NULL DEFAULT 1,
  is_appeal INTEGER NOT NULL DEFAULT 0,
  appeal_count INTEGER NOT NULL DEFAULT 0 CHECK (appeal_count >= 0),
  appeal_comment TEXT,
  shipping_policy_url TEXT,
  return_policy_url TEXT,
  applied_at INTEGER NOT NULL,
  decided_at INTEGER,
  decided_by INTEGER REFERENCES users(id),
  updated_at INTEGER NOT NULL
);
-- The reviewer's queue: open reviews first, oldest first.
CREATE INDEX merchant_applications_queue ON merchant_applications(review_status, applied_at);

-- The profile's cover image (a pin of its own), which the cover image check reads.
CREATE TABLE merchant_covers (
  profile_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  pin_id INTEGER NOT NULL REFERENCES pins(id) ON DELETE CASCADE,
  updated_at INTEGER NOT NULL
);

-- A reviewed product pin. A product pin without a row is pending.
CREATE TABLE merchant_items (
  business_id INTEGER NOT NULL REFERENCES businesses(id),
  pin_id INTEGER NOT NULL REFERENCES pins(id) ON DELETE CASCADE,
  status TEXT NOT NULL CHECK (status IN ('approved','pending','declined','appeal_pending')),
  reason TEXT,
  appeal_comment TEXT,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (business_id, pin_id)
) WITHOUT ROWID;
CREATE INDEX merchant_items_pin ON merchant_items(pin_id, status);

-- Per person: the welcome banner's last dismissal and count, and the celebration banner's flag.
CREATE TABLE merchant_banners (
  user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  welcome_dismissed_at INTEGER,
  welcome_dismiss_count INTEGER NOT NULL DEFAULT 0,
  celebration_dismissed INTEGER NOT NULL DEFAULT 0,
  updated_at INTEGER NOT NULL
);

-- Per viewer: the storefront's current viewing locale and when it was chosen (lastUpdated).
CREATE TABLE storefront_locales (
  user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  country TEXT NOT NULL,
  language TEXT NOT NULL,
  feed_profile_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  updated_at INTEGER NOT NULL
);
