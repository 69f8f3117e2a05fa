// Generated input against every route of the built Worker: no body, path or query may make it
// answer 5xx, and no answer may show an internal path or a stack trace. Routes come from the
// routers and registries themselves (the /v3 and edge routers, the XResource registry, the
// pages directory), so a route added later is fuzzed without editing this file. Every
// state-changing request carries the CSRF pair, so bodies reach the parsers. The seed is
// fixed: a failure prints it with the input, and the same seed replays it.
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { Hono } from "hono";
import { beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { resources } from "../../functions/resources/index.ts";
import { SESSION_COOKIE } from "~/accounts/session.server.ts";
import { EDGE_ROUTES } from "../../functions/routes.ts";
import { CSRF, seedAccounts, USERS } from "./accounts-helpers.ts";
import { BASE, BROWSER_UA } from "./fixtures.ts";
import { createSession } from "./session-fixture.ts";

const SEED = 1_902_026;
const MAX_BODY_BYTES = 1024 * 1024;

/** What an answer must never show: source paths, bundle names, stack frames, raw error names. */
const LEAK =
  /\/src\/|node_modules|\.tsx?:\d|\.m?js:\d+:\d+|file:\/\/|(?:^|\\n|\n)\s*at (?:async )?\S[^\n]*:\d+:\d+|dist\/server|URIError|TypeError|RangeError|SyntaxError|ReferenceError|D1_ERROR|SQLITE_/;

// ── Routes ─────────────────────────────────────────────────────────────────────────────────

interface RouteTemplate {
  method: string;
  /** Path with Hono's :params (and a trailing * for "anything below"). */
  pattern: string;
  /** The option names its schema declares, when it is an XResource with an object of options. */
  options?: string[];
}

/** The names an options schema declares, through the wrappers zod puts around an object. */
function optionNames(schema: z.ZodType): string[] {
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> } })._zod.def;
  switch (def["type"]) {
    case "object":
      return Object.keys(def["shape"] as object);
    case "pipe":
      return optionNames(def["in"] as z.ZodType);
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "catch":
    case "readonly":
      return optionNames(def["innerType"] as z.ZodType);
    case "union":
      return (def["options"] as z.ZodType[]).flatMap(optionNames);
    case "intersection":
      return [...optionNames(def["left"] as z.ZodType), ...optionNames(def["right"] as z.ZodType)];
    default:
      return [];
  }
}

/** The edge routers, mounted as the app mounts them. */
function edgeRoutes(): RouteTemplate[] {
  const app = new Hono();
  for (const [path, routes] of EDGE_ROUTES) app.route(path, routes);
  // The generic resource route is expanded from the registry below.
  // A route for any method is sent the write it exists for.
  return app.routes.filter((route) => !route.path.startsWith("/resource/")).map((route) => ({ method: route.method === "ALL" ? "POST" : route.method, pattern: route.path }));
}

const RESOURCE_ROUTES: RouteTemplate[] = Object.entries(resources).flatMap(([name, definition]) =>
  Object.entries(definition).map(([action, handler]) => ({
    method: action === "get" ? "GET" : "POST",
    pattern: `/resource/${name}/${action}/`,
    options: optionNames(handler.options),
  })),
);

/** src/pages/a/[b]/index.astro → /a/:b/ */
const PAGE_ROUTES: RouteTemplate[] = Object.keys(import.meta.glob("../../src/pages/**/*.astro")).map((file) => {
  const route = file
    .replace(/^.*\/src\/pages/, "")
    .replace(/\.astro$/, "")
    .replace(/\/index$/, "/")
    .replace(/\[([^\]]+)\]/g, ":$1");
  return { method: "GET", pattern: route.endsWith("/") || /\/(404|500)$/.test(route) ? route : `${route}/` };
});

const EDGE_ROUTE_TEMPLATES = edgeRoutes();
const WRITE_ROUTES = [...RESOURCE_ROUTES, ...EDGE_ROUTE_TEMPLATES].filter((route) => route.method !== "GET" && route.method !== "HEAD");

// ── Generated pieces ───────────────────────────────────────────────────────────────────────

const clean = (text: string) => !LEAK.test(text);

