-- The server-driven experience platform of spec 002 (§3 "Experience", §4 "Experiences", §6, §7):
-- experience definitions, each in one placement, and each person's (or signed-out browser's)
-- status per placed experience. Times are epoch ms. src/experiences/experiences.ts holds the
-- targeting rules the `rule` column names and the ids seeded below.

-- One experience in one placement (placed experience id "placement:experience"). type 0 means
-- none (no visible surface of its own, as the footer's). display_data is a JSON object with an
-- `anchor` (where the client shows it); metadata a JSON object the client may read;
-- triggerable_placed_exps a JSON array of "placement:experience" this one may make eligible.
-- An experience with needs_trigger waits for a trigger before anyone is eligible for it.
CREATE TABLE experiences (
  experience_id INTEGER PRIMARY KEY,
  placement_id INTEGER NOT NULL,
  type INTEGER NOT NULL DEFAULT 0 CHECK (type BETWEEN 0 AND 2),
  display_data TEXT NOT NULL DEFAULT '{}',
  metadata TEXT NOT NULL DEFAULT '{}',
  triggerable_placed_exps TEXT NOT NULL DEFAULT '[]',
  rule TEXT NOT NULL CHECK (rule IN ('personal_account','business_owner','merchant_welcome','consent_required','footer_experiment')),
  needs_trigger INTEGER NOT NULL DEFAULT 0 CHECK (needs_trigger IN (0, 1)),
  priority INTEGER NOT NULL DEFAULT 0,
  active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
  created_at INTEGER NOT NULL
);
CREATE INDEX experiences_placement ON experiences(placement_id, active, priority);

-- Where one person (user_id) or one signed-out browser (visitor_id: the unauthId the request
-- context derives from its CSRF cookie) stands with one experience. Exactly one of the two.
-- completed_without_homefeed marks a completion of the completedWithoutHomefeed kind.
CREATE TABLE experience_states (
  id INTEGER PRIMARY KEY,
  user_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
  visitor_id TEXT CHECK (visitor_id IS NULL OR length(visitor_id) = 16),
  experience_id INTEGER NOT NULL REFERENCES experiences(experience_id) ON DELETE CASCADE,
  placement_id INTEGER NOT NULL,
  triggered_at INTEGER,
  viewed_at INTEGER,
  last_viewed_at INTEGER,
  view_count INTEGER NOT NULL DEFAULT 0 CHECK (view_count >= 0),
  completed_at INTEGER,
  completed_without_homefeed INTEGER NOT NULL DEFAULT 0 CHECK (completed_without_homefeed IN (0, 1)),
  dismissed_at INTEGER,
  extra_context TEXT,
  updated_at INTEGER NOT NULL,
  CHECK ((user_id IS NULL) <> (visitor_id IS NULL))
);
CREATE UNIQUE INDEX experience_states_user ON experience_states(user_id, experience_id);
CREATE UNIQUE INDEX experience_states_visitor ON experience_states(visitor_id, experience_id);

-- The product's experiences.
-- 1000069:500417 the footer check (spec 002 §7): hides the pin-grid footer for people in the
--   footer experiment's hide_footer group, then records a view.
-- 1000071:500501 the business upsell on a personal account's home: a card leading to business
--   onboarding; completing it (following its link) triggers 1000072:500502.
-- 1000072:500502 the first visit to the business hub after onboarding: where to start.
-- 1000073:500503 the verified merchant welcome banner on the program's page (its timing is the
--   program's: merchant_banners).
-- 1000074:500504 the cookie consent banner, where consent is asked and not yet given.
INSERT INTO experiences (experience_id, placement_id, type, display_data, metadata, triggerable_placed_exps, rule, needs_trigger, priority, created_at) VALUES
  (500417, 1000069, 0, '{"anchor":"footer","hide_footer":true}', '{"name":"pin_grid_footer"}', '[]', 'footer_experiment', 0, 0, 0),
  (500501, 1000071, 2, '{"anchor":"home_top","cta_path":"/business/hub/onboarding/"}', '{"name":"business_upsell"}', '["1000072:500502"]', 'personal_account', 0, 0, 0),
  (500502, 1000072, 1, '{"anchor":"hub_top"}', '{"name":"business_hub_start"}', '[]', 'business_owner', 1, 0, 0),
  (500503, 1000073, 1, '{"anchor":"merchant_top"}', '{"name":"merchant_welcome"}', '[]', 'merchant_welcome', 0, 0, 0),
  (500504, 1000074, 1, '{"anchor":"page_bottom","settings_path":"/settings/cookies/"}', '{"name":"cookie_consent"}', '[]', 'consent_required', 0, 0, 0);
