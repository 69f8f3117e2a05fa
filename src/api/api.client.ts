// The browser's one door to the account calls (spec 000 §7, §8). Every call goes through the
// runtime's fetch layer (src/runtime/fetch.ts: the CSRF token from the `csrftoken` cookie,
// X-Requested-With, the source URL and app state, credentials, the version check); answers
// are the {status, code, message, data} envelope. Handshakes
// accept HTTP 200, 401 and 409 only (spec §8 "Handshake"): any other status is a
// HandshakeHttpError, and a body that is not a success is an ApiCallError with its code.
// Every write carries a client request id (X-Client-Request-Id), the same on each of its
// tries, so the Worker applies it once; a write that failed on the network or with a 502, 503
// or 504 is tried again a little later, twice at most (src/server/client-request.ts).

import { apiFetch, depsWith, readCookie } from "~/runtime/fetch.ts";
import { CLIENT_REQUEST_HEADER } from "~/runtime/headers.ts";

export { readCookie };

export interface Envelope<T = unknown> {
  status: "success" | "failure";
  code: number | null;
  message: string;
  data: T;
  message_detail?: string | null;
  extra_data?: Record<string, unknown> | null;
  api_error_code?: number;
  error?: { extra_data?: Record<string, unknown> | null; message_detail?: string | null };
}

/** A body that says failure: carries the server's code, message and extra data. */
export class ApiCallError extends Error {
  readonly code: number | null;
  readonly httpStatus: number;
  readonly detail: string | null;
  readonly extraData: Record<string, unknown> | null;
  readonly data: unknown;
  /** The answer's Retry-After in seconds, when it gave one. */
  readonly retryAfterSeconds: number | null;
  constructor(httpStatus: number, body: Partial<Envelope> | null, retryAfter: string | null = null) {
    super(body?.message ?? `HTTP ${httpStatus}`);
    this.name = "ApiCallError";
    this.httpStatus = httpStatus;
    this.code = typeof body?.code === "number" ? body.code : null;
    // A resource call's failure keeps its field problems in the error object too.
    this.detail = body?.message_detail ?? body?.error?.message_detail ?? null;
    // A resource call's failure keeps its extra data in the error object (src/server/app.ts).
    this.extraData = body?.extra_data ?? body?.error?.extra_data ?? null;
    this.data = body?.data ?? null;
    const seconds = retryAfter === null ? NaN : Number(retryAfter);
    this.retryAfterSeconds = Number.isFinite(seconds) && seconds >= 0 ? seconds : null;
  }
}

/** A handshake answered with a status outside 200, 401, 409 (the body, when JSON, is kept). */
export class HandshakeHttpError extends ApiCallError {
  constructor(httpStatus: number, body: Partial<Envelope> | null) {
    super(httpStatus, body);
    this.name = "HandshakeHttpError";
  }
}

/** fetch itself failed: offline, DNS, connection reset. */
export class NetworkError extends Error {
  constructor(cause: unknown) {
    super("Network error", { cause });
    this.name = "NetworkError";
  }
}

const HANDSHAKE_STATUSES: ReadonlySet<number> = new Set([200, 401, 409]);

export interface Transport {
  fetch: typeof fetch;
  /** document.cookie, read at call time (the token may be set by the first answer). */
  cookie: () => string;
  /** Waits between a write's tries (a timer unless given). */
  sleep?: (ms: number) => Promise<void>;
}

export const browserTransport = (): Transport => ({
  fetch: (input, init) => fetch(input, init),
  cookie: () => (typeof document === "undefined" ? "" : document.cookie),
});

type Body = { json: unknown } | { form: Record<string, string | undefined> };

export interface CallOptions {
  method?: "GET" | "POST" | "PUT" | "DELETE";
  body?: Body;
  headers?: Record<string, string>;
  /** Spec §8 handshake status rule. Handshakes keep their own retry rule (sign-up's), so they are sent once here. */
  handshake?: boolean;
}

/** A write's tries, and the waits between them: 500 ms, then 1,000 ms (or the answer's Retry-After, at most 2 s). */
const WRITE_RETRY = { tries: 3, firstDelayMs: 500, maxDelayMs: 2_000 } as const;
const TRANSIENT_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);

/** A fresh id for one action (one click, one submit), kept for each of its tries. */
export const newClientRequestId = (): string => crypto.randomUUID();