/** A path segment as sent on the wire: invalid escapes, dot segments, unicode, long ones, names JS treats specially. */
const segment: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom("%FF", "%", "%E0%A4%A", "%zz", "%C0%AF", "%ED%A0%80", "%00", "%2e%2e", "%2E", "..", ".", "", "%2F", "%5C", "%25FF", "%%", "%u0041") },
  { weight: 2, arbitrary: fc.constantFrom("__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "valueOf", "__defineGetter__") },
  { weight: 2, arbitrary: fc.constantFrom("0", "-1", "1e309", "99999999999999999999999", "NaN", "101", "102", "10", "ana", "ben", "weeknight-dinners", "pins", "boards", "best", "1") },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 12 }).filter(clean).map(encodeURIComponent) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 12 }).filter(clean).map((text) => encodeURIComponent(text.replace(/[\uD800-\uDFFF]/g, ""))) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 80 }).map((n) => "a".repeat(n * 50)) },
  { weight: 2, arbitrary: fc.stringMatching(/^[A-Za-z0-9_.~-]{1,24}$/).filter(clean) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom("%F", "%E0%A4", "%"), fc.stringMatching(/^[A-Za-z0-9]{0,4}$/)).map(([a, b]) => a + b) },
);

/** A query string: resource data, search words, paging values, all with invalid escapes too. */
const queryValue: fc.Arbitrary<string> = fc.oneof(
  segment,
  fc.json({ maxDepth: 3 }).filter(clean).map(encodeURIComponent),
  fc.constantFrom("%7B", "%7B%22options%22%3A%7B%22__proto__%22%3A%7B%7D%7D%7D", encodeURIComponent('{"options":{"id":"101"}}'), "%FF%FE", "a%ZZ"),
);
const query: fc.Arbitrary<string> = fc
  .array(fc.tuple(fc.constantFrom("data", "q", "rs", "page", "bookmark", "source_url", "locale", "next", "utm_source", "__proto__", "invite_code", "scope", "x"), queryValue), { maxLength: 4 })
  .map((pairs) => (pairs.length === 0 ? "" : `?${pairs.map(([name, value]) => `${name}=${value}`).join("&")}`));

/** A route's pattern with each parameter (and any trailing *) replaced by generated segments. */
function instantiate(pattern: string): fc.Arbitrary<string> {
  const params = pattern.match(/:[A-Za-z_]+(?:\{[^}]*\})?|\*/g) ?? [];
  return fc.tuple(fc.array(segment, { minLength: params.length, maxLength: params.length }), fc.array(segment, { maxLength: 3 })).map(([values, rest]) => {
    let index = 0;
    return pattern.replace(/:[A-Za-z_]+(?:\{[^}]*\})?|\*/g, (param) => (param === "*" ? [values[index++], ...rest].join("/") : values[index++]!));
  });
}

/** A path near a route: the route itself with generated parameters, then perhaps bent out of shape. */
function pathNear(routes: RouteTemplate[]): fc.Arbitrary<{ route: RouteTemplate; path: string }> {
  return fc.constantFrom(...routes).chain((route) =>
    fc
      .tuple(instantiate(route.pattern), fc.constantFrom("as-is", "as-is", "append", "prefix-dots", "drop-slash", "double-slash", "replace-segment"), segment, query)
      .map(([path, bend, extra, search]) => {
        const parts = path.split("/");
        const bent =
          bend === "append" ? `${path.replace(/\/$/, "")}/${extra}/`
          : bend === "prefix-dots" ? `/${extra}/..${path}`
          : bend === "drop-slash" ? path.replace(/\/$/, "") || "/"
          : bend === "double-slash" ? path.replace(/(?!^)\//g, "//")
          : bend === "replace-segment" && parts.length > 2 ? [...parts.slice(0, -2), extra, ""].join("/")
          : path;
        return { route, path: `${bent}${search}` };
      }),
  );
}

/** Keys a body may carry: the ones calls know, the ones JavaScript treats specially, and noise. */
const key: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "__proto__", "constructor", "prototype", "toString", "options", "context", "data", "id", "pin_id", "board_id", "name", "title", "text",
    "username_or_email", "password", "email", "username", "first_name", "token", "isRegistration", "is_private_profile", "passcode",
    "reaction_type", "queryHash", "variables", "events", "report_time", "aux_data", "user_behavior_data", "visited_pages", "photo", "host",
  ),
  fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,15}$/).filter(clean),
  fc.string({ maxLength: 8 }).filter(clean),
);

