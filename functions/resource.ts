// The spec's XResource calls at /resource/{Name}/{get|create|update|delete}/.
// get: GET with a `data` query parameter. create, update, delete: POST with a `data` form
// field or a JSON body. `data` is JSON {"options": {...}}, option names as the spec writes
// them. Answers {"resource_response": {status, code, message, data}}; failures carry the
// resource error object (src/server/errors.ts) with a matching HTTP status.
import { Hono, type Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "~/server/context.ts";
import { ApiError, ErrorCode } from "~/server/errors.ts";
import { badRequest, notFound, zodProblems } from "~/domain/errors.ts";
import { BODY_TYPES, mediaTypeOf, parseJsonText, readForm, readText } from "~/server/body.ts";
import { answerOnce } from "~/server/client-request.ts";
import { resources, type ResourceAction } from "./resources/index.ts";

const NAME_PATTERN = /^[A-Z][A-Za-z0-9]{0,63}Resource$/;

const dataSchema = z.object({
  options: z.record(z.string(), z.unknown()).default({}),
  context: z.record(z.string(), z.unknown()).optional(),
});

/** `data` text as its envelope; the shared JSON reader refuses what no schema could see (src/server/body.ts). */
function parseDataText(text: string | null | undefined): z.infer<typeof dataSchema> {
  if (text === null || text === undefined || text === "") return { options: {} };
  const json = parseJsonText(text, "data");
  const parsed = dataSchema.safeParse(json);
  if (!parsed.success) throw badRequest(zodProblems(parsed.error, "data", json));
  return parsed.data;
}

async function readData(c: Context<AppEnv>): Promise<z.infer<typeof dataSchema>> {
  if (c.req.method === "GET") return parseDataText(c.req.query("data"));
  const type = mediaTypeOf(c);
  if (type === "application/json") return parseDataText(await readText(c));
  if (type === "application/x-www-form-urlencoded" || type === "multipart/form-data") {
    const field = (await readForm(c)).data;
    return parseDataText(typeof field === "string" ? field : null);
  }
  throw badRequest([{ field: "content-type", reason: "validation.invalidValue", values: { values: BODY_TYPES } }]);
}

export const resourceRoutes = new Hono<AppEnv>();

resourceRoutes.all("/:name/:action{(get|create|update|delete)/?}", async (c) => {
  const name = c.req.param("name");
  const action = c.req.param("action").replace(/\/$/, "") as ResourceAction;
  const definition = NAME_PATTERN.test(name) ? resources[name]?.[action] : undefined;
  if (!definition) throw notFound("api.resourceNotFound", { name: name.slice(0, 64) });

  const expectedMethod = action === "get" ? "GET" : "POST";
  if (c.req.method !== expectedMethod && !(action === "get" && c.req.method === "HEAD")) {
    throw new ApiError(405, ErrorCode.MethodNotAllowed, { message: "api.methodNotAllowed", headers: { Allow: expectedMethod } });
  }

  const data = await readData(c);
  const options = definition.options.safeParse(data.options);
  if (!options.success) throw badRequest(zodProblems(options.error, "options", data.options));

  // A write named by a client request id is applied once, however often it is sent.
  const run = () => definition.handle(c, options.data);
  const result = definition.appliesOnce ? await answerOnce(c, run) : await run();
  return c.json(
    { resource_response: { status: "success", code: 0, message: "ok", data: result } },
    200,
    { "Cache-Control": "private, no-store" },
  );
});

resourceRoutes.all("*", () => {
  throw notFound();
});

