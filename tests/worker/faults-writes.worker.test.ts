// D1 failing in the middle of a write (save, move, bulk action, comment, sign-up): nothing is
// half-applied, the person gets the 503 envelope with Retry-After, and a retry with the same
// client request id applies once; a replay after success answers the first answer again.
// The failures run the batch for real up to a statement past the write, then fail it, so the
// rollback checked here is D1's own.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { Browser, USERS, seedAccounts, type Envelope } from "./accounts-helpers.ts";
import { createSession } from "./session-fixture.ts";
import { D1_TIMEOUT, Faults, LEAKS } from "./faults.ts";
import { runHousekeeping } from "~/server/housekeeping.server.ts";
import { CLIENT_REQUEST_RETENTION_MS } from "~/server/client-requests.server.ts";

const faults = new Faults();
const ana = USERS.ana.id;
const DINNERS = 10;
const DESSERTS = 11;
const PINS = [201, 202, 203, 204, 205, 206];

beforeAll(async () => {
  await seedAccounts();
  const db = env.DB;
  await db.batch([
    db.prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, created_at, updated_at) VALUES (?1, ?2, 'Dinners', 'dinners', 'public', 0, 0), (?3, ?2, 'Desserts', 'desserts', 'public', 0, 0)").bind(DINNERS, ana, DESSERTS),
    ...PINS.flatMap((id, index) => [
      db.prepare("INSERT INTO pins (id, pinner_id, board_id, kind, title, image_signature, created_at, updated_at) VALUES (?1, ?2, ?3, 'image', ?4, 'sig', ?5, ?5)").bind(id, ana, DINNERS, `Pin ${id}`, 1_700_000_000_000 + id),
      db.prepare("INSERT INTO pin_images (pin_id, size, url, width, height, dominant_color) VALUES (?1, '236x', ?2, 236, 300, '#abcdef')").bind(id, `/media/pins/${id}/236x.jpg`),
      db.prepare("INSERT INTO board_pins (board_id, pin_id, saved_by, position, created_at) VALUES (?1, ?2, ?3, ?4, 0)").bind(DINNERS, id, ana, index + 1),
    ]),
    db.prepare("UPDATE boards SET pin_count = (SELECT count(*) FROM board_pins bp WHERE bp.board_id = boards.id), sectionless_pin_count = (SELECT count(*) FROM board_pins bp WHERE bp.board_id = boards.id)"),
    db.prepare("UPDATE pins SET save_count = 1"),
  ]);
});

/** Ana's browser, reaching the Worker through the wrapped bindings. */
async function signedIn(): Promise<Browser> {
  const browser = new Browser(undefined, faults.fetch);
  browser.cookies.set("__Host-pinloom_sess", (await createSession(ana)).token);
  return browser;
}

const newId = () => `write-${crypto.randomUUID()}`;

function call(browser: Browser, path: string, body: unknown, clientId: string, form = false): Promise<Response> {
  const headers = { "x-client-request-id": clientId, "content-type": form ? "application/x-www-form-urlencoded" : "application/json" };
  return browser.fetch(path, { method: "POST", body: form ? new URLSearchParams(body as Record<string, string>).toString() : JSON.stringify(body), headers });
}
const resource = (browser: Browser, name: string, action: string, options: unknown, clientId: string) => call(browser, `/resource/${name}/${action}/`, { options }, clientId);

/** The failed try's answer: the 503 envelope with Retry-After, nothing internal. */
async function expectUnavailable(response: Response): Promise<void> {
  expect(response.status).toBe(503);
  expect(response.headers.get("retry-after")).toBe("10");
  const text = await response.text();
  expect(text).not.toMatch(LEAKS);
  const body = JSON.parse(text) as { resource_response?: Envelope; code?: number; message?: string };
  const envelope = body.resource_response ?? (body as Envelope);
  expect(envelope).toMatchObject({ status: "failure", code: 20, message: "Pinloom is briefly unavailable. Please try again in a moment." });
}

const rows = async <T,>(sql: string, ...values: unknown[]) => (await env.DB.prepare(sql).bind(...values).all<T>()).results;
const one = async <T,>(sql: string, ...values: unknown[]) => (await rows<T>(sql, ...values))[0]!;
const claims = (clientId: string) => one<{ n: number }>("SELECT count(*) AS n FROM client_requests WHERE client_id = ?1", clientId);

/** Every row a pin's saves touch. */
const saveState = (pinId: number) =>
  Promise.all([
    rows("SELECT board_id, section_id, saved_by FROM board_pins WHERE pin_id = ?1 ORDER BY board_id", pinId),
    one("SELECT board_id, save_count FROM pins WHERE id = ?1", pinId),
    rows("SELECT id, pin_count, sectionless_pin_count, cover_pin_id FROM boards WHERE id IN (?1, ?2) ORDER BY id", DINNERS, DESSERTS),
    rows("SELECT board_id FROM recent_boards WHERE user_id = ?1", ana),
  ]);

