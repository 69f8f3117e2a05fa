// The visibility table's two forms agree: for generated worlds of people (private, under 16,
// limited), boards (every privacy, archived or not, with collaborators invited or accepted),
// pins (boardless or not, deleted, hidden, unsafe, noindex) and viewers (signed out, each
// person, someone unknown), every rule's SQL condition run in D1 picks exactly the rows its JS
// predicate accepts from the world as generated, and the JS predicate over the columns the SQL
// selects (factColumns) agrees too; and no list rule admits a pin its close-up refuses. Any
// disagreement fails with the world that shows it.
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RULES, holds, type Entity, type Facts, type RuleName } from "~/visibility/rules.ts";
import { factColumns, holdsFor, visibleSql } from "~/visibility/visibility.server.ts";

interface User {
  id: number;
  is_private_profile: number;
  is_under_16: number;
  login_state: "full" | "limited";
}
interface Board {
  id: number;
  owner_id: number;
  privacy: "public" | "secret" | "protected";
  archived_at: number | null;
}
interface Collaborator {
  board_id: number;
  user_id: number;
  status: "new" | "accepted";
}
interface Pin {
  id: number;
  pinner_id: number;
  board_id: number | null;
  is_deleted: number;
  is_hidden: number;
  is_unsafe: number;
  seo_noindex_reason: string | null;
}
interface World {
  users: User[];
  boards: Board[];
  collaborators: Collaborator[];
  pins: Pin[];
}

const bit = fc.constantFrom(0, 1);

const worldArbitrary: fc.Arbitrary<World> = fc
  .record({
    users: fc.array(fc.record({ is_private_profile: bit, is_under_16: bit, login_state: fc.constantFrom<"full" | "limited">("full", "full", "limited") }), { minLength: 1, maxLength: 4 }),
    boardCount: fc.integer({ min: 0, max: 4 }),
  })
  .chain(({ users: userFlags, boardCount }) => {
    const users: User[] = userFlags.map((flags, index) => ({ id: index + 1, ...flags }));
    const userId = fc.integer({ min: 1, max: users.length });
    return fc
      .record({
        boards: fc.array(
          fc.record({ owner_id: userId, privacy: fc.constantFrom<Board["privacy"]>("public", "public", "secret", "protected"), archived_at: fc.option(fc.constant(5), { freq: 3 }) }),
          { minLength: boardCount, maxLength: boardCount },
        ),
        collaborators: fc.array(fc.record({ board: fc.nat(3), user_id: userId, status: fc.constantFrom<Collaborator["status"]>("new", "accepted", "accepted") }), { maxLength: 4 }),
        pins: fc.array(
          fc.record({
            pinner_id: userId,
            board: fc.option(fc.nat(3), { freq: 4 }),
            is_deleted: fc.constantFrom(0, 0, 0, 1),
            is_hidden: fc.constantFrom(0, 0, 0, 1),
            is_unsafe: fc.constantFrom(0, 0, 0, 1),
            seo_noindex_reason: fc.constantFrom(null, null, null, "thin"),
          }),
          { minLength: 1, maxLength: 6 },
        ),
      })
      .map(({ boards: boardSpecs, collaborators: collaboratorSpecs, pins: pinSpecs }) => {
        const boards: Board[] = boardSpecs.map((board, index) => ({ id: 10 + index, ...board }));
        const boardAt = (index: number | null) => (index === null || boards.length === 0 ? null : boards[index % boards.length]!.id);
        const seen = new Set<string>();
        const collaborators: Collaborator[] = [];
        for (const spec of collaboratorSpecs) {
          const boardId = boardAt(spec.board);
          if (boardId === null || seen.has(`${boardId}.${spec.user_id}`)) continue;
          seen.add(`${boardId}.${spec.user_id}`);
          collaborators.push({ board_id: boardId, user_id: spec.user_id, status: spec.status });
        }
        const pins: Pin[] = pinSpecs.map(({ board, ...pin }, index) => ({ id: 100 + index, board_id: boardAt(board), ...pin }));
        return { users, boards, collaborators, pins };
      });
  });

/** Who asks: signed out, each person, and an id that matches nobody. */
const viewersOf = (world: World): Array<number | null> => [null, ...world.users.map((user) => user.id), 99];

