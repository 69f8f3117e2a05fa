// Authorization of the social calls against the board policy (src/boards/policy.ts): every role
// of the cast, on the public and the secret cast board, for every board action the social calls
// implement. The status must be the one written by hand in board-policy-expected.ts, and a refused call
// must leave every social row as it was. Then sponsorship's own rule: creator or sponsor only.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { BOARD_ROLES, type BoardAction, type BoardRole } from "~/boards/policy.ts";
import type { Browser } from "./accounts-helpers.ts";
import { expectedStatus } from "./board-policy-expected.ts";
import { CAST, CAST_BOARDS, castBrowsers, freshId, seedCast } from "./roles-fixture.ts";
import { PINS, browserAs, call, seedSocial } from "./social-fixture.ts";

let browsers: Map<BoardRole, Browser>;

beforeAll(async () => {
  await seedCast();
  await seedSocial();
  browsers = new Map(await castBrowsers());
});

/** Every row a social call may write, as one comparable value. */
async function snapshot(): Promise<string> {
  const tables = [
    "SELECT board_id, user_id, status, access, type FROM board_collaborators ORDER BY board_id, user_id",
    "SELECT follower_id, target_type, target_id FROM follows ORDER BY 1, 2, 3",
    "SELECT pin_id, user_id, reaction_type FROM reactions ORDER BY 1, 2",
    "SELECT pin_id, reaction_type, count FROM pin_reaction_counts ORDER BY 1, 2",
    "SELECT pin_id, user_id FROM did_its ORDER BY 1, 2",
    "SELECT id, collaborator_count, follower_count, is_collaborative FROM boards ORDER BY id",
    "SELECT id, did_it_images_count, sponsorship FROM pins ORDER BY id",
    "SELECT id, follower_count, following_count FROM users ORDER BY id",
  ];
  const results = await env.DB.batch(tables.map((sql) => env.DB.prepare(sql)));
  return JSON.stringify(results.map((result) => result.results));
}

async function newUser(): Promise<number> {
  const id = freshId();
  await env.DB.prepare("INSERT INTO users (id, username, email, created_at) VALUES (?1, ?2, ?3, 0)").bind(id, `target_${id}`, `t${id}@cast.test`).run();
  return id;
}

async function pendingRow(boardId: number, type: "invite" | "request"): Promise<number> {
  const id = await newUser();
  await env.DB.prepare("INSERT INTO board_collaborators (board_id, user_id, status, access, type, invited_by, created_at) VALUES (?1, ?2, 'new', 'write,delete', ?3, NULL, 0)").bind(boardId, id, type).run();
  return id;
}

const PIN_OF = { [CAST_BOARDS.public]: PINS.public, [CAST_BOARDS.secret]: PINS.secret } as Record<number, number>;

interface Case {
  /** Makes what the call needs, answers the call's options. */
  prepare: (boardId: number, role: BoardRole) => Promise<{ name: string; action: "get" | "create" | "update" | "delete"; options: Record<string, unknown> }>;
  /** Puts back what a successful call changed, so the next role meets the same cast. */
  undo?: (boardId: number, role: BoardRole) => Promise<void>;
}

const CASES: Partial<Record<BoardAction, Case>> = {
  list_collaborators: {
    prepare: async (boardId) => ({ name: "BoardCollaboratorsResource", action: "get", options: { board_id: String(boardId) } }),
  },
  invite_collaborator: {
    prepare: async (boardId) => ({ name: "BoardCollaboratorResource", action: "create", options: { board_id: String(boardId), user_ids: [String(await newUser())] } }),
  },
  answer_join_request: {
    prepare: async (boardId) => ({ name: "BoardCollaboratorResource", action: "update", options: { board_id: String(boardId), user_id: String(await pendingRow(boardId, "request")), action: "deny" } }),
  },
  remove_collaborator: {
    prepare: async (boardId) => ({ name: "BoardCollaboratorResource", action: "delete", options: { board_id: String(boardId), user_id: String(await pendingRow(boardId, "invite")) } }),
  },
  leave_board: {
    prepare: async (boardId, role) => ({
      name: "BoardCollaboratorResource",
      action: "delete",
      options: { board_id: String(boardId), user_id: String(role === "signed_out" ? CAST.collaborator_write : CAST[role]) },
    }),
    undo: async (boardId, role) => {
      const access = role === "collaborator_delete" ? "write,delete" : "write";
      await env.DB.batch([
        env.DB.prepare("INSERT INTO board_collaborators (board_id, user_id, status, access, type, invited_by, created_at) VALUES (?1, ?2, 'accepted', ?3, 'invite', ?4, 0)").bind(boardId, CAST[role as keyof typeof CAST], access, CAST.owner),
        env.DB.prepare("UPDATE boards SET collaborator_count = collaborator_count + 1 WHERE id = ?1").bind(boardId),
      ]);
    },
  },
  request_to_join: {
    prepare: async (boardId) => ({ name: "BoardCollaboratorResource", action: "create", options: { board_id: String(boardId), request: true } }),
    undo: async (boardId, role) => {
      await env.DB.prepare("DELETE FROM board_collaborators WHERE board_id = ?1 AND user_id = ?2 AND type = 'request'").bind(boardId, CAST[role as keyof typeof CAST]).run();
    },
  },
  follow_board: {
    prepare: async (boardId) => ({ name: "BoardFollowResource", action: "create", options: { board_id: String(boardId) } }),
    undo: async (boardId, role) => {
      const answer = await call(browsers.get(role)!, "BoardFollowResource", "delete", { board_id: String(boardId) });
      expect(answer.status).toBe(200);
    },
  },
  react_to_pin: {
    prepare: async (boardId) => ({ name: "PinReactionResource", action: "create", options: { pin_id: String(PIN_OF[boardId]), reaction_type: 1 } }),
    undo: async (boardId, role) => {
      expect((await call(browsers.get(role)!, "PinReactionResource", "delete", { pin_id: String(PIN_OF[boardId]) })).status).toBe(200);
    },
  },
};