/** JSON values, shallow and wide or narrow and deep. */
const jsonValue: fc.Arbitrary<unknown> = fc.oneof(fc.jsonValue({ maxDepth: 4 }), fc.constantFrom(null, true, "", "101", 101, -1, 1e308, "%FF", "\u0000"));

/** JSON text whose keys may be __proto__ at any depth (an object literal cannot carry one, so it is written out). */
const jsonText: fc.Arbitrary<string> = fc.letrec<{ text: string }>((tie) => ({
  text: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    jsonValue.map((value) => JSON.stringify(value) ?? "null"),
    fc.array(fc.tuple(key, tie("text")), { maxLength: 5 }).map((pairs) => `{${pairs.map(([name, value]) => `${JSON.stringify(name)}:${value}`).join(",")}}`),
    fc.array(tie("text"), { maxLength: 4 }).map((items) => `[${items.join(",")}]`),
  ),
})).text;

const envelope = (options: string) => `{"options":${options}}`;

/** Values an option may be sent: ids that exist and ones that cannot, edge numbers, odd text, wrong types. */
const optionValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom("101", "10", "1", "2", "0", "-1", "99999999999999999999", "1e309", "%FF", "", " ", "\u0000", "ana", "pins", "public", "secret", "protected"),
  fc.constantFrom(true, false, null, 0, -1, 101, 1.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, [], {}, ["101"], ["10", "10"]),
  fc.string({ maxLength: 30 }).filter(clean),
  fc.string({ unit: "grapheme", maxLength: 200 }).filter(clean),
  fc.integer({ min: 1, max: 40 }).map((n) => "x".repeat(n * 250)),
  fc.array(fc.constantFrom("101", "10", "1", "0", "-1", "a"), { maxLength: 80 }),
  fc.jsonValue({ maxDepth: 2 }),
);

/** Options a route's schema knows, each with a generated value: these reach the handlers. */
const knownOptions = (names: string[]): fc.Arbitrary<string> =>
  fc.subarray(names).chain((chosen) => fc.tuple(...chosen.map(() => optionValue)).map((values) => JSON.stringify(Object.fromEntries(chosen.map((name, index) => [name, values[index]])))));
/** Nesting around the limit, or far past it (`far` bounds how far: a URL carries less than a body). */
const nestingUpTo = (far: number) =>
  fc.tuple(fc.integer({ min: 28, max: 40 }), fc.integer({ min: 41, max: far }), fc.boolean(), fc.boolean()).map(([near, deep, deepOne, arrays]) => {
    const levels = deepOne ? deep : near;
    return arrays ? "[".repeat(levels) + "]".repeat(levels) : '{"a":'.repeat(levels) + "1" + "}".repeat(levels);
  });
const nesting = nestingUpTo(20_000);

/** Bytes that are not UTF-8 spliced into otherwise good text. */
function withBadBytes(text: string, at: number, bytes: number[]): Uint8Array<ArrayBuffer> {
  const encoded = new TextEncoder().encode(text);
  const cut = Math.min(at, encoded.length);
  return new Uint8Array([...encoded.slice(0, cut), ...bytes, ...encoded.slice(cut)]);
}

type Body = { contentType: string | null; body: string | Uint8Array<ArrayBuffer> | { huge: number; chunked: boolean } | null };

const badBytes = fc.array(fc.integer({ min: 0x80, max: 0xff }), { minLength: 1, maxLength: 6 });

const jsonBody: fc.Arbitrary<Body> = fc.oneof(
  jsonText.map((text) => ({ contentType: "application/json", body: envelope(text) })),
  jsonText.map((text) => ({ contentType: "application/json; charset=utf-8", body: text })),
  fc.tuple(jsonText, fc.nat()).map(([text, at]) => ({ contentType: "application/json", body: envelope(text).slice(0, at % (envelope(text).length + 1)) })),
  fc.tuple(jsonText, fc.nat(), fc.constantFrom("{", "}", ",", ":", '"', "\\", "\u0000", "NaN", "undefined", "'")).map(([text, at, junk]) => {
    const whole = envelope(text);
    const cut = at % (whole.length + 1);
    return { contentType: "application/json", body: whole.slice(0, cut) + junk + whole.slice(cut) };
  }),
  nesting.map((deep) => ({ contentType: "application/json", body: envelope(`{"name":${deep},"events":[${deep}]}`) })),
  fc.tuple(jsonText, fc.nat(), badBytes).map(([text, at, bytes]) => ({ contentType: "application/json", body: withBadBytes(envelope(text), at, bytes) })),
);

