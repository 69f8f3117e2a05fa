-- Core entities of spec 000 §3 and 001 §3 that the first issues need.
-- Times are Unix epoch milliseconds. Booleans are 0/1. JSON columns hold shapes that
-- are validated with zod when read (src/pins/pin.ts and friends).

CREATE TABLE users (
  id INTEGER PRIMARY KEY,
  username TEXT NOT NULL UNIQUE COLLATE NOCASE,
  email TEXT NOT NULL UNIQUE COLLATE NOCASE,
  password_hash TEXT,
  full_name TEXT NOT NULL DEFAULT '',
  first_name TEXT NOT NULL DEFAULT '',
  last_name TEXT NOT NULL DEFAULT '',
  about TEXT NOT NULL DEFAULT '',
  country TEXT NOT NULL DEFAULT 'US',
  locale TEXT NOT NULL DEFAULT 'en_US',
  gender TEXT,
  custom_gender TEXT,
  birthday TEXT,
  age_in_years INTEGER,
  image_key TEXT,                      -- R2 prefix; sizes small/medium/large/xlarge under it
  account_type TEXT NOT NULL DEFAULT 'personal' CHECK (account_type IN ('personal','business')),
  business_name TEXT,
  is_partner INTEGER NOT NULL DEFAULT 0,
  is_verified_merchant INTEGER NOT NULL DEFAULT 0,
  verified_identity INTEGER NOT NULL DEFAULT 0,
  is_ads_only_profile INTEGER NOT NULL DEFAULT 0,
  domain_url TEXT,
  domain_verified INTEGER NOT NULL DEFAULT 0,
  is_employee INTEGER NOT NULL DEFAULT 0,
  is_under_16 INTEGER NOT NULL DEFAULT 0,
  is_under_18 INTEGER NOT NULL DEFAULT 0,
  is_write_banned INTEGER NOT NULL DEFAULT 0,
  is_private_profile INTEGER NOT NULL DEFAULT 0,
  login_state TEXT NOT NULL DEFAULT 'full' CHECK (login_state IN ('full','limited')),
  email_verified INTEGER NOT NULL DEFAULT 0,
  has_mfa_enabled INTEGER NOT NULL DEFAULT 0,
  mfa_secret TEXT,
  is_parental_control_passcode_enabled INTEGER NOT NULL DEFAULT 0,
  parental_passcode_hash TEXT,
  parental_control_anonymized_email TEXT,
  allow_personalization_cookies INTEGER NOT NULL DEFAULT 0,
  allow_analytic_cookies INTEGER NOT NULL DEFAULT 0,
  allow_marketing_cookies INTEGER NOT NULL DEFAULT 0,
  third_party_marketing_tracking_enabled INTEGER NOT NULL DEFAULT 1,
  should_show_messaging INTEGER NOT NULL DEFAULT 1,
  show_personal_boutique INTEGER NOT NULL DEFAULT 0,
  save_behavior INTEGER NOT NULL DEFAULT 0,
  phone_country TEXT,
  phone_number TEXT,
  connected_networks TEXT NOT NULL DEFAULT '{}',   -- JSON: {facebook:{...}, google:{...}, ...}
  follower_count INTEGER NOT NULL DEFAULT 0 CHECK (follower_count >= 0),
  following_count INTEGER NOT NULL DEFAULT 0 CHECK (following_count >= 0),
  pin_count INTEGER NOT NULL DEFAULT 0 CHECK (pin_count >= 0),
  board_count INTEGER NOT NULL DEFAULT 0 CHECK (board_count >= 0),
  secret_board_count INTEGER NOT NULL DEFAULT 0 CHECK (secret_board_count >= 0),
  group_board_count INTEGER NOT NULL DEFAULT 0 CHECK (group_board_count >= 0),
  resurrection_date INTEGER,
  created_at INTEGER NOT NULL
);

-- Sessions live here and only here (never KV). id is the SHA-256 of the cookie token,
-- so a leaked database row cannot be replayed as a cookie.
CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  last_seen_at INTEGER NOT NULL,
  revoked_at INTEGER,
  user_agent TEXT,
  ip TEXT
);
CREATE INDEX sessions_user ON sessions(user_id);
CREATE INDEX sessions_expiry ON sessions(expires_at);

