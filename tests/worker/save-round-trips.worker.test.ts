// A save costs at most three D1 round trips after the session read. The Worker's own fetch is
// called with a D1 binding that counts: each prepare().first/all/run/raw and each batch is one
// trip to the database. The counting lives here, on the test's side of the binding; the Worker
// runs exactly as deployed.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { BASE, BROWSER_UA } from "./fixtures.ts";
import { freshCastBoard, insertPin, row } from "./boards-helpers.ts";
import { CAST, freshId, seedCast } from "./roles-fixture.ts";
import { createSession } from "./session-fixture.ts";

const CSRF = "c".repeat(64);
/** What the session read (src/accounts/session.server.ts) selects from: the trips before it are none. */
const SESSION_READ = /\bFROM sessions\b/i;

interface Trip {
  kind: "first" | "all" | "run" | "raw" | "batch";
  sql: string[];
}

/** A D1 binding that forwards every call to `db` and records each round trip. */
function countingD1(db: D1Database, trips: Trip[]): D1Database {
  const real = new WeakMap<object, D1PreparedStatement>();
  const wrap = (statement: D1PreparedStatement, sql: string): D1PreparedStatement => {
    const wrapped = {
      bind: (...values: unknown[]) => wrap(statement.bind(...values), sql),
      first: (column?: string) => {
        trips.push({ kind: "first", sql: [sql] });
        return column === undefined ? statement.first() : statement.first(column);
      },
      all: () => {
        trips.push({ kind: "all", sql: [sql] });
        return statement.all();
      },
      run: () => {
        trips.push({ kind: "run", sql: [sql] });
        return statement.run();
      },
      raw: (options?: { columnNames?: boolean }) => {
        trips.push({ kind: "raw", sql: [sql] });
        return statement.raw(options as { columnNames: true });
      },
    } as unknown as D1PreparedStatement;
    real.set(wrapped, statement);
    sqlOf.set(wrapped, sql);
    return wrapped;
  };
  const sqlOf = new WeakMap<object, string>();
  return {
    prepare: (sql: string) => wrap(db.prepare(sql), sql),
    batch: (statements: D1PreparedStatement[]) => {
      trips.push({ kind: "batch", sql: statements.map((statement) => sqlOf.get(statement) ?? "?") });
      return db.batch(statements.map((statement) => real.get(statement) ?? statement));
    },
    exec: (sql: string) => {
      trips.push({ kind: "run", sql: [sql] });
      return db.exec(sql);
    },
    withSession: () => {
      throw new Error("the save path is not expected to open a D1 session");
    },
    dump: () => db.dump(),
  } as unknown as D1Database;
}

interface Measured {
  status: number;
  body: { resource_response?: { data?: Record<string, unknown> } };
  /** Round trips after the session read. */
  after: Trip[];
}

/** One RepinResource create as `userId`, through the Worker's default export with the counting binding. */
async function save(userId: number, options: Record<string, string>): Promise<Measured> {
  const session = await createSession(userId);
  const trips: Trip[] = [];
  const request = new Request(new URL("/resource/RepinResource/create/", BASE), {
    method: "POST",
    headers: {
      "user-agent": BROWSER_UA,
      "content-type": "application/json",
      origin: BASE,
      "x-csrftoken": CSRF,
      cookie: `csrftoken=${CSRF}; ${session.cookie}`,
    },
    body: JSON.stringify({ options }),
  });
  // The built Worker's own entry module (what wrangler deploys), called as the runtime calls it.
  const entry = "../../dist/server/entry.mjs";
  const worker = ((await import(/* @vite-ignore */ entry)) as { default: ExportedHandler<Env> }).default;
  const ctx = createExecutionContext();
  const response = await worker.fetch!(request as Request<unknown, IncomingRequestCfProperties>, { ...env, DB: countingD1(env.DB, trips) }, ctx);
  const body = await response.json<Measured["body"]>();
  await waitOnExecutionContext(ctx);
  const sessionRead = trips.findIndex((trip) => trip.sql.some((sql) => SESSION_READ.test(sql)));
  expect(sessionRead, `no session read among ${JSON.stringify(trips)}`).toBe(0);
  return { status: response.status, body, after: trips.slice(sessionRead + 1) };
}

const describeTrips = (trips: Trip[]) => trips.map((trip) => `${trip.kind}: ${trip.sql.map((sql) => sql.replace(/\s+/g, " ").slice(0, 90)).join(" | ")}`).join("\n");

beforeAll(async () => {
  await seedCast();
});

describe("a save's D1 round trips after the session read", () => {
  it("saving to a board takes at most three, and the save is stored", async () => {
    const board = await freshCastBoard(false);
    const pinId = await insertPin(freshId());
    const answer = await save(CAST.owner, { pin_id: String(pinId), board_id: String(board.boardId) });
    expect(answer.status).toBe(200);
    expect(answer.after.length, describeTrips(answer.after)).toBeLessThanOrEqual(3);
    expect(await row("SELECT section_id, saved_by FROM board_pins WHERE board_id = ?1 AND pin_id = ?2", board.boardId, pinId)).toEqual({ section_id: null, saved_by: CAST.owner });
  });

  it("saving to a section takes at most three, and the save lands in the section", async () => {
    const board = await freshCastBoard(false);
    const pinId = await insertPin(freshId());
    const answer = await save(CAST.collaborator_write, { pin_id: String(pinId), board_id: String(board.boardId), section_id: String(board.sectionId) });
    expect(answer.status).toBe(200);
    expect(answer.after.length, describeTrips(answer.after)).toBeLessThanOrEqual(3);
    expect(await row("SELECT section_id, saved_by FROM board_pins WHERE board_id = ?1 AND pin_id = ?2", board.boardId, pinId)).toEqual({ section_id: board.sectionId, saved_by: CAST.collaborator_write });
  });

  it("saving a pin already on the board takes at most three, and answers the save that stands", async () => {
    const board = await freshCastBoard(false);
    const [inSection] = board.pins;
    const answer = await save(CAST.owner, { pin_id: String(inSection), board_id: String(board.boardId) });
    expect(answer.status).toBe(200);
    expect(answer.after.length, describeTrips(answer.after)).toBeLessThanOrEqual(3);
    expect(answer.body.resource_response?.data?.["saved_info"]).toMatchObject({ boardId: String(board.boardId), sectionId: String(board.sectionId) });
    expect(await row("SELECT count(*) AS n FROM board_pins WHERE board_id = ?1 AND pin_id = ?2", board.boardId, inSection)).toEqual({ n: 1 });
  });

  it("a quick-save to the profile takes at most three, and the pin is on the profile", async () => {
    await env.DB.prepare("UPDATE users SET save_behavior = 1 WHERE id = ?1").bind(CAST.follower).run();
    const pinId = await insertPin(freshId());
    const answer = await save(CAST.follower, { pin_id: String(pinId) });
    expect(answer.status).toBe(200);
    expect(answer.after.length, describeTrips(answer.after)).toBeLessThanOrEqual(3);
    expect(await row("SELECT user_id FROM profile_saves WHERE user_id = ?1 AND pin_id = ?2", CAST.follower, pinId)).toEqual({ user_id: CAST.follower });
  });
});
