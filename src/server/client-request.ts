// Client request ids. A write may reach the Worker twice: the browser retries when the answer
// was lost on the way, or when storage failed after the write committed. The islands' fetch
// layer names each person's action with an X-Client-Request-Id, the same on every try of it.
// The route answers through answerOnce: an id seen before replays the first answer instead of
// applying again; a new id runs the write, whose batch also claims the id (claimOf), so the
// claim exists exactly when the change does; the answer is kept after it. A request without
// the header is answered as before.
import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import { hashToken } from "~/accounts/tokens.ts";
import { CLIENT_REQUEST_HEADER } from "~/runtime/headers.ts";
import { claimStatement, findClientRequest, forgetClaim, isClaimConflict, storeAnswer, type ClientRequestKey, type ClientRequestRow } from "./client-requests.server.ts";
import type { AppEnv } from "./context.ts";
import { CSRF_COOKIE } from "./csrf.ts";
import { DomainError, badRequest } from "~/domain/errors.ts";
import { ApiError, ErrorCode, toApiError } from "./errors.ts";

/** Set on an answer that replays a first one. */
const REPLAYED_HEADER = "X-Client-Request-Replayed";
const CLIENT_ID = /^[A-Za-z0-9_-]{16,64}$/;
/** A claim whose answer is not there yet may be a first try still running: looked for this often, this long. */
const ANSWER_POLLS = 10;
const ANSWER_POLL_MS = 200;

/** The ids of the requests now running a write, by request. */
const running = new WeakMap<Request, ClientRequestKey>();

/**
 * Whose id it is: the signed-in person, else the browser (by its CSRF cookie, which every
 * write carries). Null when the call names no id.
 */
async function keyOf(c: Context<AppEnv>): Promise<ClientRequestKey | null> {
  const clientId = c.req.header(CLIENT_REQUEST_HEADER);
  if (clientId === undefined) return null;
  if (!CLIENT_ID.test(clientId)) throw badRequest([{ field: CLIENT_REQUEST_HEADER, reason: "validation.invalidFormat" }]);
  const userId = c.var.ctx.session?.user.id;
  const csrf = getCookie(c, CSRF_COOKIE);
  const scope = userId !== undefined ? `u:${userId}` : csrf ? `c:${await hashToken(csrf)}` : null;
  return scope === null ? null : { scope, clientId, call: `${c.req.method} ${c.req.path}`.slice(0, 256) };
}

/** The claim for the batch that makes this request's change: none when it names no id. Once per request. */
export function claimOf(c: Context<AppEnv>, now = Date.now()): D1PreparedStatement[] {
  const key = running.get(c.req.raw);
  return key ? [claimStatement(c.env.DB, key, now)] : [];
}

export interface AnswerOnceOptions<T> {
  /** What of the answer is kept for replays (all of it unless a part must not be stored). */
  keep?: (answer: T) => unknown;
  /** A replay's answer from what was kept (what was kept, unless given). */
  replay?: (kept: unknown) => Promise<T>;
}

/** Runs `write` once per client request id; a repeat answers what the first try answered. */
export async function answerOnce<T>(c: Context<AppEnv>, write: () => Promise<T>, options: AnswerOnceOptions<T> = {}): Promise<T> {
  const key = await keyOf(c);
  if (!key) return write();
  const db = c.env.DB;
  const prior = await findClientRequest(db, key);
  if (prior) return replay(c, key, prior, options);
  running.set(c.req.raw, key);
  let answer: T;
  try {
    answer = await write();
  } catch (error) {
    // A refusal (4xx, from either layer) may come after a batch whose guarded statements
    // matched nothing but whose claim was written: the try changed nothing, so its claim goes
    // and a retry is judged afresh. A storage failure (5xx) keeps whatever committed, claim
    // included.
    const refusal = error instanceof DomainError ? toApiError(error) : error;
    if (refusal instanceof ApiError && refusal.status < 500) {
      await forgetClaim(db, key);
      throw error;
    }
    // The same id's other try committed first: this one's batch changed nothing.
    if (!isClaimConflict(error)) throw error;
    const row = await findClientRequest(db, key);
    if (!row) throw error;
    return replay(c, key, row, options);
  } finally {
    running.delete(c.req.raw);
  }
  try {
    await storeAnswer(db, key, JSON.stringify((options.keep ? options.keep(answer) : answer) ?? null), Date.now());
  } catch (error) {
    // The change is made and its id claimed: a repeat finds the claim and is told so, never applied again.
    console.error("client request: the answer was not kept", error);
  }
  return answer;
}

async function replay<T>(c: Context<AppEnv>, key: ClientRequestKey, first: ClientRequestRow, options: AnswerOnceOptions<T>): Promise<T> {
  if (first.call !== key.call) throw badRequest([{ field: CLIENT_REQUEST_HEADER, reason: "validation.clientRequestReused" }]);
  let row: ClientRequestRow | null = first;
  // A first try still running writes its answer in a moment.
  for (let poll = 0; row && row.answer === null && poll < ANSWER_POLLS; poll++) {
    await new Promise((resolve) => setTimeout(resolve, ANSWER_POLL_MS));
    row = await findClientRequest(c.env.DB, key);
  }
  if (!row || row.answer === null) throw new ApiError(409, ErrorCode.Conflict, { message: "api.requestAlreadyReceived" });
  c.header(REPLAYED_HEADER, "1");
  const kept: unknown = JSON.parse(row.answer);
  return options.replay ? options.replay(kept) : (kept as T);
}
