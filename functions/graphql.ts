// POST /_/graphql/ (spec 000 §7): persisted queries only. The body is {queryHash, variables};
// the hash names one of the registry's documents (src/graphql/documents), the variables are
// coerced against that document's definitions, and only then is the document executed by
// graphql-js over the data layer, or, when GRAPHQL_ORIGIN is set, forwarded there as
// {queryHash, variables}. An unknown hash, raw query text or bad variables are a 400 before
// any origin is touched. The upstream gets the request's own headers of the spec's list and the
// viewer's locale and country, never a cookie.
import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppEnv } from "~/server/context.ts";
import { clientIp, throttleSubject } from "~/server/client-ip.ts";
import { ApiError, ErrorCode } from "~/server/errors.ts";
import { badRequest } from "~/domain/errors.ts";
import { mediaTypeOf, readJson } from "~/server/body.ts";
import { enforce, RATE_RULES } from "~/server/rate-limit.server.ts";
import { viewerIdOf } from "~/users/user.ts";
import { checkDocument, checkVariables, documentFor, executeLocally, parsePersistedRequest } from "~/graphql/execute.server.ts";
import { GRAPHQL_HEADERS, GRAPHQL_MAX_BODY_BYTES, GRAPHQL_PATH, type GraphqlErrorResult, type GraphqlResult, type PersistedQueryRequest } from "~/graphql/protocol.ts";
import type { PersistedDocument } from "~/graphql/registry.server.ts";

/** The longest an upstream origin may take before the call is a 502. */
export const UPSTREAM_TIMEOUT_MS = 5_000;
/** The largest upstream answer read. */
const UPSTREAM_MAX_BYTES = 1024 * 1024;
/** Request headers passed on to an upstream origin as they came (spec 000 §7's list). */
const FORWARDED_HEADERS = [
  "Accept",
  "Content-Type",
  "X-Requested-With",
  GRAPHQL_HEADERS.sourceUrl,
  GRAPHQL_HEADERS.queryName,
  GRAPHQL_HEADERS.appVersion,
  GRAPHQL_HEADERS.appState,
  GRAPHQL_HEADERS.forceCountry,
  GRAPHQL_HEADERS.forceCountryFromIp,
] as const;

export const graphqlRoutes = new Hono<AppEnv>();

graphqlRoutes.use(
  GRAPHQL_PATH,
  bodyLimit({
    maxSize: GRAPHQL_MAX_BODY_BYTES,
    onError: () => {
      throw new ApiError(413, ErrorCode.PayloadTooLarge, { message: "api.payloadTooLarge", values: { limit: GRAPHQL_MAX_BODY_BYTES } });
    },
  }),
);

async function readBody(c: Context<AppEnv>): Promise<unknown> {
  if (mediaTypeOf(c) !== "application/json") {
    throw badRequest([{ field: "body", reason: "validation.invalidFormat" }], "api.invalidJson");
  }
  return readJson(c);
}

const upstreamFailed = (c: Context<AppEnv>) =>
  c.json({ data: null, errors: [{ message: c.var.t("api.upstreamFailed"), extensions: { code: "UPSTREAM_FAILED" } }] } satisfies GraphqlResult, 502);

/**
 * The configured upstream, when it is an https: URL (http: only in development, for a local
 * origin): the forwarded headers and answers must not cross the network in the clear.
 */
export function upstreamOf(env: Pick<Env, "GRAPHQL_ORIGIN" | "ENVIRONMENT">): URL | null {
  const value = env.GRAPHQL_ORIGIN?.trim();
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || (url.protocol === "http:" && env.ENVIRONMENT === "development") ? url : null;
  } catch {
    return null;
  }
}

/** Upstream error codes a client may act on; every other error is reported as UPSTREAM_ERROR. */
const PASSED_ERROR_CODES: ReadonlySet<string> = new Set(["NOT_FOUND", "BAD_USER_INPUT", "UNAUTHENTICATED", "FORBIDDEN"]);
/** At most this many upstream errors are passed on, each message and path bounded. */
const MAX_UPSTREAM_ERRORS = 20;
const MAX_ERROR_MESSAGE = 300;
const MAX_ERROR_PATH = 32;

/**
 * An upstream's errors as the client may see them: {message, path?, extensions: {code}} and
 * nothing else (no stack, no locations, no internal extensions). An error whose code is not on
 * the allow-list gets UPSTREAM_ERROR and a generic message, whatever its text said.
 */
