// The soak (issue "faults that must not lose anything"): mixed load on the built Worker from
// many connections for a minute or more: page and API reads, searches, saves, comments and
// event batches, the writes as several signed-in demo accounts. Every write carries a marker
// unique to this run (a client request id; comment text "soak <run> #<n>"; the events'
// aux_data), and one write in ten is sent again with the same id, as a browser retries. It
// reports the answers (every non-4xx failure counts: a 5xx, a reset connection, a timeout)
// and latency, overall and per kind, then counts in the local D1 file what it wrote: every
// save and comment answered 2xx there exactly once, every event of a 2xx batch stored once,
// nothing else of this run's. Then it deletes the run's boards and comments through the API,
// so the bench's world does not grow from run to run.
//
//   node scripts/bench.mjs --only soak [--soak-duration 60] [--soak-connections 50]
import { createHash } from "node:crypto";
import { DatabaseSync } from "node:sqlite";
import { cannon } from "./lib/load.mjs";
import { localD1File } from "./lib/server.mjs";

export const SOAK_DEFAULTS = { durationS: 60, connections: 50 };

const BROWSER_UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";
/** Demo accounts that may write (docs/demo-accounts.md): not the limited, MFA or under-16 ones. */
const ACCOUNTS = ["demo", "sam", "marlowandmain", "bakeandbloom"];
const PASSWORD = "PinloomDemo#2026";
const CSRF = "5".repeat(64);
/** Secret boards each account saves into: (board, pin) pairs never repeat within a run. */
const BOARDS_PER_ACCOUNT = 6;
const PINS = 300;
const EVENTS_PER_BATCH = 10;
/** One write in RESEND_EVERY is the previous one sent again with its id: a browser's retry. */
const RESEND_EVERY = 10;
const SEARCH_TERMS = ["recipe", "autumn", "bread", "lisbon", "cake", "soup", "knit", "garden", "pasta", "linen", "lamp", "sunday"];

/**
 * The mix, one slot per request in turn: reads 55% (pages signed out 25%, signed in 5%, API
 * 15%, search 10%), saves 20%, comments 5%, event batches 20%.
 */
const MIX = ["page", "save", "api", "event", "page", "search", "save", "member", "page", "event", "api", "save", "page", "comment", "event", "search", "page", "save", "api", "event"];

/** An event's stored id, as src/events/ingest.server.ts eventKey makes it for a signed-out IPv4 sender. */
const eventKeyOf = (ip, clientUUID) => createHash("sha256").update(`ip:${ip}:${clientUUID}`).digest("hex");

const round = (n, d = 1) => (Number.isFinite(n) ? Math.round(n * 10 ** d) / 10 ** d : null);

function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** A distinct client address per n, so per-address throttles meter each simulated reader alone. */
const address = (n) => `10.${100 + ((n >> 16) & 127)}.${(n >> 8) & 255}.${n & 255}`;

function postHeaders(base, contentType, cookie = "") {
  return { "user-agent": BROWSER_UA, origin: base, cookie: `csrftoken=${CSRF}${cookie ? `; ${cookie}` : ""}`, "x-csrftoken": CSRF, "content-type": contentType };
}

async function signIn(base, username, n) {
  const handshake = await fetch(`${base}/v3/login/handshake/`, {
    method: "POST",
    headers: { ...postHeaders(base, "application/x-www-form-urlencoded"), "cf-connecting-ip": address(60_000 + n) },
    body: new URLSearchParams({ username_or_email: username, password: PASSWORD, referrer: "" }),
  });
  const token = (await handshake.json())?.data?.token;
  if (!token) throw new Error(`soak: ${username} could not sign in (handshake ${handshake.status})`);
  const exchange = await fetch(`${base}/v3/sessions/exchange/`, { method: "POST", headers: postHeaders(base, "application/json"), body: JSON.stringify({ token, isRegistration: false }) });
  const session = exchange.headers.getSetCookie().map((line) => line.split(";")[0]).find((pair) => pair.startsWith("__Host-pinloom_sess="));
  if (!session) throw new Error(`soak: ${username}'s session exchange answered ${exchange.status}`);
  return session;
}

