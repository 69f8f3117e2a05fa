// Request bodies become values here and nowhere else. Every way a body can be malformed (JSON
// that does not parse, a multipart body that does not frame or names no boundary, bytes that
// are not UTF-8, nesting deeper than any call needs, a `__proto__` key) is a 400 naming the
// body and the reason, thrown as ApiError: never an exception for the 500 handler.
import type { Context } from "hono";
import type { BodyData } from "hono/utils/body";
import type { z } from "zod";
import { badRequest, zodProblems } from "~/domain/errors.ts";
import { MAX_JSON_DEPTH, jsonShapeProblem } from "./json-shape.ts";

/** Most fields a flat body (a form, or JSON read as fields) may carry. */
const MAX_FIELDS = 40;
export const BODY_TYPES = "application/json, application/x-www-form-urlencoded, multipart/form-data";

/** The request's media type, lower-cased, without parameters ("" when there is none). */
export function mediaTypeOf(c: Context): string {
  return (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
}

/**
 * JSON text as a value, or a 400: text that does not parse names `field`; a shape
 * jsonShapeProblem refuses (src/server/json-shape.ts) names the key's path under `prefix`.
 */
export function parseJsonText(text: string, field: string, prefix = field): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest([{ field, reason: "validation.invalidFormat" }], "api.invalidJson");
  }
  const problem = jsonShapeProblem(value);
  if (problem) {
    const at = [prefix, ...problem.path].filter(Boolean).join(".");
    throw badRequest([problem.reason === "validation.tooDeep" ? { field: at, reason: problem.reason, values: { maximum: MAX_JSON_DEPTH } } : { field: at, reason: problem.reason }]);
  }
  return value;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** The body as text; bytes that are not UTF-8 are a 400 rather than silently replaced. */
export async function readText(c: Context): Promise<string> {
  const bytes = await c.req.arrayBuffer();
  try {
    return utf8.decode(bytes);
  } catch {
    throw badRequest([{ field: "body", reason: "validation.notUtf8" }]);
  }
}

/** A JSON body, or a 400 naming the body (or, for a refused key, its path from the root). */
export async function readJson(c: Context): Promise<unknown> {
  return parseJsonText(await readText(c), "body", "");
}

/**
 * A form body (urlencoded or multipart) as Hono reads it, or a 400: a multipart type without its
 * boundary names the content-type; a body that does not frame (truncated, another boundary)
 * names the body. The platform's parser says which only in English prose, so the boundary is
 * checked here first.
 */
export async function readForm(c: Context): Promise<BodyData> {
  if (mediaTypeOf(c) === "multipart/form-data" && !/;\s*boundary=("[^"]+"|[^\s;]+)/i.test(c.req.header("content-type") ?? "")) {
    throw badRequest([{ field: "content-type", reason: "validation.missingBoundary" }], "api.invalidForm");
  }
  let form: BodyData;
  try {
    form = await c.req.parseBody();
  } catch {
    throw badRequest([{ field: "body", reason: "validation.invalidFormat" }], "api.invalidForm");
  }
  if (Object.hasOwn(form, "__proto__")) throw badRequest([{ field: "__proto__", reason: "validation.unknownKey" }]);
  return form;
}

/**
 * A body read as flat fields, whether the client sent a form (the spec's sign-up handshake is
 * form-encoded) or a JSON object (the session exchange). At most MAX_FIELDS fields, form
 * fields text only (no files); an empty body is no fields.
 */
export async function readFields(c: Context): Promise<Record<string, unknown>> {
  const type = mediaTypeOf(c);
  if (type === "application/json") {
    const json = await readJson(c);
    if (json === null || typeof json !== "object" || Array.isArray(json)) throw badRequest([{ field: "body", reason: "validation.invalidType", values: { expected: "object" } }]);
    if (Object.keys(json).length > MAX_FIELDS) throw badRequest([{ field: "body", reason: "validation.tooBig", values: { maximum: MAX_FIELDS } }]);
    return json as Record<string, unknown>;
  }
  if (type === "application/x-www-form-urlencoded" || type === "multipart/form-data") {
    const form = await readForm(c);
    const entries = Object.entries(form);
    if (entries.length > MAX_FIELDS) throw badRequest([{ field: "body", reason: "validation.tooBig", values: { maximum: MAX_FIELDS } }]);
    for (const [field, value] of entries) {
      if (typeof value !== "string") throw badRequest([{ field, reason: "validation.invalidType", values: { expected: "string" } }]);
    }
    return form as Record<string, string>;
  }
  if (type === "" && (c.req.header("content-length") ?? "0") === "0") return {};
  throw badRequest([{ field: "content-type", reason: "validation.invalidValue", values: { values: BODY_TYPES } }]);
}

/** A flat body (readFields) checked against a schema: its value, or a 400 naming each field and the reason. */
export async function readParsed<Schema extends z.ZodType>(c: Context, schema: Schema): Promise<z.output<Schema>> {
  const input = await readFields(c);
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw badRequest(zodProblems(parsed.error, "", input));
  return parsed.data;
}
