-- Lead-gen forms on promoted pins (spec 000 "Lead-gen info": fullName, email, phoneNumber,
-- zipCode, formSubmissions). One form per ad, which asks for some of the four fields; the people
-- who send it leave one submission each per form. formSubmissions is counted from the rows, so
-- it always agrees with what the advertiser can read. Times are epoch milliseconds.

CREATE TABLE lead_forms (
  ad_id INTEGER PRIMARY KEY REFERENCES ads(id) ON DELETE CASCADE,
  -- Kept on the form so the account's reads and its deletion need no join.
  ad_account_id INTEGER NOT NULL REFERENCES ad_accounts(id) ON DELETE CASCADE,
  headline TEXT NOT NULL,
  privacy_policy_url TEXT NOT NULL,
  call_to_action TEXT NOT NULL CHECK (call_to_action IN ('SIGN_UP','GET_IN_TOUCH')),
  -- JSON array of the fields asked, in the form's order: a non-empty subset of the four.
  fields TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX lead_forms_account ON lead_forms(ad_account_id);

-- What people sent. A deleted account takes its own submissions with it (user_id cascades), and
-- a deleted ad account or ad takes the submissions it collected: personal data never outlives
-- either side. dedupe_key is who sent it: "u<user id>" signed in; signed out, the address typed
-- ("e:"), else the phone's digits ("p:"), else the network address ("a:").
CREATE TABLE lead_submissions (
  id INTEGER PRIMARY KEY,
  ad_id INTEGER NOT NULL REFERENCES lead_forms(ad_id) ON DELETE CASCADE,
  ad_account_id INTEGER NOT NULL REFERENCES ad_accounts(id) ON DELETE CASCADE,
  user_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
  dedupe_key TEXT NOT NULL,
  full_name TEXT,
  email TEXT,
  phone_number TEXT,
  zip_code TEXT,
  locale TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  UNIQUE (ad_id, dedupe_key)
);
CREATE INDEX lead_submissions_account ON lead_submissions(ad_account_id, created_at);
CREATE INDEX lead_submissions_user ON lead_submissions(user_id);