const formPart = fc.tuple(key, fc.oneof(segment, jsonText, fc.constantFrom("%FF", "%", "+", "true", "1", "a&b=c")));
const formBody: fc.Arbitrary<Body> = fc.oneof(
  fc.array(formPart, { maxLength: 6 }).map((pairs) => ({ contentType: "application/x-www-form-urlencoded", body: pairs.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join("&") })),
  fc.array(formPart, { maxLength: 6 }).map((pairs) => ({ contentType: "application/x-www-form-urlencoded", body: pairs.map(([name, value]) => `${name}=${value}`).join("&") })),
  fc.tuple(fc.array(formPart, { maxLength: 3 }), fc.nat(), badBytes).map(([pairs, at, bytes]) => ({
    contentType: "application/x-www-form-urlencoded",
    body: withBadBytes(pairs.map(([name, value]) => `${name}=${value}`).join("&"), at, bytes),
  })),
);

const BOUNDARY = "fuzzBoundary0a1b2c";
const multipartBody: fc.Arbitrary<Body> = fc
  .tuple(
    fc.array(fc.tuple(key, fc.oneof(segment, jsonText), fc.boolean()), { maxLength: 4 }),
    fc.constantFrom("well-framed", "truncated", "other-boundary", "no-boundary", "empty-boundary", "quoted-boundary", "no-final", "no-headers", "garbage", "bad-bytes"),
    fc.nat(),
    badBytes,
  )
  .map(([parts, shape, at, bytes]) => {
    const framed = (boundary: string) =>
      parts
        .map(([name, value, isFile]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${isFile ? '; filename="a.jpg"\r\nContent-Type: image/jpeg' : ""}\r\n\r\n${value}\r\n`)
        .join("") + `--${boundary}--\r\n`;
    const whole = framed(BOUNDARY);
    const type = `multipart/form-data; boundary=${BOUNDARY}`;
    switch (shape) {
      case "truncated":
        return { contentType: type, body: whole.slice(0, at % (whole.length + 1)) };
      case "other-boundary":
        return { contentType: type, body: framed("someOtherBoundary") };
      case "no-boundary":
        return { contentType: "multipart/form-data", body: whole };
      case "empty-boundary":
        return { contentType: "multipart/form-data; boundary=", body: whole };
      case "quoted-boundary":
        return { contentType: `multipart/form-data; boundary="${BOUNDARY}`, body: whole };
      case "no-final":
        return { contentType: type, body: whole.replace(`--${BOUNDARY}--\r\n`, "") };
      case "no-headers":
        return { contentType: type, body: whole.replace(/Content-Disposition[^\r]*\r\n/g, "") };
      case "garbage":
        return { contentType: type, body: `${"x".repeat(at % 64)}\r\n--\r\n` };
      case "bad-bytes":
        return { contentType: type, body: withBadBytes(whole, at, bytes) };
      default:
        return { contentType: type, body: whole };
    }
  });

const otherBody: fc.Arbitrary<Body> = fc.oneof(
  fc.tuple(fc.constantFrom(null, "text/plain", "application/xml", "application/json;;", "multipart/mixed; boundary=a", "x/y", "application/x-www-form-urlencoded; charset=latin1", "*/*"), fc.oneof(jsonText, segment)).map(([contentType, body]) => ({ contentType, body })),
  fc.constant<Body>({ contentType: "application/json", body: null }),
  fc.constant<Body>({ contentType: null, body: null }),
);

/** Over the app-wide limit: rare, since each one carries a mebibyte. */
const hugeBody: fc.Arbitrary<Body> = fc
  .tuple(fc.constantFrom("application/json", "application/x-www-form-urlencoded", `multipart/form-data; boundary=${BOUNDARY}`), fc.integer({ min: 1, max: 4096 }), fc.boolean())
  .map(([contentType, over, chunked]) => ({ contentType, body: { huge: MAX_BODY_BYTES + over, chunked } }));

const body: fc.Arbitrary<Body> = fc.oneof(
  { weight: 24, arbitrary: jsonBody },
  { weight: 12, arbitrary: formBody },
  { weight: 15, arbitrary: multipartBody },
  { weight: 6, arbitrary: otherBody },
  { weight: 1, arbitrary: hugeBody },
);

// ── Sending ────────────────────────────────────────────────────────────────────────────────

let session: { cookie: string } | null = null;
let ip = 0;

/** A session for Ana; a case that signs her out or rotates it (a session Set-Cookie) makes the next case start a new one. */
async function sessionCookie(): Promise<string> {
  session ??= await createSession(USERS.ana.id);
  return session.cookie;
}

function materialize(sent: Body["body"]): BodyInit | null {
  if (sent === null || typeof sent === "string" || sent instanceof Uint8Array) return sent;
  const bytes = new Uint8Array(sent.huge).fill(0x61);
  if (!sent.chunked) return bytes;
  // Without a Content-Length: the limit has to count the bytes as they arrive.
  return new ReadableStream({
    start(controller) {
      for (let offset = 0; offset < bytes.length; offset += 64 * 1024) controller.enqueue(bytes.slice(offset, offset + 64 * 1024));
      controller.close();
    },
  });
}

interface Case {
  method: string;
  path: string;
  signedIn: boolean;
  sent?: Body;
  acceptLanguage?: string | undefined;
}

const seen = { cases: 0, statuses: new Map<number, number>() };

async function send({ method, path, signedIn, sent, acceptLanguage }: Case): Promise<void> {
  const headers: Record<string, string> = {
    "user-agent": BROWSER_UA,
    "cf-connecting-ip": `203.0.113.${++ip % 250}`,
    cookie: `csrftoken=${CSRF}${signedIn ? `; ${await sessionCookie()}` : ""}`,
    origin: BASE,
    "x-csrftoken": CSRF,
  };
  if (acceptLanguage) headers["accept-language"] = acceptLanguage;
  if (sent?.contentType) headers["content-type"] = sent.contentType;
  const withBody = sent && method !== "GET" && method !== "HEAD";
  // Joined, not resolved against the origin: a path such as //x is a path here, as on the wire.
  const { exports } = await import("cloudflare:workers");
  const response = await exports.default.fetch(new Request(`${BASE}${path}`, { method, headers, body: withBody ? materialize(sent.body) : null, redirect: "manual" }));
  const text = await response.text();
  if (signedIn && response.headers.getSetCookie().some((line) => line.startsWith(`${SESSION_COOKIE}=`))) session = null;
  seen.cases++;
  seen.statuses.set(response.status, (seen.statuses.get(response.status) ?? 0) + 1);
  const shown = `${method} ${path} → ${response.status}: ${text.slice(0, 300)}`;
  expect(response.status, shown).toBeLessThan(500);
  expect(text, shown).not.toMatch(LEAK);
  for (const [name, value] of response.headers) expect(`${name}: ${value}`, shown).not.toMatch(LEAK);
}

const METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"];

beforeAll(async () => {
  await seedAccounts();
  await env.DB.batch([
    env.DB.prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, created_at, updated_at) VALUES (10, 1, 'Weeknight dinners', 'weeknight-dinners', 'public', 0, 0)"),
    env.DB.prepare("INSERT INTO pins (id, pinner_id, board_id, kind, title, description, image_signature, created_at, updated_at) VALUES (101, 1, 10, 'image', 'Lemon tart', 'A tart', 'sig', 0, 0)"),
    env.DB.prepare("INSERT INTO pin_images (pin_id, size, url, width, height, dominant_color) VALUES (101, '236x', '/media/pins/101/236x.jpg', 236, 354, '#a1b2c3')"),
    env.DB.prepare("INSERT INTO board_pins (board_id, pin_id, section_id, saved_by, position, created_at) VALUES (10, 101, NULL, 1, 0, 0)"),
  ]);
});