/** A failure a moment may cure: no answer at all (not an abort: someone meant it), or a gateway or storage outage. */
function isTransient(error: unknown): boolean {
  if (error instanceof NetworkError) return !(error.cause instanceof Error && error.cause.name === "AbortError");
  return error instanceof ApiCallError && !(error instanceof HandshakeHttpError) && TRANSIENT_STATUSES.has(error.httpStatus);
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function hasHeader(headers: Record<string, string>, name: string): boolean {
  return Object.keys(headers).some((key) => key.toLowerCase() === name.toLowerCase());
}

/** Form-encodes only the fields that are present (undefined is left out, never sent as ""). */
export function formBody(fields: Record<string, string | undefined>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) params.append(name, value);
  return params;
}

async function readJson(response: Response): Promise<Partial<Envelope> | null> {
  try {
    const parsed: unknown = await response.json();
    return parsed !== null && typeof parsed === "object" ? (parsed as Partial<Envelope>) : null;
  } catch {
    return null;
  }
}

/**
 * One call; resolves with `data` of a success envelope, else throws one of the errors above.
 * A write (any method but GET, not a handshake) is named by a client request id and tried
 * again on a transient failure.
 */
export async function call<T>(path: string, options: CallOptions = {}, transport: Transport = browserTransport()): Promise<T> {
  const method = options.method ?? (options.body ? "POST" : "GET");
  const headers: Record<string, string> = { ...options.headers };
  const write = method !== "GET" && !options.handshake;
  if (write && !hasHeader(headers, CLIENT_REQUEST_HEADER)) headers[CLIENT_REQUEST_HEADER] = newClientRequestId();
  const sleep = transport.sleep ?? defaultSleep;
  for (let attempt = 1; ; attempt++) {
    try {
      return await callOnce<T>(path, method, headers, options, transport);
    } catch (error) {
      if (!write || attempt >= WRITE_RETRY.tries || !isTransient(error)) throw error;
      const backoff = WRITE_RETRY.firstDelayMs * 2 ** (attempt - 1);
      const asked = error instanceof ApiCallError && error.retryAfterSeconds !== null ? error.retryAfterSeconds * 1000 : backoff;
      await sleep(Math.min(Math.max(asked, backoff), WRITE_RETRY.maxDelayMs));
    }
  }
}

async function callOnce<T>(path: string, method: string, baseHeaders: Record<string, string>, options: CallOptions, transport: Transport): Promise<T> {
  const headers: Record<string, string> = { ...baseHeaders };
  let body: string | undefined;
  if (options.body && "json" in options.body) {
    body = JSON.stringify(options.body.json);
  } else if (options.body) {
    headers["Content-Type"] = "application/x-www-form-urlencoded";
    body = formBody(options.body.form).toString();
  }
  // The transport's fetch and cookie (tests script them); the page facts are the browser's.
  const deps = depsWith(transport.fetch, transport.cookie());
  let response: Response;
  try {
    response = await apiFetch(path, { method, headers, ...(body === undefined ? {} : { body }) }, deps);
  } catch (error) {
    throw new NetworkError(error);
  }
  const parsed = await readJson(response);
  // Resource calls wrap the envelope in resource_response.
  const envelope = (parsed && "resource_response" in parsed ? (parsed as { resource_response: Partial<Envelope> }).resource_response : parsed) ?? null;
  if (options.handshake && !HANDSHAKE_STATUSES.has(response.status)) throw new HandshakeHttpError(response.status, envelope);
  if (!envelope || envelope.status !== "success" || (!options.handshake && !response.ok)) throw new ApiCallError(response.status, envelope, response.headers.get("retry-after"));
  return envelope.data as T;
}

/**
 * The spec's XResource calls: get is GET /resource/{name}/get/?data={"options":...}; the
 * others POST {options} to /resource/{name}/{action}/.
 */
export function resource<T>(name: string, action: "get" | "create" | "update" | "delete", options: Record<string, unknown>, transport?: Transport): Promise<T> {
  if (action === "get") return call<T>(`/resource/${name}/get/?data=${encodeURIComponent(JSON.stringify({ options }))}`, { method: "GET" }, transport);
  return call<T>(`/resource/${name}/${action}/`, { method: "POST", body: { json: { options } } }, transport);
}