/** Did-it is a react_to_pin action too. */
const DID_IT: Case = {
  prepare: async (boardId) => ({ name: "DidItResource", action: "create", options: { pin_id: String(PIN_OF[boardId]) } }),
  undo: async (boardId, role) => {
    expect((await call(browsers.get(role)!, "DidItResource", "delete", { pin_id: String(PIN_OF[boardId]) })).status).toBe(200);
  },
};

const rows = (Object.entries(CASES) as Array<[BoardAction, Case]>)
  .concat([["react_to_pin", DID_IT]])
  .flatMap(([action, testCase]) =>
    (["public", "secret"] as const).flatMap((which) => BOARD_ROLES.map((role) => [`${action} (${testCase === DID_IT ? "did-it" : "call"})`, which, role, action, testCase] as const)),
  );

describe("social calls follow the board policy table", () => {
  it.each(rows)("%s on the %s board as %s", async (_, which, role, action, testCase) => {
    const boardId = CAST_BOARDS[which];
    const request = await testCase.prepare(boardId, role);
    const before = await snapshot();
    const answer = await call(browsers.get(role)!, request.name, request.action, request.options);
    const expected = expectedStatus(role, action, which === "secret");
    expect(answer.status, JSON.stringify(answer.body.resource_response.error ?? null)).toBe(expected);
    if (expected !== 200) expect(await snapshot()).toBe(before);
    else await testCase.undo?.(boardId, role);
  });
});

describe("sponsorship: the creator or the sponsor only (spec 001 §6)", () => {
  const SPONSOR = CAST.collaborator_write;
  async function sponsoredPin(boardId: number): Promise<number> {
    const id = freshId();
    await env.DB.prepare("INSERT INTO pins (id, pinner_id, board_id, kind, title, image_signature, sponsorship, created_at, updated_at) VALUES (?1, ?2, ?3, 'image', 'Sponsored', 'sig', ?4, 0, 0)")
      .bind(id, CAST.owner, boardId, JSON.stringify({ creatorId: String(CAST.owner), sponsorId: String(SPONSOR), status: 0 }))
      .run();
    return id;
  }

  it.each([
    ["the creator", CAST.owner, CAST_BOARDS.public, 200],
    ["the sponsor", SPONSOR, CAST_BOARDS.public, 200],
    ["another collaborator", CAST.collaborator_delete, CAST_BOARDS.public, 403],
    ["a follower", CAST.follower, CAST_BOARDS.public, 403],
    ["a stranger", CAST.stranger, CAST_BOARDS.public, 403],
    ["signed out", null, CAST_BOARDS.public, 401],
    ["a stranger, pin on the secret board", CAST.stranger, CAST_BOARDS.secret, 404],
    ["signed out, pin on the secret board", null, CAST_BOARDS.secret, 404],
    ["the sponsor, pin on the secret board", SPONSOR, CAST_BOARDS.secret, 200],
  ])("%s", async (_, userId, boardId, status) => {
    const pin = await sponsoredPin(boardId);
    for (const action of ["approve", "decline", "delete_sponsor", "delete_creator"] as const) {
      const browser = userId === null ? browsers.get("signed_out")! : await browserAs(userId);
      const before = await snapshot();
      const answer = await call(browser, "SponsorshipResource", "update", { pin_id: String(pin), action });
      if (status === 200) {
        expect(answer.status).toBe(200);
        // Put the pending sponsorship back so each action starts from the same state.
        await env.DB.prepare("UPDATE pins SET sponsorship = ?2 WHERE id = ?1").bind(pin, JSON.stringify({ creatorId: String(CAST.owner), sponsorId: String(SPONSOR), status: 0 })).run();
      } else {
        expect(answer.status).toBe(status);
        expect(await snapshot()).toBe(before);
      }
    }
  });
});
