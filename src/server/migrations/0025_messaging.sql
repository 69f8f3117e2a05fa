-- Conversations and messages (spec 000 §3 "Conversation", "Message"; spec 001 §3 "Contact
-- request"). A conversation's people are its members; only they read it or post to it. A
-- member whose first message came from someone they do not follow holds it as a contact
-- request until they accept, decline or block. Times are epoch milliseconds.
CREATE TABLE conversations (
  id INTEGER PRIMARY KEY,
  created_by INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  -- Two people have one conversation between them: "<lower id>:<higher id>"; NULL for groups.
  pair_key TEXT UNIQUE,
  -- Addresses with no account yet that the conversation was also started with (JSON list).
  emails TEXT NOT NULL DEFAULT '[]',
  last_message_id INTEGER,
  -- The last message's time: the inbox's order.
  updated_at INTEGER NOT NULL
);

CREATE TABLE conversation_members (
  conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  -- active: in the inbox; request: a contact request not yet answered; declined: answered no.
  status TEXT NOT NULL CHECK (status IN ('active','request','declined')),
  -- The newest message this member has seen; later messages from others are unread.
  last_read_message_id INTEGER NOT NULL DEFAULT 0,
  joined_at INTEGER NOT NULL,
  PRIMARY KEY (conversation_id, user_id)
) WITHOUT ROWID;
CREATE INDEX conversation_members_user ON conversation_members(user_id, status);

CREATE TABLE conversation_messages (
  id INTEGER PRIMARY KEY,
  conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  sender_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  text TEXT NOT NULL CHECK (length(text) <= 2000),
  created_at INTEGER NOT NULL,
  -- At most one attachment; each is re-checked against its visibility rule for every reader.
  pin_id INTEGER,
  board_id INTEGER,
  user_id INTEGER,
  did_it_id INTEGER,
  CHECK ((pin_id IS NOT NULL) + (board_id IS NOT NULL) + (user_id IS NOT NULL) + (did_it_id IS NOT NULL) <= 1)
);
CREATE INDEX conversation_messages_conversation ON conversation_messages(conversation_id, id);
