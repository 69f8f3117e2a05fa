// One cast for the authorization tests (src/boards/policy.ts): a person in each board role,
// signed in through a real session row, and a public and a secret board between them. Each
// test that changes something builds its own target first (a fresh board, pin or section) so
// every role meets the same state, then asks `expectedStatus(role, action, isPrivate)`, the
// hand-written table of board-policy-expected.ts.
import { env } from "cloudflare:workers";
import { BOARD_ROLES, type BoardRole } from "~/boards/policy.ts";
import { Browser } from "./accounts-helpers.ts";
import { createSession } from "./session-fixture.ts";

export const CAST = {
  owner: 201,
  collaborator_write: 202,
  collaborator_delete: 203,
  follower: 204,
  stranger: 205,
} as const satisfies Record<Exclude<BoardRole, "signed_out">, number>;

/** A public and a secret board of CAST.owner, both shared with the two collaborators. */
export const CAST_BOARDS = { public: 2001, secret: 2002 } as const;
export const SECRET_BOARD_NAME = "Secret plans for the cast";

let nextId = 30_000;
/** Ids for rows a test creates, clear of the cast's. */
export const freshId = () => ++nextId;

/** Inserts the cast, its boards, the collaborations and the follow. Call once per file (beforeAll). */
export async function seedCast(): Promise<void> {
  const users = Object.entries(CAST).map(([name, id]) =>
    env.DB.prepare("INSERT INTO users (id, username, email, full_name, first_name, email_verified, created_at) VALUES (?1, ?2, ?3, ?2, ?2, 1, 0)").bind(id, `cast_${name}`, `${name}@cast.test`),
  );
  const boards = [
    env.DB.prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, is_collaborative, collaborator_count, created_at, updated_at) VALUES (?1, ?2, 'Cast corkboard', 'cast-corkboard', 'public', 1, 2, 0, 0)").bind(CAST_BOARDS.public, CAST.owner),
    env.DB.prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, is_collaborative, collaborator_count, created_at, updated_at) VALUES (?1, ?2, ?3, 'secret-plans', 'secret', 1, 2, 0, 0)").bind(CAST_BOARDS.secret, CAST.owner, SECRET_BOARD_NAME),
  ];
  const collaborations = Object.values(CAST_BOARDS).flatMap((boardId) => [
    env.DB.prepare("INSERT INTO board_collaborators (board_id, user_id, status, access, type, invited_by, created_at) VALUES (?1, ?2, 'accepted', 'write', 'invite', ?3, 0)").bind(boardId, CAST.collaborator_write, CAST.owner),
    env.DB.prepare("INSERT INTO board_collaborators (board_id, user_id, status, access, type, invited_by, created_at) VALUES (?1, ?2, 'accepted', 'write,delete', 'invite', ?3, 0)").bind(boardId, CAST.collaborator_delete, CAST.owner),
  ]);
  const follow = env.DB.prepare("INSERT INTO follows (follower_id, target_type, target_id, explicit, created_at) VALUES (?1, 'user', ?2, 1, 0)").bind(CAST.follower, CAST.owner);
  await env.DB.batch([...users, ...boards, ...collaborations, follow]);
}

/** A browser signed in as the role's person (no cookie at all for signed_out). */
export async function browserFor(role: BoardRole): Promise<Browser> {
  const browser = new Browser();
  if (role !== "signed_out") {
    const session = await createSession(CAST[role]);
    browser.cookies.set("__Host-pinloom_sess", session.token);
  }
  return browser;
}

/** Every role with its browser, for `for (const [role, browser] of ...)`. */
export async function castBrowsers(): Promise<Array<[BoardRole, Browser]>> {
  return Promise.all(BOARD_ROLES.map(async (role) => [role, await browserFor(role)] as [BoardRole, Browser]));
}