CREATE TABLE link_domains (
  domain TEXT PRIMARY KEY,
  official_user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  is_blocked INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE boards (
  id INTEGER PRIMARY KEY,
  owner_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 50),
  slug TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '' CHECK (length(description) <= 500),
  privacy TEXT NOT NULL DEFAULT 'public' CHECK (privacy IN ('public','secret','protected')),
  layout TEXT NOT NULL DEFAULT 'default',
  cover_pin_id INTEGER,
  category TEXT,
  is_collaborative INTEGER NOT NULL DEFAULT 0,
  pin_count INTEGER NOT NULL DEFAULT 0 CHECK (pin_count >= 0),
  sectionless_pin_count INTEGER NOT NULL DEFAULT 0 CHECK (sectionless_pin_count >= 0),
  section_count INTEGER NOT NULL DEFAULT 0 CHECK (section_count >= 0),
  collaborator_count INTEGER NOT NULL DEFAULT 0 CHECK (collaborator_count >= 0),
  follower_count INTEGER NOT NULL DEFAULT 0 CHECK (follower_count >= 0),
  archived_at INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  UNIQUE (owner_id, slug)
);
CREATE INDEX boards_owner ON boards(owner_id, archived_at);

CREATE TABLE board_sections (
  id INTEGER PRIMARY KEY,
  board_id INTEGER NOT NULL REFERENCES boards(id) ON DELETE CASCADE,
  title TEXT NOT NULL CHECK (length(title) BETWEEN 1 AND 50),
  slug TEXT NOT NULL,
  position INTEGER NOT NULL DEFAULT 0,
  pin_count INTEGER NOT NULL DEFAULT 0 CHECK (pin_count >= 0),
  created_at INTEGER NOT NULL,
  UNIQUE (board_id, slug)
);

