-- The visibility table (src/visibility/rules.ts) reads, for a pin, its pinner's
-- is_private_profile, is_under_16 and login_state and its own board's privacy, archived_at and
-- owner. The narrow indexes search joins through (0015) carry exactly those columns again, so
-- the rule is still read from them and never from the wide rows.
DROP INDEX users_search_visibility;
CREATE INDEX users_search_visibility ON users(id, is_private_profile, is_under_16, login_state);
DROP INDEX boards_search_visibility;
CREATE INDEX boards_search_visibility ON boards(id, privacy, archived_at, owner_id);

-- An under-16 account's profile is private whatever its flag says; the stored flag says so too,
-- as the privacy settings show it.
UPDATE users SET is_private_profile = 1 WHERE is_under_16 = 1 AND is_private_profile = 0;

-- Every media request looks up the object its key belongs to (functions/media.ts): an avatar
-- by users.image_key, a tried-it photo by did_its.image_key, a pooled pin image by the
-- pin_images rows that show it.
CREATE INDEX users_image_key ON users(image_key) WHERE image_key IS NOT NULL;
CREATE INDEX did_its_image_key ON did_its(image_key) WHERE image_key IS NOT NULL;
CREATE INDEX pin_images_pool ON pin_images(url) WHERE url LIKE '/media/pool/%';
