-- What a visit saw before it signed up (spec 000 §3 signup payload: visited_pages and
-- user_behavior_data; spec 001 §3 Session viewedImages, §9: at most 11). One row per account,
-- written in the sign-up's own batch; JSON arrays of site paths (at most 20, 10 of them pin
-- pages) and of image signatures (at most 11), newest first. Gone with the account.
CREATE TABLE signup_trails (
  user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  visited_pages TEXT NOT NULL DEFAULT '[]',
  viewed_images TEXT NOT NULL DEFAULT '[]',
  created_at INTEGER NOT NULL
);
