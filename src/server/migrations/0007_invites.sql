-- Invites (issue 3 "Landing details"; spec 000 §2, §3 "Invite metadata", §6, §7, §8): a person
-- shares a pin (or a board) through a channel, and the link carries ?invite_code=. A landing
-- page looks the code up to introduce the sender. Times are epoch milliseconds.
--
-- The code is a bearer value (anyone holding the link may see who sent it), so D1 keeps only
-- its SHA-256 as the key, as sessions and auth_tokens do: a leaked row cannot be turned back
-- into a working link. Codes are 16 random bytes in base64url (22 characters).
CREATE TABLE invites (
  id TEXT PRIMARY KEY,                                   -- SHA-256 (hex) of the invite code
  sender_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  invite_channel INTEGER NOT NULL CHECK (invite_channel BETWEEN 1 AND 16),
  object_type TEXT NOT NULL CHECK (object_type IN ('pin','board')),
  object_id INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL CHECK (expires_at > created_at)
);
-- The per-sender listing and the sweep of expired rows.
CREATE INDEX invites_sender ON invites(sender_id, created_at DESC);
CREATE INDEX invites_expiry ON invites(expires_at);
-- What was shared: lets a deleted pin or board take its invites with it.
CREATE INDEX invites_object ON invites(object_type, object_id);
