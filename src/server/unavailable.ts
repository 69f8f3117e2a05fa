// Storage that is briefly out of reach (D1 resetting, a lost connection, R2 or the queue not
// answering) is a different fault from a bug: the same request will work again shortly, so
// the answer is 503 with Retry-After (pages and API alike), never the 500 a bug gets. Clients
// that retry (the event logger, the fetch layer's writes) take 503 as their cue; crawlers
// keep the page they had instead of indexing an error.
import { DomainError, RETRY_AFTER_SECONDS } from "~/domain/errors.ts";
import { ApiError, ErrorCode } from "./errors.ts";

/**
 * What D1 says when it cannot run a statement right now (its documented retryable errors, its
 * timeouts and overload), and what any binding says when its connection drops. SQL errors
 * (no such table, constraint, syntax) are not here: those are bugs and stay 500.
 */
const TRANSIENT =
  /Network connection lost|storage caused object to be reset|reset because its code was updated|exceeded timeout|timed? ?out|overloaded|queued for too long|transient issue|Durable Object reset/i;

function messagesOf(error: unknown): string[] {
  const messages: string[] = [];
  let current: unknown = error;
  // The cause chain is walked a few links deep: handlers wrap storage errors once or twice.
  for (let depth = 0; depth < 4 && current !== undefined && current !== null; depth++) {
    if (current instanceof Error) {
      messages.push(current.message);
      current = current.cause;
    } else {
      messages.push(String(current));
      break;
    }
  }
  return messages;
}

/** True when `error` (or what caused it) says storage is momentarily unavailable. */
export function isStorageUnavailable(error: unknown): boolean {
  if (error instanceof ApiError) return error.code === ErrorCode.Unavailable;
  if (error instanceof DomainError) return error.kind === "unavailable";
  return messagesOf(error).some((message) => TRANSIENT.test(message));
}

/** The 503 every edge function answers when storage is out of reach. */
export function unavailable(cause?: unknown): ApiError {
  return new ApiError(503, ErrorCode.Unavailable, {
    message: "api.unavailable",
    cause,
    headers: { "Retry-After": String(RETRY_AFTER_SECONDS), "Cache-Control": "no-store" },
  });
}

/**
 * Runs a call to a binding whose every failure means "not now" (R2 reads and writes, the
 * queue's send): whatever it throws becomes the 503.
 */
export async function orUnavailable<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw unavailable(error);
  }
}

/**
 * Astro answers its error page with the status it was called for (500) whatever the page sets,
 * so the page marks a render that failed only because storage was away, and the Worker's page
 * renderer answers that render as the 503 it is. The mark never leaves the Worker.
 */
export const UNAVAILABLE_MARK = "x-pinloom-unavailable";

export function answerUnavailablePage(response: Response): Response {
  if (!response.headers.has(UNAVAILABLE_MARK)) return response;
  const answer = new Response(response.body, { status: 503, statusText: "Service Unavailable", headers: response.headers });
  answer.headers.delete(UNAVAILABLE_MARK);
  return answer;
}