// Runs per property: 5,000 cases in all, within about a minute on a shared two-core machine.
const RUNS = { bodies: 2800, resourceReads: 1000, edgePaths: 600, pages: 600 };
const options = (numRuns: number) => ({ seed: SEED, numRuns, endOnFailure: true });

describe("generated input never makes the Worker answer 5xx or show its internals", { timeout: 240_000 }, () => {
  it("bodies to every write route", async () => {
    const cases = fc.record({
      at: pathNear(WRITE_ROUTES),
      method: fc.oneof({ weight: 9, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom(...METHODS) }),
      signedIn: fc.boolean(),
    }).chain((picked) => {
      const names = picked.at.route.options ?? [];
      const sent = names.length === 0 ? body : fc.oneof({ weight: 3, arbitrary: body }, { weight: 2, arbitrary: knownOptions(names).map((options): Body => ({ contentType: "application/json", body: envelope(options) })) });
      return sent.map((chosen) => ({ ...picked, sent: chosen }));
    });
    await fc.assert(
      fc.asyncProperty(cases, ({ at, method, signedIn, sent }) => send({ method: method ?? at.route.method, path: at.path, signedIn, sent })),
      options(RUNS.bodies),
    );
  });

  it("resource reads with generated data", async () => {
    const reads = RESOURCE_ROUTES.filter((route) => route.method === "GET");
    const cases = fc.constantFrom(...reads).chain((route) =>
      fc.record({
        route: fc.constant(route),
        data: fc.oneof(
          { weight: 3, arbitrary: knownOptions(route.options ?? []).map(envelope) },
          { weight: 2, arbitrary: jsonText.map(envelope) },
          { weight: 1, arbitrary: jsonText },
          { weight: 1, arbitrary: nestingUpTo(2000).map((deep) => envelope(`{"id":${deep}}`)) },
        ),
        raw: fc.boolean(),
        signedIn: fc.boolean(),
      }),
    );
    await fc.assert(
      fc.asyncProperty(cases, ({ route, data, raw, signedIn }) =>
        send({ method: "GET", path: `${route.pattern}?data=${raw ? data.replace(/[#&]/g, encodeURIComponent) : encodeURIComponent(data)}`, signedIn }),
      ),
      options(RUNS.resourceReads),
    );
  });

  it("paths and queries at the edge routes (media, /v3, GraphQL, state, attribution, sessions, sitemaps)", async () => {
    const cases = fc.record({ at: pathNear([...EDGE_ROUTE_TEMPLATES, ...RESOURCE_ROUTES]), method: fc.constantFrom(...METHODS), signedIn: fc.boolean() });
    await fc.assert(
      fc.asyncProperty(cases, ({ at, method, signedIn }) => send({ method, path: at.path, signedIn, sent: { contentType: "application/json", body: "{}" } })),
      options(RUNS.edgePaths),
    );
  });

  it("paths and queries at every page", async () => {
    const cases = fc.record({
      at: fc.oneof({ weight: 4, arbitrary: pathNear(PAGE_ROUTES) }, { weight: 1, arbitrary: fc.array(segment, { maxLength: 5 }).map((parts) => ({ route: PAGE_ROUTES[0]!, path: `/${parts.join("/")}` })) }),
      method: fc.oneof({ weight: 8, arbitrary: fc.constant("GET") }, { weight: 1, arbitrary: fc.constantFrom("HEAD", "POST") }),
      signedIn: fc.boolean(),
      acceptLanguage: fc.constantFrom(undefined, "fr", "ar-SA", "xx-%FF", "*;q=abc"),
    });
    await fc.assert(
      fc.asyncProperty(cases, ({ at, method, signedIn, acceptLanguage }) =>
        send({ method, path: at.path, signedIn, acceptLanguage, sent: { contentType: "application/x-www-form-urlencoded", body: "a=b" } }),
      ),
      options(RUNS.pages),
    );
  });

  it("sent at least 5,000 cases", () => {
    expect(seen.cases).toBeGreaterThanOrEqual(5000);
    const statuses = JSON.stringify([...seen.statuses].sort(([a], [b]) => a - b));
    // The inputs reached past the door: parsers refused some, handlers answered others.
    expect(seen.statuses.get(400) ?? 0, statuses).toBeGreaterThan(500);
    expect(seen.statuses.get(404) ?? 0, statuses).toBeGreaterThan(200);
    expect(seen.statuses.get(200) ?? 0, statuses).toBeGreaterThan(100);
  });
});