describe("a save", () => {
  it("is not half-applied when D1 fails mid-batch, and its retry applies once", async () => {
    const browser = await signedIn();
    const id = newId();
    const before = await saveState(201);
    faults.failD1({ when: /UPDATE boards SET updated_at/, midway: true, times: 1 });
    await expectUnavailable(await resource(browser, "RepinResource", "create", { pin_id: "201", board_id: String(DESSERTS) }, id));
    expect(await saveState(201)).toEqual(before);
    expect(await claims(id)).toEqual({ n: 0 });

    const retry = await resource(browser, "RepinResource", "create", { pin_id: "201", board_id: String(DESSERTS) }, id);
    expect(retry.status).toBe(200);
    const first = await retry.json();
    const [saves, pin, boards] = await saveState(201);
    expect(saves).toEqual([
      { board_id: DINNERS, section_id: null, saved_by: ana },
      { board_id: DESSERTS, section_id: null, saved_by: ana },
    ]);
    expect(pin).toEqual({ board_id: DINNERS, save_count: 2 });
    expect(boards).toContainEqual({ id: DESSERTS, pin_count: 1, sectionless_pin_count: 1, cover_pin_id: null });

    const replay = await resource(browser, "RepinResource", "create", { pin_id: "201", board_id: String(DESSERTS) }, id);
    expect(replay.status).toBe(200);
    expect(replay.headers.get("x-client-request-replayed")).toBe("1");
    expect(await replay.json()).toEqual(first);
    expect((await saveState(201))[2]).toContainEqual({ id: DESSERTS, pin_count: 1, sectionless_pin_count: 1, cover_pin_id: null });
    expect(await claims(id)).toEqual({ n: 1 });
  });

  it("D1 answering with its timeout is the same 503, and nothing is saved", async () => {
    const browser = await signedIn();
    const before = await saveState(206);
    faults.failD1({ when: /INSERT INTO board_pins/, message: D1_TIMEOUT, delayMs: 30, times: 1 });
    await expectUnavailable(await resource(browser, "RepinResource", "create", { pin_id: "206", board_id: String(DESSERTS) }, newId()));
    expect(await saveState(206)).toEqual(before);
    faults.heal();
  });
});

describe("a move", () => {
  it("leaves the pin where it was when D1 fails mid-batch; the retry moves it once and its replay answers the same", async () => {
    const browser = await signedIn();
    const id = newId();
    const options = { id: "202", board_id: String(DESSERTS) };
    const before = await saveState(202);
    faults.failD1({ when: /DELETE FROM board_pins/, midway: true, times: 1 });
    await expectUnavailable(await resource(browser, "PinResource", "update", options, id));
    expect(await saveState(202)).toEqual(before);

    const retry = await resource(browser, "PinResource", "update", options, id);
    expect(retry.status).toBe(200);
    const first = await retry.json();
    expect(first).toMatchObject({ resource_response: { data: { pin_id: "202", board_id: String(DESSERTS) } } });
    const moved = await saveState(202);
    expect(moved[0]).toEqual([{ board_id: DESSERTS, section_id: null, saved_by: ana }]);
    expect(moved[1]).toEqual({ board_id: DESSERTS, save_count: 1 });

    // The pin is no longer on Dinners: the same move sent as a new request is refused, while
    // the retried request (same id) answers what its first success answered.
    const fresh = await resource(browser, "PinResource", "update", { ...options, from_board_id: String(DINNERS) }, newId());
    expect(fresh.status).toBe(400);
    const replay = await resource(browser, "PinResource", "update", options, id);
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual(first);
    expect(await saveState(202)).toEqual(moved);
  });
});

describe("a bulk action", () => {
  it("removes nothing when D1 fails mid-batch; the retry removes each pin once and its replay answers the same", async () => {
    const browser = await signedIn();
    const id = newId();
    const options = { board_id: String(DINNERS), action: "bulkDelete", pin_ids: ["203", "204"] };
    const before = await Promise.all([saveState(203), saveState(204)]);
    faults.failD1({ when: /UPDATE boards SET cover_pin_id = NULL/, midway: true, times: 1 });
    await expectUnavailable(await resource(browser, "BoardBulkResource", "update", options, id));
    expect(await Promise.all([saveState(203), saveState(204)])).toEqual(before);

    const retry = await resource(browser, "BoardBulkResource", "update", options, id);
    expect(retry.status).toBe(200);
    const first = await retry.json();
    expect(first).toMatchObject({ resource_response: { data: { deleted: 2 } } });
    const pinCount = await one("SELECT pin_count FROM boards WHERE id = ?1", DINNERS);

    const replay = await resource(browser, "BoardBulkResource", "update", options, id);
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual(first);
    expect(await one("SELECT pin_count FROM boards WHERE id = ?1", DINNERS)).toEqual(pinCount);
    expect(await rows("SELECT pin_id FROM board_pins WHERE pin_id IN (203, 204)")).toEqual([]);
  });
});

