// Reads a call's body as flat fields, whether the client sent a form (the spec's sign-up
// handshake is form-encoded) or JSON (the session exchange). Bounded: at most MAX_FIELDS
// fields, no files, and the app-wide 1 MiB body limit applies before this runs.
import type { Context } from "hono";
import { badRequest } from "../domain/errors.ts";
import type { AppEnv } from "./context.ts";

const MAX_FIELDS = 40;

export async function readFields(c: Context<AppEnv>): Promise<Record<string, unknown>> {
  const type = (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "application/json") {
    let json: unknown;
    try {
      json = JSON.parse(await c.req.text());
    } catch {
      throw badRequest([{ field: "body", reason: "validation.invalidFormat" }], "api.invalidJson");
    }
    if (json === null || typeof json !== "object" || Array.isArray(json)) throw badRequest([{ field: "body", reason: "validation.invalidType", values: { expected: "object" } }]);
    if (Object.keys(json).length > MAX_FIELDS) throw badRequest([{ field: "body", reason: "validation.tooBig", values: { maximum: MAX_FIELDS } }]);
    return json as Record<string, unknown>;
  }
  if (type === "application/x-www-form-urlencoded" || type === "multipart/form-data") {
    const form = await c.req.parseBody();
    const entries = Object.entries(form);
    if (entries.length > MAX_FIELDS) throw badRequest([{ field: "body", reason: "validation.tooBig", values: { maximum: MAX_FIELDS } }]);
    for (const [field, value] of entries) {
      if (typeof value !== "string") throw badRequest([{ field, reason: "validation.invalidType", values: { expected: "string" } }]);
    }
    return form as Record<string, string>;
  }
  if (type === "" && (c.req.header("content-length") ?? "0") === "0") return {};
  throw badRequest([{ field: "content-type", reason: "validation.invalidValue", values: { values: "application/json, application/x-www-form-urlencoded, multipart/form-data" } }]);
}