/** The world's rows, replacing the last world's: statements for the same batch as the reads. */
function storeStatements(world: World): D1PreparedStatement[] {
  const db = env.DB;
  return [
    db.prepare("DELETE FROM board_collaborators"),
    db.prepare("DELETE FROM pins"),
    db.prepare("DELETE FROM boards"),
    db.prepare("DELETE FROM users"),
    db
      .prepare(
        `INSERT INTO users (id, username, email, is_private_profile, is_under_16, login_state, created_at)
         SELECT value ->> 'id', 'u' || (value ->> 'id'), 'u' || (value ->> 'id') || '@pinloom.test', value ->> 'is_private_profile', value ->> 'is_under_16', value ->> 'login_state', 0
         FROM json_each(?1)`,
      )
      .bind(JSON.stringify(world.users)),
    db
      .prepare(
        `INSERT INTO boards (id, owner_id, name, slug, privacy, archived_at, created_at, updated_at)
         SELECT value ->> 'id', value ->> 'owner_id', 'b' || (value ->> 'id'), 'b' || (value ->> 'id'), value ->> 'privacy', value ->> 'archived_at', 0, 0
         FROM json_each(?1)`,
      )
      .bind(JSON.stringify(world.boards)),
    db
      .prepare("INSERT INTO board_collaborators (board_id, user_id, status, created_at) SELECT value ->> 'board_id', value ->> 'user_id', value ->> 'status', 0 FROM json_each(?1)")
      .bind(JSON.stringify(world.collaborators)),
    db
      .prepare(
        `INSERT INTO pins (id, pinner_id, board_id, kind, image_signature, is_deleted, is_hidden, is_unsafe, seo_noindex_reason, created_at, updated_at)
         SELECT value ->> 'id', value ->> 'pinner_id', value ->> 'board_id', 'image', 'sig', value ->> 'is_deleted', value ->> 'is_hidden', value ->> 'is_unsafe', value ->> 'seo_noindex_reason', 0, 0
         FROM json_each(?1)`,
      )
      .bind(JSON.stringify(world.pins)),
  ];
}

/** How each rule's rows are read: the subject table, its joins, and the aliases the rule is given. */
interface Subject {
  from: string;
  aliases: Partial<Record<Entity, string>>;
  /** The facts for one subject row, taken from the world as generated (not from D1). */
  facts: (world: World, id: number, viewer: number | null) => Facts;
  ids: (world: World) => number[];
}

const collaborates = (world: World, boardId: number | null, viewer: number | null) =>
  viewer !== null && boardId !== null && world.collaborators.some((row) => row.board_id === boardId && row.user_id === viewer && row.status === "accepted");

const PIN_SUBJECT: Subject = {
  from: "pins p JOIN users pu ON pu.id = p.pinner_id LEFT JOIN boards b ON b.id = p.board_id",
  aliases: { pin: "p", board: "b", pinner: "pu" },
  ids: (world) => world.pins.map((pin) => pin.id),
  facts: (world, id, viewer) => {
    const pin = world.pins.find((row) => row.id === id)!;
    const board = world.boards.find((row) => row.id === pin.board_id) ?? null;
    return {
      rows: { pin: { ...pin }, board: board ? { ...board } : null, pinner: { ...world.users.find((user) => user.id === pin.pinner_id)! } },
      collaborates: { board: collaborates(world, pin.board_id, viewer) },
    };
  },
};
const PROFILE_SUBJECT: Subject = {
  from: "users u",
  aliases: { user: "u" },
  ids: (world) => world.users.map((user) => user.id),
  facts: (world, id) => ({ rows: { user: { ...world.users.find((user) => user.id === id)! } } }),
};
const BOARD_SUBJECT: Subject = {
  from: "boards b JOIN users o ON o.id = b.owner_id",
  aliases: { board: "b", owner: "o" },
  ids: (world) => world.boards.map((board) => board.id),
  facts: (world, id, viewer) => {
    const board = world.boards.find((row) => row.id === id)!;
    return {
      rows: { board: { ...board }, owner: { ...world.users.find((user) => user.id === board.owner_id)! } },
      collaborates: { board: collaborates(world, board.id, viewer) },
    };
  },
};

const subjectOf = (rule: RuleName): Subject =>
  (RULES[rule].entities as readonly Entity[]).includes("pin") ? PIN_SUBJECT : (RULES[rule].entities as readonly Entity[]).includes("user") ? PROFILE_SUBJECT : BOARD_SUBJECT;