describe("a comment", () => {
  const commentRows = () => rows<{ id: number; text: string }>("SELECT id, text FROM comments WHERE pin_id = 205 ORDER BY id");
  const commentCount = () => one<{ comment_count: number }>("SELECT comment_count FROM pins WHERE id = 205");

  it("is not posted when D1 fails mid-batch; the retry posts it once and its replay answers the same comment", async () => {
    const browser = await signedIn();
    const id = newId();
    const options = { pin_id: "205", text: "Made this twice already" };
    faults.failD1({ when: /UPDATE pins SET comment_count/, midway: true, times: 1 });
    await expectUnavailable(await resource(browser, "AggregatedCommentResource", "create", options, id));
    expect(await commentRows()).toEqual([]);
    expect(await commentCount()).toEqual({ comment_count: 0 });

    const retry = await resource(browser, "AggregatedCommentResource", "create", options, id);
    expect(retry.status).toBe(200);
    const first = await retry.json<{ resource_response: { data: { id: string } } }>();
    const replay = await resource(browser, "AggregatedCommentResource", "create", options, id);
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual(first);
    const stored = await commentRows();
    expect(stored).toEqual([{ id: Number(first.resource_response.data.id), text: "Made this twice already" }]);
    expect(await commentCount()).toEqual({ comment_count: 1 });
  });

  it("posted while storage fails right after the write: the retry is told it was received, and nothing is posted twice", async () => {
    const browser = await signedIn();
    const id = newId();
    const options = { pin_id: "205", text: "The answer to this one got lost" };
    const before = (await commentRows()).length;
    // The batch commits; the read of the new comment for the answer fails.
    faults.failD1({ when: /FROM comments c\b[\s\S]*WHERE c\.id = /, times: 1 });
    await expectUnavailable(await resource(browser, "AggregatedCommentResource", "create", options, id));
    faults.heal();
    expect((await commentRows()).length).toBe(before + 1);
    const retry = await resource(browser, "AggregatedCommentResource", "create", options, id);
    expect(retry.status).toBe(409);
    expect(await retry.json()).toMatchObject({ resource_response: { code: 6, message: "This change was already received. Reload the page to see it." } });
    expect((await commentRows()).length).toBe(before + 1);
    expect(await commentCount()).toEqual({ comment_count: before + 1 });
  });

  it("two tries of one comment at the same time post it once", async () => {
    const browser = await signedIn();
    const id = newId();
    const options = { pin_id: "205", text: "Sent from two tabs at once" };
    const answers = await Promise.all([0, 1].map(() => resource(browser, "AggregatedCommentResource", "create", options, id)));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses).toContain(200);
    for (const status of statuses) expect([200, 409]).toContain(status);
    expect(await rows("SELECT id FROM comments WHERE text = 'Sent from two tabs at once'")).toHaveLength(1);
  });

  it("an answer that could not be kept still leaves the comment posted once", async () => {
    const browser = await signedIn();
    const id = newId();
    const options = { pin_id: "205", text: "Kept without its answer" };
    faults.failD1({ when: /ON CONFLICT \(scope, client_id\) DO UPDATE SET answer/, times: 1 });
    const first = await resource(browser, "AggregatedCommentResource", "create", options, id);
    expect(first.status).toBe(200);
    expect((await resource(browser, "AggregatedCommentResource", "create", options, id)).status).toBe(409);
    expect(await rows("SELECT id FROM comments WHERE text = 'Kept without its answer'")).toHaveLength(1);
  });
});

