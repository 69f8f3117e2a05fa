-- Boards, sections and saves (issue 5; spec 001 §3 Board, §4 Board, Saving and repinning,
-- Feed list changes). Times are epoch milliseconds.
--
-- Counts (boards.pin_count, sectionless_pin_count, section_count, board_sections.pin_count,
-- users.pin_count, board_count, secret_board_count, pins.save_count) are recounted from the
-- rows in the same D1 batch as every write (src/boards/counts.server.ts), so they are exact
-- and can never go below zero, whatever runs in parallel.

-- An ownership transfer request (spec 001 §4 Board): the accepted collaborator the owner asked
-- to take the board over; cleared by cancelling.
ALTER TABLE boards ADD COLUMN pending_owner_id INTEGER REFERENCES users(id) ON DELETE SET NULL;
-- The owner's own order of their profile boards (BoardsFeedResource update); NULL until the
-- owner first reorders, smaller first.
ALTER TABLE boards ADD COLUMN position REAL;

-- The picker's recent boards (spec 001 §3 User.recent_boards): when each person last saved to
-- a board. A save upserts the row; the picker reads the five newest the person may still write to.
CREATE TABLE recent_boards (
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  board_id INTEGER NOT NULL REFERENCES boards(id) ON DELETE CASCADE,
  saved_at INTEGER NOT NULL,
  PRIMARY KEY (user_id, board_id)
) WITHOUT ROWID;
CREATE INDEX recent_boards_user ON recent_boards(user_id, saved_at DESC);

-- Quick-saves to the profile (boardless pins, the "quick-save layout" feed): a pin saved
-- without a board when the person's save_behavior says so. Position as board_pins: smaller first.
CREATE TABLE profile_saves (
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  pin_id INTEGER NOT NULL REFERENCES pins(id) ON DELETE CASCADE,
  position REAL NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (user_id, pin_id)
) WITHOUT ROWID;
CREATE INDEX profile_saves_order ON profile_saves(user_id, position);

-- Board blocking actions (spec 001 §3; GET /v3/boards/{id}/): long work on a board or one of
-- its sections (section_id -1 = the whole board) that other bulk changes must wait for. A row
-- lives while the work runs (finished_at NULL); bulk actions refuse with 409 while one does.
CREATE TABLE board_blocking_actions (
  id INTEGER PRIMARY KEY,
  board_id INTEGER NOT NULL REFERENCES boards(id) ON DELETE CASCADE,
  section_id INTEGER NOT NULL DEFAULT -1,
  kind TEXT NOT NULL,
  progress INTEGER NOT NULL DEFAULT 0 CHECK (progress BETWEEN 0 AND 100),
  created_at INTEGER NOT NULL,
  finished_at INTEGER
);
CREATE INDEX board_blocking_actions_board ON board_blocking_actions(board_id, finished_at);

-- Saves by the person who made them (the picker's "already saved here", profile saved feed).
CREATE INDEX board_pins_saved_by ON board_pins(saved_by, pin_id);
CREATE INDEX board_sections_order ON board_sections(board_id, position);