async function resourceCall(base, cookie, name, action, options) {
  const response = await fetch(`${base}/resource/${name}/${action}/`, { method: "POST", headers: postHeaders(base, "application/json", cookie), body: JSON.stringify({ options }) });
  const body = await response.json().catch(() => null);
  if (!response.ok) throw new Error(`soak: ${name} ${action} answered ${response.status}: ${JSON.stringify(body)?.slice(0, 300)}`);
  return body.resource_response.data;
}

/**
 * One read of the local D1 file beside the running Worker: opened read-only, every row read,
 * closed at once, so the Worker's writes never wait on a lock this process holds.
 */
function reader(persistTo) {
  const file = localD1File(persistTo);
  if (!file) throw new Error(`soak: no D1 database file under ${persistTo}`);
  return (sql, ...params) => {
    const db = new DatabaseSync(file, { readOnly: true });
    try {
      return db.prepare(sql).all(...params);
    } finally {
      db.close();
    }
  };
}

export async function runSoak({ url, persistTo, durationS = SOAK_DEFAULTS.durationS, connections = SOAK_DEFAULTS.connections, log = console.log }) {
  const run = `${Date.now().toString(36)}${process.pid.toString(36)}`;
  const query = reader(persistTo);
  // What the load reads and writes: public, visible pins; a board and profile of the world.
  const pins = query(
    `SELECT p.id FROM pins p JOIN boards b ON b.id = p.board_id
     WHERE b.privacy = 'public' AND b.archived_at IS NULL AND p.is_deleted = 0 AND p.is_hidden = 0 AND p.is_unsafe = 0
       AND p.comments_disabled = 0 ORDER BY p.id DESC LIMIT ?`,
    PINS,
  ).map((row) => Number(row.id));
  if (pins.length < 50) throw new Error(`soak: the world has ${pins.length} public pins; seed it first`);
  const [boardPage] = query("SELECT u.username, b.slug FROM boards b JOIN users u ON u.id = b.owner_id WHERE b.privacy = 'public' AND b.archived_at IS NULL ORDER BY b.id LIMIT 1");
  const pages = ["/", `/${boardPage.username}/${boardPage.slug}/`, "/demo/", "/sam/", ...pins.slice(0, 40).map((id) => `/pin/${id}/`)];

  log(`[soak] run ${run}: signing in ${ACCOUNTS.join(", ")} and making ${BOARDS_PER_ACCOUNT} boards each`);
  const accounts = [];
  for (const [n, username] of ACCOUNTS.entries()) {
    const cookie = await signIn(url, username, n);
    const boards = [];
    for (let k = 0; k < BOARDS_PER_ACCOUNT; k++) {
      const board = await resourceCall(url, cookie, "BoardResource", "create", { name: `Soak ${run} ${k}`, privacy: "secret" });
      boards.push(Number(board.id));
    }
    accounts.push({ username, cookie, boards, saves: 0, lastSave: null, lastComment: null });
  }

  // Per kind: answers by status, latencies, and what each write was.
  const kinds = {};
  const kind = (name) => (kinds[name] ??= { statuses: {}, latencies: [] });
  const saves = new Map(); // client id → { board, pin, ok }
  const comments = new Map(); // client id → { text, ok }
  const batches = new Map(); // key → { keys (stored ids), ok, refused }
  let n = 0;
  let lastEvents = null;

  const request = {
    method: "GET",
    path: "/",
    setupRequest(req, context) {
      n += 1;
      const slot = MIX[n % MIX.length];
      const account = accounts[n % accounts.length];
      const started = performance.now();
      const resend = n % RESEND_EVERY === 0;
      let next;
      if (slot === "page") {
        next = { method: "GET", path: pages[n % pages.length], headers: { "user-agent": BROWSER_UA } };
        context.pending = { kind: "page" };
      } else if (slot === "member") {
        next = { method: "GET", path: `/pin/${pins[n % 40]}/`, headers: { "user-agent": BROWSER_UA, cookie: `csrftoken=${CSRF}; ${account.cookie}` } };
        context.pending = { kind: "page (signed in)" };
      } else if (slot === "api") {
        const data = encodeURIComponent(JSON.stringify({ options: { id: String(pins[n % pins.length]) } }));
        next = { method: "GET", path: `/resource/PinResource/get/?data=${data}`, headers: { "user-agent": BROWSER_UA, "cf-connecting-ip": address(n) } };
        context.pending = { kind: "api read" };
      } else if (slot === "search") {
        const term = SEARCH_TERMS[n % SEARCH_TERMS.length];
        // Two words as the search form sends them (a space is "+"; "%20" is redirected to it).
        const q = n % 3 === 0 ? `${term}+${SEARCH_TERMS[(n >> 2) % SEARCH_TERMS.length]}` : term;
        next = { method: "GET", path: `/search/pins/?q=${q}`, headers: { "user-agent": BROWSER_UA, "cf-connecting-ip": address(n) } };
        context.pending = { kind: "search" };
      } else if (slot === "save") {
        let save = resend && account.lastSave ? account.lastSave : null;
        if (!save) {
          const k = account.saves++;
          const board = account.boards[Math.floor(k / pins.length) % account.boards.length];
          save = { id: `soak-${run}-s${n}`, board, pin: pins[k % pins.length] };
          if (k < pins.length * account.boards.length) saves.set(save.id, { board: save.board, pin: save.pin, ok: false });
          account.lastSave = save;
        }
        next = {
          method: "POST",
          path: "/resource/RepinResource/create/",
          headers: { ...postHeaders(url, "application/json", account.cookie), "x-client-request-id": save.id },
          body: JSON.stringify({ options: { pin_id: String(save.pin), board_id: String(save.board) } }),
        };
        context.pending = { kind: "save", id: save.id };
      } else if (slot === "comment") {
        let comment = resend && account.lastComment ? account.lastComment : null;
        if (!comment) {
          comment = { id: `soak-${run}-c${n}`, text: `soak ${run} #${n}`, pin: pins[n % pins.length] };
          comments.set(comment.id, { text: comment.text, ok: false });
          account.lastComment = comment;
        }
        next = {
          method: "POST",
          path: "/resource/AggregatedCommentResource/create/",
          headers: { ...postHeaders(url, "application/json", account.cookie), "x-client-request-id": comment.id },
          body: JSON.stringify({ options: { pin_id: String(comment.pin), text: comment.text } }),
        };
        context.pending = { kind: "comment", id: comment.id };
      } else {
        // A batch resent comes from the same address: the same sender, so the same stored keys.
        let batch = resend && lastEvents ? lastEvents : null;
        if (!batch) {
          const time = `${Date.now()}000000`;
          const events = Array.from({ length: EVENTS_PER_BATCH }, (_, i) => ({
            clientUUID: `soak-${run}-${n}-${i}`,
            event_type: i === 0 ? 13 : 14,
            view_type: 2,
            object_id_str: String(pins[(n + i) % pins.length]),
            aux_data: { soak: run },
            time,
            appState: "active",
          }));
          batch = { key: `e${n}`, ip: address(n), body: JSON.stringify({ options: { events, report_time: time } }) };
          batches.set(batch.key, { keys: events.map((event) => eventKeyOf(batch.ip, event.clientUUID)), ok: false, refused: false });
          lastEvents = batch;
        }
        next = { method: "POST", path: "/resource/ApiCResource/create/", headers: { ...postHeaders(url, "application/json"), "cf-connecting-ip": batch.ip }, body: batch.body };
        context.pending = { kind: "events", key: batch.key };
      }
      context.pending.started = started;
      return { ...req, ...next };
    },
    onResponse(status, _body, context) {
      const pending = context.pending;
      if (!pending) return;
      context.pending = null;
      const entry = kind(pending.kind);
      entry.statuses[status] = (entry.statuses[status] ?? 0) + 1;
      entry.latencies.push(performance.now() - pending.started);
      if (pending.kind === "events" && status >= 400 && status < 500) batches.get(pending.key).refused = true;
      if (status < 200 || status >= 300) return;
      if (pending.kind === "save" && saves.has(pending.id)) saves.get(pending.id).ok = true;
      if (pending.kind === "comment") comments.get(pending.id).ok = true;
      if (pending.kind === "events") batches.get(pending.key).ok = true;
    },
  };

  log(`[soak] ${connections} connections for ${durationS} s: pages, API reads, searches, saves, comments, events`);
  const result = await cannon({ url, connections, duration: durationS, pipelining: 1, timeout: 30, requests: [request] });

  const non4xxByStatus = Object.values(kinds).reduce((sum, entry) => sum + Object.entries(entry.statuses).filter(([status]) => Number(status) >= 500 || Number(status) < 200).reduce((s, [, count]) => s + count, 0), 0);
  const errors = { status_5xx: non4xxByStatus, connection_errors: result.errors, timeouts: result.timeouts };
  const errorsNon4xx = non4xxByStatus + result.errors + result.timeouts;

  // Events are stored by the queue's consumer after their answer: wait for it (bounded).
  // A batch answered 2xx is stored, each event once; one refused (4xx) not at all; one whose
  // answer never came (in flight when the load stopped) may be, still once.
  const expectedKeys = new Set();
  const refusedKeys = new Set();
  const sentKeys = new Set();
  for (const batch of batches.values()) {
    for (const key of batch.keys) {
      sentKeys.add(key);
      if (batch.ok) expectedKeys.add(key);
      else if (batch.refused) refusedKeys.add(key);
    }
  }
  const storedEvents = () => {
    const counts = new Map();
    for (const row of query("SELECT client_id FROM events WHERE json_extract(aux_data, '$.soak') = ?", run)) counts.set(row.client_id, (counts.get(row.client_id) ?? 0) + 1);
    return counts;
  };
  let eventCounts = storedEvents();
  const deadline = Date.now() + 120_000;
  while ([...expectedKeys].some((key) => !eventCounts.has(key)) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    eventCounts = storedEvents();
  }
  // A moment more: a redelivery must not add anything.
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  eventCounts = storedEvents();
  const eventChecks = {
    answered_2xx: expectedKeys.size,
    rows: [...eventCounts.values()].reduce((a, b) => a + b, 0),
    missing: [...expectedKeys].filter((key) => eventCounts.get(key) !== 1).length,
    duplicated: [...eventCounts.values()].filter((count) => count > 1).length,
    refused_but_stored: [...refusedKeys].filter((key) => eventCounts.has(key)).length,
    not_sent: [...eventCounts.keys()].filter((key) => !sentKeys.has(key)).length,
  };

  // Saves: every (board, pin) answered 2xx is there once; nothing else on the run's boards
  // but saves whose answer never came (a lost answer may have been applied).
  const boardIds = accounts.flatMap((account) => account.boards);
  const savedRows = query("SELECT board_id, pin_id FROM board_pins WHERE board_id IN (SELECT value FROM json_each(?))", JSON.stringify(boardIds));
  const savedKeys = new Map();
  for (const row of savedRows) savedKeys.set(`${row.board_id}:${row.pin_id}`, (savedKeys.get(`${row.board_id}:${row.pin_id}`) ?? 0) + 1);
  const savesOk = [...saves.values()].filter((save) => save.ok);
  const missingSaves = savesOk.filter((save) => savedKeys.get(`${save.board}:${save.pin}`) !== 1).length;
  const attempted = new Set([...saves.values()].map((save) => `${save.board}:${save.pin}`));
  const strangerSaves = [...savedKeys.keys()].filter((key) => !attempted.has(key)).length;
  const duplicateSaves = [...savedKeys.values()].filter((count) => count > 1).length;
  const [counters] = query("SELECT count(*) AS n FROM boards b WHERE b.id IN (SELECT value FROM json_each(?)) AND b.pin_count != (SELECT count(*) FROM board_pins bp WHERE bp.board_id = b.id)", JSON.stringify(boardIds));

  // Comments: each text answered 2xx is there exactly once; no text of this run twice.
  const commentRows = query("SELECT text, count(*) AS n FROM comments WHERE text LIKE ? GROUP BY text", `soak ${run} #%`);
  const commentCounts = new Map(commentRows.map((row) => [row.text, Number(row.n)]));
  const commentsOk = [...comments.values()].filter((comment) => comment.ok);
  const missingComments = commentsOk.filter((comment) => commentCounts.get(comment.text) !== 1).length;
  const duplicateComments = [...commentCounts.values()].filter((count) => count > 1).length;
  const strangerComments = [...commentCounts.keys()].filter((text) => ![...comments.values()].some((comment) => comment.text === text)).length;

  const checks = {
    saves: { answered_2xx: savesOk.length, rows: savedRows.length, missing: missingSaves, duplicated: duplicateSaves, not_sent: strangerSaves, board_counters_off: Number(counters.n) },
    comments: { answered_2xx: commentsOk.length, rows: [...commentCounts.values()].reduce((a, b) => a + b, 0), missing: missingComments, duplicated: duplicateComments, not_sent: strangerComments },
    events: eventChecks,
  };
  const countsHold =
    missingSaves === 0 && duplicateSaves === 0 && strangerSaves === 0 && Number(counters.n) === 0 &&
    missingComments === 0 && duplicateComments === 0 && strangerComments === 0 &&
    eventChecks.missing === 0 && eventChecks.duplicated === 0 && eventChecks.refused_but_stored === 0 && eventChecks.not_sent === 0;

  const byKind = {};
  for (const [name, entry] of Object.entries(kinds)) {
    const sorted = entry.latencies.sort((a, b) => a - b);
    byKind[name] = { requests: sorted.length, statuses: entry.statuses, p50_ms: round(percentile(sorted, 50)), p99_ms: round(percentile(sorted, 99)) };
  }

  // The run's own rows go (through the API, as a person would delete them): the bench's
  // world stays the same from run to run. Events and client request ids stay; housekeeping
  // drops the ids after a day.
  let cleanup = "done";
  try {
    for (const account of accounts) {
      for (const board of account.boards) await resourceCall(url, account.cookie, "BoardResource", "delete", { board_id: String(board) });
      const own = query("SELECT c.id FROM comments c JOIN users u ON u.id = c.user_id WHERE u.username = ? AND c.text LIKE ?", account.username, `soak ${run} #%`);
      for (const row of own) await resourceCall(url, account.cookie, "AggregatedCommentResource", "delete", { commentId: String(row.id) });
    }
  } catch (error) {
    cleanup = `incomplete: ${error instanceof Error ? error.message : String(error)}`;
  }

  return {
    run,
    duration_s: durationS,
    connections,
    accounts: ACCOUNTS,
    requests_total: result.requests.total,
    rps: round(result.requests.total / Math.max(1, result.duration)),
    latency_p50_ms: result.latency.p50,
    latency_p99_ms: result.latency.p99,
    latency_max_ms: result.latency.max,
    errors_non_4xx: errorsNon4xx,
    errors,
    status_codes: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, stat]) => [code, stat.count])),
    by_kind: byKind,
    resent_every: RESEND_EVERY,
    checks,
    counts_hold: countsHold,
    pass: errorsNon4xx === 0 && countsHold,
    cleanup,
  };
}