/** Rules read for no one (shared feeds) are compiled without a viewer; every other rule for each viewer. */
const NO_VIEWER: ReadonlySet<RuleName> = new Set(["feedPin", "sitemapPin"]);
const RULE_NAMES = Object.keys(RULES) as RuleName[];

const SUBJECTS = [PIN_SUBJECT, PROFILE_SUBJECT, BOARD_SUBJECT] as const;
const rulesOf = (subject: Subject) => RULE_NAMES.filter((rule) => subjectOf(rule) === subject);

/**
 * One statement per kind of subject: every viewer (a VALUES row) against every subject row, with
 * each of its rules' verdicts (`r_<rule>`) and the fact columns each rule reads.
 */
function subjectStatement(subject: Subject, viewers: Array<number | null>): D1PreparedStatement {
  const idColumn = subject.aliases.pin ? "p.id" : subject.aliases.user ? "u.id" : "b.id";
  const viewer = "vw.id";
  const columns = rulesOf(subject).flatMap((rule) => [
    `CASE WHEN ${visibleSql(rule, subject.aliases, NO_VIEWER.has(rule) ? null : viewer)} THEN 1 ELSE 0 END AS r_${rule}`,
    factColumns(rule, subject.aliases, viewer),
  ]);
  return env.DB.prepare(
    `WITH vw(id) AS (SELECT value FROM json_each(?1))
     SELECT vw.id AS viewer, ${idColumn} AS id, ${columns.join(", ")}
     FROM vw, ${subject.from}`,
  ).bind(JSON.stringify(viewers));
}

/**
 * Every list of pins links to close-ups that open for the same viewer: a pin in a grid, search
 * or a shared feed (read for no one, so open to anyone) is a pin the close-up shows, and a pin
 * the close-up shows exists (no 404 where a 200 or 410 is due).
 */
const IMPLIED: Array<[RuleName, RuleName]> = [
  ["gridPin", "pin"],
  ["searchPin", "pin"],
  ["feedPin", "pin"],
  ["sitemapPin", "feedPin"],
  ["pin", "pinExists"],
];
function assertNoDeadLinks(row: Record<string, unknown>): void {
  for (const [listed, opens] of IMPLIED) {
    if (row[`r_${listed}`] === 1 && row[`r_${opens}`] !== 1) throw new Error(`${listed} lists pin ${String(row.id)} for viewer ${String(row.viewer)}, but ${opens} refuses it`);
  }
}

describe("the visibility table", () => {
  it("answers the same in SQL and in JS over 1,000 generated worlds", { timeout: 120_000 }, async () => {
    let comparisons = 0;
    await fc.assert(
      fc.asyncProperty(worldArbitrary, async (world) => {
        const viewers = viewersOf(world);
        // One round trip per world: the writes, then every read.
        const results = await env.DB.batch<Record<string, unknown> & { viewer: number | null; id: number }>([
          ...storeStatements(world),
          ...SUBJECTS.map((subject) => subjectStatement(subject, viewers)),
        ]);
        SUBJECTS.forEach((subject, index) => {
          const rows = results[results.length - SUBJECTS.length + index]!.results;
          expect(rows.length).toBe(viewers.length * subject.ids(world).length);
          for (const row of rows) {
            for (const rule of rulesOf(subject)) {
              const viewer = NO_VIEWER.has(rule) ? null : row.viewer;
              const expected = holds(rule, subject.facts(world, row.id, row.viewer), viewer);
              // Plain comparisons: an expect() per row would cost more than the SQL.
              const sql = row[`r_${rule}`] === 1;
              const overColumns = holdsFor(rule, row, viewer);
              if (sql !== expected || overColumns !== expected) {
                throw new Error(`${rule} for viewer ${String(row.viewer)} on ${row.id}: JS says ${expected}, SQL ${sql}, JS over SQL's columns ${overColumns}`);
              }
              comparisons++;
            }
            if (subject === PIN_SUBJECT) assertNoDeadLinks(row);
          }
        });
      }),
      { numRuns: 1000 },
    );
    // Every rule was compared many times over: a vacuous run would prove nothing.
    expect(comparisons).toBeGreaterThan(100_000);
  });
});
