// A small world with every kind of private thing a stranger must not reach: secret, protected
// and archived boards, hidden, deleted and unsafe pins, a private adult, an under-16 account
// (one private as the settings keep it, one whose flag says public), a limited login, and a
// collaborator. Each pin's words are its own, so a search for them finds only that pin.
import { env } from "cloudflare:workers";
import { createSession } from "./session-fixture.ts";

export const T0 = 1_700_000_000_000;

export const USERS = {
  ana: 1,
  bo: 2,
  cy: 3,
  mia: 4,
  lou: 5,
  sam: 6,
  teo: 7,
} as const;

const BOARDS = {
  public: 10,
  secret: 11,
  protected: 12,
  archived: 13,
  cyPublic: 14,
  miaPublic: 15,
  samPublic: 16,
  teoPublic: 17,
} as const;

/** Pin id → [pinner, board (null: boardless), title word, flags]. */
export const PINS = {
  open: 101,
  secret: 102,
  protected: 103,
  archived: 104,
  hidden: 105,
  deleted: 106,
  byPrivate: 107,
  byMinor: 108,
  boardless: 109,
  unsafe: 110,
  byLimited: 111,
  byUnflaggedMinor: 112,
} as const;

interface PinSpec {
  id: number;
  pinner: number;
  board: number | null;
  word: string;
  hidden?: boolean;
  deleted?: boolean;
  unsafe?: boolean;
}

const PIN_SPECS: PinSpec[] = [
  { id: PINS.open, pinner: USERS.ana, board: BOARDS.public, word: "marigold" },
  { id: PINS.secret, pinner: USERS.ana, board: BOARDS.secret, word: "hushpuppy" },
  { id: PINS.protected, pinner: USERS.ana, board: BOARDS.protected, word: "guardrail" },
  { id: PINS.archived, pinner: USERS.ana, board: BOARDS.archived, word: "balconette" },
  { id: PINS.hidden, pinner: USERS.ana, board: BOARDS.public, word: "cloakroom", hidden: true },
  { id: PINS.deleted, pinner: USERS.ana, board: BOARDS.public, word: "erasure", deleted: true },
  { id: PINS.byPrivate, pinner: USERS.cy, board: BOARDS.cyPublic, word: "quietude" },
  { id: PINS.byMinor, pinner: USERS.mia, board: BOARDS.miaPublic, word: "sketchbook" },
  { id: PINS.boardless, pinner: USERS.ana, board: null, word: "driftwood" },
  { id: PINS.unsafe, pinner: USERS.ana, board: BOARDS.public, word: "cliffjump", unsafe: true },
  { id: PINS.byLimited, pinner: USERS.lou, board: null, word: "readingnook" },
  { id: PINS.byUnflaggedMinor, pinner: USERS.teo, board: BOARDS.teoPublic, word: "doodlepad" },
];

export async function seedPrivacyWorld(): Promise<void> {
  const db = env.DB;
  const user = (id: number, username: string, extra: { private?: boolean; under16?: boolean; limited?: boolean } = {}) =>
    db
      .prepare(
        `INSERT INTO users (id, username, email, full_name, image_key, is_private_profile, is_under_16, is_under_18, login_state, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7, ?8, 0)`,
      )
      .bind(id, username, `${username}@pinloom.test`, `${username[0]!.toUpperCase()}${username.slice(1)} Person`, `users/${id}`, extra.private ? 1 : 0, extra.under16 ? 1 : 0, extra.limited ? "limited" : "full");
  const board = (id: number, owner: number, slug: string, privacy: string, archived = false) =>
    db
      .prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, archived_at, created_at, updated_at) VALUES (?1, ?2, ?3, ?3, ?4, ?5, 0, 0)")
      .bind(id, owner, slug, privacy, archived ? T0 : null);
  const statements = [
    user(USERS.ana, "ana"),
    user(USERS.bo, "bo"),
    user(USERS.cy, "cy", { private: true }),
    user(USERS.mia, "mia", { private: true, under16: true }),
    user(USERS.lou, "lou", { limited: true }),
    user(USERS.sam, "sam"),
    user(USERS.teo, "teo", { under16: true }),
    board(BOARDS.public, USERS.ana, "weeknight", "public"),
    board(BOARDS.secret, USERS.ana, "surprise", "secret"),
    board(BOARDS.protected, USERS.ana, "gifts", "protected"),
    board(BOARDS.archived, USERS.ana, "old-flat", "public", true),
    board(BOARDS.cyPublic, USERS.cy, "quiet", "public"),
    board(BOARDS.miaPublic, USERS.mia, "sketches", "public"),
    board(BOARDS.samPublic, USERS.sam, "finds", "public"),
    board(BOARDS.teoPublic, USERS.teo, "doodles", "public"),
    db.prepare("INSERT INTO board_collaborators (board_id, user_id, status, created_at) VALUES (?1, ?2, 'accepted', 0)").bind(BOARDS.secret, USERS.bo),
  ];
  for (const pin of PIN_SPECS) {
    statements.push(
      db
        .prepare(
          `INSERT INTO pins (id, pinner_id, board_id, kind, title, description, category, image_signature, is_hidden, is_deleted, is_unsafe, created_at, updated_at)
           VALUES (?1, ?2, ?3, 'image', ?4, ?5, 'home', 'sig', ?6, ?7, ?8, ?9, ?9)`,
        )
        .bind(pin.id, pin.pinner, pin.board, `A ${pin.word} pin`, `All about ${pin.word}`, pin.hidden ? 1 : 0, pin.deleted ? 1 : 0, pin.unsafe ? 1 : 0, T0 + pin.id),
      db
        .prepare("INSERT INTO pin_images VALUES (?1, '236x', ?2, 236, 354, '#a1b2c3'), (?1, '474x', ?3, 474, 711, '#a1b2c3'), (?1, 'orig', ?4, 800, 1200, '#a1b2c3')")
        .bind(pin.id, `/media/pins/${pin.id}/236x.jpg`, `/media/pins/${pin.id}/474x.jpg`, `/media/pins/${pin.id}/orig.jpg`),
    );
    if (pin.board !== null) {
      statements.push(
        db.prepare("INSERT INTO board_pins (board_id, pin_id, saved_by, position, created_at) VALUES (?1, ?2, ?3, ?2, ?4)").bind(pin.board, pin.id, pin.pinner, T0),
      );
    }
  }
  // Sam saved every pin they could have met to their public board: a save never makes a pin
  // more public than where it was first pinned.
  for (const id of [PINS.open, PINS.archived, PINS.byPrivate, PINS.byMinor, PINS.hidden, PINS.secret, PINS.byUnflaggedMinor]) {
    statements.push(db.prepare("INSERT INTO board_pins (board_id, pin_id, saved_by, position, created_at) VALUES (?1, ?2, ?3, ?2, ?4)").bind(BOARDS.samPublic, id, USERS.sam, T0));
  }
  await db.batch(statements);
}

export async function sessionCookie(userId: number): Promise<string> {
  return (await createSession(userId)).cookie;
}