export function printSoak(soak, print = console.log) {
  if (!soak) return;
  if (soak.error) {
    print(`  soak: failed to run (${soak.error})`);
    return;
  }
  print(`  soak ${soak.duration_s} s × ${soak.connections} connections: ${soak.requests_total} requests, ${soak.rps} req/s, p50 ${soak.latency_p50_ms} ms, p99 ${soak.latency_p99_ms} ms, non-4xx errors ${soak.errors_non_4xx} → ${soak.pass ? "PASS" : "FAIL"}`);
  const rows = [["kind", "requests", "p50 ms", "p99 ms", "statuses"]];
  for (const [name, entry] of Object.entries(soak.by_kind)) rows.push([name, String(entry.requests), String(entry.p50_ms), String(entry.p99_ms), Object.entries(entry.statuses).map(([code, count]) => `${code}×${count}`).join(" ")]);
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  for (const row of rows) print("    " + row.map((cell, i) => cell.padEnd(widths[i])).join("  "));
  const { saves, comments, events } = soak.checks;
  print(`    saves: ${saves.answered_2xx} answered 2xx, ${saves.rows} rows, ${saves.missing} missing, ${saves.duplicated} twice, ${saves.not_sent} unsent, ${saves.board_counters_off} boards miscounted`);
  print(`    comments: ${comments.answered_2xx} answered 2xx, ${comments.rows} rows, ${comments.missing} missing, ${comments.duplicated} twice, ${comments.not_sent} unsent`);
  print(`    events: ${events.answered_2xx} answered 2xx, ${events.rows} rows, ${events.missing} missing, ${events.duplicated} twice, ${events.refused_but_stored} refused but stored, ${events.not_sent} unsent`);
}