describe("a sign-up", () => {
  const fields = (name: string) => ({
    email: `${name}@pinloom.test`,
    username: name,
    password: "Sunny-Day#42",
    first_name: "Nina",
    last_name: "Park",
    country: "US",
    locale: "en_US",
    referrer: "",
  });
  const accounts = (name: string) => rows<{ id: number }>("SELECT id FROM users WHERE username = ?1", name);

  it("makes no account when D1 fails mid-batch; the retry makes one, and its replay signs the same account in", async () => {
    const browser = new Browser(undefined, faults.fetch);
    const id = newId();
    faults.failD1({ when: /INSERT INTO auth_tokens/, midway: true, times: 1 });
    await expectUnavailable(await call(browser, "/v3/register/email/handshake/", fields("nina_retry"), id, true));
    expect(await accounts("nina_retry")).toEqual([]);

    const retry = await call(browser, "/v3/register/email/handshake/", fields("nina_retry"), id, true);
    expect(retry.status).toBe(200);
    const made = await accounts("nina_retry");
    expect(made).toHaveLength(1);

    // The first answer was lost: the replay answers a token of its own for the same account.
    const replay = await call(browser, "/v3/register/email/handshake/", fields("nina_retry"), id, true);
    expect(replay.status).toBe(200);
    const { data } = await replay.json<Envelope<{ token: string }>>();
    expect(data.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const exchange = await browser.json("/v3/sessions/exchange/", { token: data.token, isRegistration: true });
    expect(exchange.status).toBe(200);
    expect((await exchange.json<Envelope<{ user: { id: string } }>>()).data.user.id).toBe(String(made[0]!.id));
    expect(await accounts("nina_retry")).toEqual(made);

    // Signed in from it: a later replay has no way in to give, and still no second account.
    const late = await call(new Browser(browser.ip, faults.fetch), "/v3/register/email/handshake/", fields("nina_retry"), id, true);
    expect(late.status).toBe(200);
    expect((await late.json<Envelope<{ token: string | null }>>()).data.token).toBeNull();
    expect(await accounts("nina_retry")).toEqual(made);
  });

  it("the same id from another browser is another request", async () => {
    const id = newId();
    const first = await call(new Browser(undefined, faults.fetch), "/v3/register/email/handshake/", fields("nina_first"), id, true);
    expect(first.status).toBe(200);
    const other = new Browser(undefined, faults.fetch);
    other.cookies.set("csrftoken", "e".repeat(64));
    const response = await other.fetch("/v3/register/email/handshake/", {
      method: "POST",
      body: new URLSearchParams(fields("nina_first")).toString(),
      headers: { "x-client-request-id": id, "content-type": "application/x-www-form-urlencoded", "x-csrftoken": "e".repeat(64) },
    });
    // Not a replay of the first browser's sign-up: judged on its own (the e-mail is taken).
    expect(response.status).toBe(409);
  });
});

describe("client request ids", () => {
  it("an id used for one call is refused for another, naming the header", async () => {
    const browser = await signedIn();
    const id = newId();
    expect((await resource(browser, "RepinResource", "create", { pin_id: "206", board_id: String(DINNERS) }, id)).status).toBe(200);
    const reused = await resource(browser, "AggregatedCommentResource", "create", { pin_id: "206", text: "Another call" }, id);
    expect(reused.status).toBe(400);
    expect(await reused.json()).toMatchObject({ resource_response: { code: 1, error: { message_detail: "X-Client-Request-Id: was already used for another request" } } });
  });

  it("a malformed id is a 400 naming the header, and nothing is written", async () => {
    const browser = await signedIn();
    const response = await resource(browser, "AggregatedCommentResource", "create", { pin_id: "206", text: "Bad id" }, "short");
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ resource_response: { code: 1, error: { message_detail: "X-Client-Request-Id: has an invalid format" } } });
    expect(await rows("SELECT id FROM comments WHERE text = 'Bad id'")).toEqual([]);
  });

  it("one person's id is not another's: the same id from two people is two requests", async () => {
    const id = newId();
    const anaBrowser = await signedIn();
    const ben = new Browser(undefined, faults.fetch);
    ben.cookies.set("__Host-pinloom_sess", (await createSession(USERS.ben.id)).token);
    expect((await resource(anaBrowser, "AggregatedCommentResource", "create", { pin_id: "206", text: "From Ana" }, id)).status).toBe(200);
    const fromBen = await resource(ben, "AggregatedCommentResource", "create", { pin_id: "206", text: "From Ben" }, id);
    expect(fromBen.status).toBe(200);
    expect(fromBen.headers.has("x-client-request-replayed")).toBe(false);
    expect(await rows("SELECT user_id FROM comments WHERE text IN ('From Ana', 'From Ben') ORDER BY user_id")).toEqual([{ user_id: ana }, { user_id: USERS.ben.id }]);
  });

  it("are kept a day, then housekeeping lets them go", async () => {
    const now = Date.now();
    await env.DB.prepare("INSERT INTO client_requests (scope, client_id, call, answer, created_at) VALUES ('u:1', 'old-0123456789abcdef', 'POST /x', 'null', ?1), ('u:1', 'new-0123456789abcdef', 'POST /x', 'null', ?2)")
      .bind(now - CLIENT_REQUEST_RETENTION_MS - 1, now - 60_000)
      .run();
    await runHousekeeping(env.DB, now);
    expect(await rows("SELECT client_id FROM client_requests WHERE client_id IN ('old-0123456789abcdef', 'new-0123456789abcdef')")).toEqual([{ client_id: "new-0123456789abcdef" }]);
  });
});