CREATE TABLE board_collaborators (
  board_id INTEGER NOT NULL REFERENCES boards(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  status TEXT NOT NULL CHECK (status IN ('new','accepted')),
  access TEXT NOT NULL DEFAULT 'write,delete',    -- comma list of write, delete
  type TEXT NOT NULL DEFAULT 'invite' CHECK (type IN ('invite','request')),
  invited_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (board_id, user_id)
);
CREATE INDEX board_collaborators_user ON board_collaborators(user_id, status);

CREATE TABLE pins (
  id INTEGER PRIMARY KEY,
  pinner_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  native_creator_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  origin_pinner_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  promoter_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  board_id INTEGER REFERENCES boards(id) ON DELETE SET NULL,          -- pinnedToBoard
  section_id INTEGER REFERENCES board_sections(id) ON DELETE SET NULL,
  kind TEXT NOT NULL CHECK (kind IN ('image','video','carousel','story','recipe','article','product')),
  title TEXT NOT NULL DEFAULT '',
  grid_title TEXT NOT NULL DEFAULT '',
  description TEXT NOT NULL DEFAULT '',
  description_html TEXT NOT NULL DEFAULT '',
  alt_text TEXT,
  auto_alt_text TEXT,
  dominant_color TEXT NOT NULL DEFAULT '#e9e9e9',
  category TEXT,
  domain TEXT,
  link TEXT,
  mobile_link TEXT,
  tracked_link TEXT,
  tracking_params TEXT,
  image_signature TEXT NOT NULL,
  price_currency TEXT,
  price_value REAL,
  seo_title TEXT,
  seo_description TEXT,
  seo_url TEXT,
  seo_noindex_reason TEXT,
  comments_disabled INTEGER NOT NULL DEFAULT 0,
  is_unsafe INTEGER NOT NULL DEFAULT 0,
  is_hidden INTEGER NOT NULL DEFAULT 0,
  is_promoted INTEGER NOT NULL DEFAULT 0,
  is_downstream_promotion INTEGER NOT NULL DEFAULT 0,
  promoted_is_removable INTEGER NOT NULL DEFAULT 0,
  is_eligible_for_pdp INTEGER NOT NULL DEFAULT 0,
  is_oos_product INTEGER NOT NULL DEFAULT 0,
  is_stale_product INTEGER NOT NULL DEFAULT 0,
  is_deleted INTEGER NOT NULL DEFAULT 0,
  closeup_attribution_user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  media_attribution TEXT,     -- JSON {author, authorUrl, ccUrl, link, mediaType, providerName}
  rich_metadata TEXT,         -- JSON {recipe?, aggregateRating?, article?, products?}
  story_pin_data TEXT,        -- JSON {pages:[{blocks:[...]}], metadata, pinTitle, ...}
  carousel_data TEXT,         -- JSON {slots:[{title, details, link, images:{size:{url,width,height}}}]}
  sponsorship TEXT,           -- JSON {creatorId, sponsorId, status}
  save_count INTEGER NOT NULL DEFAULT 0 CHECK (save_count >= 0),
  share_count INTEGER NOT NULL DEFAULT 0 CHECK (share_count >= 0),
  comment_count INTEGER NOT NULL DEFAULT 0 CHECK (comment_count >= 0),
  did_it_images_count INTEGER NOT NULL DEFAULT 0 CHECK (did_it_images_count >= 0),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX pins_pinner ON pins(pinner_id, created_at DESC);
CREATE INDEX pins_board ON pins(board_id);
CREATE INDEX pins_feed ON pins(is_deleted, is_hidden, created_at DESC);
CREATE INDEX pins_category ON pins(category, created_at DESC);

-- Every size of spec 000 §3: 60x60, 136x136, 170x, 236x, 474x, 564x, 736x, 600x315, orig.
CREATE TABLE pin_images (
  pin_id INTEGER NOT NULL REFERENCES pins(id) ON DELETE CASCADE,
  size TEXT NOT NULL CHECK (size IN ('60x60','136x136','170x','236x','474x','564x','736x','600x315','orig')),
  url TEXT NOT NULL,
  width INTEGER NOT NULL CHECK (width > 0),
  height INTEGER NOT NULL CHECK (height > 0),
  dominant_color TEXT NOT NULL,
  PRIMARY KEY (pin_id, size)
) WITHOUT ROWID;

CREATE TABLE pin_video_formats (
  pin_id INTEGER NOT NULL REFERENCES pins(id) ON DELETE CASCADE,
  format TEXT NOT NULL,                 -- V_720P (mp4, H.264), V_WEBM (webm, VP9)
  url TEXT NOT NULL,
  mime_type TEXT NOT NULL,
  width INTEGER NOT NULL,
  height INTEGER NOT NULL,
  duration_ms INTEGER NOT NULL,
  thumbnail TEXT NOT NULL,
  captions_urls TEXT NOT NULL DEFAULT '{}',   -- JSON {locale: url}
  PRIMARY KEY (pin_id, format)
) WITHOUT ROWID;

-- Board membership: a pin saved to a board (and maybe a section). The pin's own board_id
-- is where it was first pinned; saves by others land here too.
CREATE TABLE board_pins (
  board_id INTEGER NOT NULL REFERENCES boards(id) ON DELETE CASCADE,
  pin_id INTEGER NOT NULL REFERENCES pins(id) ON DELETE CASCADE,
  section_id INTEGER REFERENCES board_sections(id) ON DELETE SET NULL,
  saved_by INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  position REAL NOT NULL,               -- smaller first; a new save takes min - 1
  created_at INTEGER NOT NULL,
  PRIMARY KEY (board_id, pin_id)
);
CREATE INDEX board_pins_order ON board_pins(board_id, position);
CREATE INDEX board_pins_pin ON board_pins(pin_id);
CREATE INDEX board_pins_section ON board_pins(section_id, position);

CREATE TABLE follows (
  follower_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  target_type TEXT NOT NULL CHECK (target_type IN ('user','board','interest')),
  target_id INTEGER NOT NULL,
  explicit INTEGER NOT NULL DEFAULT 1,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (follower_id, target_type, target_id)
) WITHOUT ROWID;
CREATE INDEX follows_target ON follows(target_type, target_id);

CREATE TABLE reactions (
  pin_id INTEGER NOT NULL REFERENCES pins(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  reaction_type INTEGER NOT NULL CHECK (reaction_type BETWEEN 1 AND 20),
  created_at INTEGER NOT NULL,
  PRIMARY KEY (pin_id, user_id)
) WITHOUT ROWID;

-- Counts per type kept beside the rows (floor 0; a zero count row is deleted).
CREATE TABLE pin_reaction_counts (
  pin_id INTEGER NOT NULL REFERENCES pins(id) ON DELETE CASCADE,
  reaction_type INTEGER NOT NULL,
  count INTEGER NOT NULL CHECK (count > 0),
  PRIMARY KEY (pin_id, reaction_type)
) WITHOUT ROWID;

CREATE TABLE comments (
  id INTEGER PRIMARY KEY,
  pin_id INTEGER NOT NULL REFERENCES pins(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  parent_id INTEGER REFERENCES comments(id) ON DELETE CASCADE,
  text TEXT NOT NULL CHECK (length(text) BETWEEN 1 AND 2000),
  tags TEXT NOT NULL DEFAULT '[]',          -- JSON [{userId, offset, length}]
  like_count INTEGER NOT NULL DEFAULT 0 CHECK (like_count >= 0),
  helpful_count INTEGER NOT NULL DEFAULT 0 CHECK (helpful_count >= 0),
  reply_count INTEGER NOT NULL DEFAULT 0 CHECK (reply_count >= 0),
  highlighted_by_pin_owner INTEGER NOT NULL DEFAULT 0,
  is_hidden INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX comments_pin ON comments(pin_id, parent_id, created_at DESC);