export function publicUpstreamErrors(errors: readonly unknown[], genericMessage: string): GraphqlErrorResult[] {
  return errors.slice(0, MAX_UPSTREAM_ERRORS).map((error): GraphqlErrorResult => {
    const record = error !== null && typeof error === "object" ? (error as Record<string, unknown>) : {};
    const extensions = record.extensions !== null && typeof record.extensions === "object" ? (record.extensions as Record<string, unknown>) : {};
    const code = typeof extensions.code === "string" && PASSED_ERROR_CODES.has(extensions.code) ? extensions.code : null;
    const path =
      Array.isArray(record.path) && record.path.length <= MAX_ERROR_PATH && record.path.every((part) => (typeof part === "string" && part.length <= 100) || Number.isInteger(part))
        ? (record.path as Array<string | number>)
        : undefined;
    const message = code !== null && typeof record.message === "string" ? record.message.slice(0, MAX_ERROR_MESSAGE) : genericMessage;
    return { message, ...(path ? { path } : {}), extensions: { code: code ?? "UPSTREAM_ERROR" } };
  });
}

/** The source URL passed upstream: its path only (a query string may carry search terms or tokens). */
export function sourcePathOf(value: string): string | null {
  try {
    return new URL(value, "https://source.invalid").pathname;
  } catch {
    return null;
  }
}

/** Reads at most `max` bytes of a body as text; null past the bound. */
async function boundedText(response: Response, max: number): Promise<string | null> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

async function forward(c: Context<AppEnv>, upstream: URL, document: PersistedDocument, request: PersistedQueryRequest): Promise<Response> {
  const headers = new Headers();
  for (const name of FORWARDED_HEADERS) {
    const raw = c.req.header(name);
    const value = raw !== undefined && name === GRAPHQL_HEADERS.sourceUrl ? sourcePathOf(raw) : raw;
    if (value !== undefined && value !== null) headers.set(name, value.slice(0, 2048));
  }
  headers.set("Accept", "application/json");
  headers.set("Content-Type", "application/json");
  headers.set(GRAPHQL_HEADERS.queryName, document.name);
  headers.set(GRAPHQL_HEADERS.viewerLocale, c.var.ctx.language);
  headers.set(GRAPHQL_HEADERS.viewerCountry, c.var.ctx.country);
  let response: Response;
  try {
    response = await fetch(upstream, {
      method: "POST",
      headers,
      body: JSON.stringify({ queryHash: request.queryHash, variables: request.variables }),
      signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS),
      redirect: "manual",
    });
  } catch (error) {
    console.error("graphql upstream unreachable", error);
    return upstreamFailed(c);
  }
  if (!response.ok || !(response.headers.get("content-type") ?? "").includes("json")) {
    await response.body?.cancel();
    console.error("graphql upstream answered", response.status);
    return upstreamFailed(c);
  }
  let result: unknown;
  try {
    const text = await boundedText(response, UPSTREAM_MAX_BYTES);
    result = text === null ? null : JSON.parse(text);
  } catch {
    result = null;
  }
  // A GraphQL answer is an object with data or errors; anything else is not passed on.
  if (result === null || typeof result !== "object" || Array.isArray(result) || !("data" in result || "errors" in result)) return upstreamFailed(c);
  const { data, errors } = result as GraphqlResult;
  const passed = Array.isArray(errors) ? publicUpstreamErrors(errors, c.var.t("api.upstreamError")) : null;
  return c.json({ data: data ?? null, ...(passed ? { errors: passed } : {}) } satisfies GraphqlResult, 200, { "Cache-Control": "private, no-store" });
}

graphqlRoutes.post(GRAPHQL_PATH, async (c) => {
  // Counted before anything is parsed or run: every call costs a document check and D1 reads.
  const viewerId = viewerIdOf(c.var.ctx);
  await enforce(c.env.DB, RATE_RULES.graphqlPerViewer, viewerId ?? `ip:${throttleSubject(clientIp(c.req.raw))}`);
  const request = parsePersistedRequest(await readBody(c));
  const document = await documentFor(request.queryHash);
  checkVariables(document, request.variables);
  checkDocument(document, c.env.ENVIRONMENT === "development");
  const upstream = upstreamOf(c.env);
  if (upstream) return forward(c, upstream, document, request);
  const result = await executeLocally(document, request.variables, { db: c.env.DB, viewerId });
  // Per viewer (visibility depends on who asks): never stored by a shared cache.
  return c.json(result, 200, { "Cache-Control": "private, no-store" });
});
