// A persisted-query call from body to answer, without Hono: the body is checked (a hash and
// variables, never raw query text), the hash looked up, the variables coerced by graphql-js
// against the document's own definitions, and only then is anything run or forwarded. Every
// refusal happens before any origin is touched.
import { execute, getVariableValues, GraphQLError, validate, type ExecutionResult, type GraphQLFormattedError } from "graphql";
import { z } from "zod";
import { badRequest, zodProblems, type FieldProblem } from "~/domain/errors.ts";
import { persistedDocuments, type PersistedDocument } from "./registry.server.ts";
import { executionRules } from "./rules.ts";
import { schema, type GraphqlContext } from "./schema.server.ts";
import type { GraphqlErrorResult, GraphqlResult, GraphqlVariables, PersistedQueryRequest } from "./protocol.ts";

/** At most this many variables: more than any document declares. */
const MAX_VARIABLES = 16;

const requestSchema = z.strictObject({
  queryHash: z.string().regex(/^[0-9a-f]{64}$/, "validation.invalidFormat"),
  variables: z.record(z.string().max(64), z.unknown()).optional(),
});

/** The body's shape, or a 400 naming what is wrong. Raw query text is refused by name. */
export function parsePersistedRequest(body: unknown): PersistedQueryRequest {
  if (body !== null && typeof body === "object" && !Array.isArray(body) && "query" in body) {
    throw badRequest([{ field: "query", reason: "validation.rawQuery" }]);
  }
  const parsed = requestSchema.safeParse(body);
  if (!parsed.success) throw badRequest(zodProblems(parsed.error, "", body));
  const variables = parsed.data.variables ?? {};
  if (Object.keys(variables).length > MAX_VARIABLES) throw badRequest([{ field: "variables", reason: "validation.tooBig", values: { maximum: MAX_VARIABLES } }]);
  // A key the parse could not keep as its own (`__proto__`) would vanish on the way upstream
  // instead of being refused: no document declares one, so it is an unknown variable.
  const sent = (body as { variables?: object }).variables ?? {};
  const lost = Object.keys(sent).find((name) => !Object.hasOwn(variables, name));
  if (lost !== undefined) throw badRequest([{ field: `variables.${lost}`, reason: "validation.unknownKey" }]);
  return { queryHash: parsed.data.queryHash, variables };
}

/** The registry's document for a hash, or a 400: an unknown hash is never forwarded. */
export async function documentFor(queryHash: string): Promise<PersistedDocument> {
  const document = (await persistedDocuments()).get(queryHash);
  if (!document) throw badRequest([{ field: "queryHash", reason: "validation.unknownQuery" }]);
  return document;
}

const VARIABLE_NAME = /Variable "\$([A-Za-z_][A-Za-z0-9_]*)"/;

/**
 * The variables as the document defines them (graphql-js coercion), or a 400 naming each bad
 * one. A variable the document does not declare is refused too, so nothing unknown travels.
 */
export function checkVariables(document: PersistedDocument, variables: GraphqlVariables): void {
  const definitions = document.operation.variableDefinitions ?? [];
  const declared = new Set(definitions.map((definition) => definition.variable.name.value));
  const problems: FieldProblem[] = Object.keys(variables)
    .filter((name) => !declared.has(name))
    .map((name) => ({ field: `variables.${name}`, reason: "validation.unknownKey" }));
  if (problems.length === 0) {
    const coerced = getVariableValues(schema, definitions, variables, { maxErrors: 10, hideSuggestions: true });
    if ("errors" in coerced && coerced.errors) {
      for (const error of coerced.errors) {
        const name = VARIABLE_NAME.exec(error.message)?.[1];
        problems.push({ field: name ? `variables.${name}` : "variables", reason: /was not provided|must not be null/.test(error.message) ? "validation.required" : "validation.invalid" });
      }
    }
  }
  if (problems.length > 0) throw badRequest(problems);
}

const validated = new Map<string, ReadonlyArray<GraphQLError>>();

/** The per-environment rules (introspection off outside development, depth), once per document. */
export function checkDocument(document: PersistedDocument, development: boolean): void {
  const key = `${document.hash}:${development ? "dev" : "prod"}`;
  let errors = validated.get(key);
  if (!errors) {
    errors = validate(schema, document.document, executionRules(development));
    validated.set(key, errors);
  }
  if (errors.length > 0) throw badRequest([{ field: "queryHash", reason: "validation.invalid" }]);
}

/** Field errors a client may see: ours (with a code) as they are; anything else masked. */
function formatResult(result: ExecutionResult): GraphqlResult {
  const formatted: GraphqlResult = { data: (result.data as Record<string, unknown> | null | undefined) ?? null };
  if (result.errors?.length) {
    formatted.errors = result.errors.map((error): GraphqlErrorResult => {
      const code = error.extensions["code"];
      if (typeof code === "string") {
        const shown: GraphQLFormattedError = error.toJSON();
        return { message: shown.message, ...(shown.path ? { path: shown.path } : {}), extensions: { code } };
      }
      console.error(error.cause ?? error);
      return { message: "Internal error", ...(error.path ? { path: error.path } : {}), extensions: { code: "INTERNAL" } };
    });
  }
  return formatted;
}

/** Runs a checked document on the built-in origin (the data layer). */
export async function executeLocally(
  document: PersistedDocument,
  variables: GraphqlVariables,
  context: Omit<GraphqlContext, "pins" | "related"> & Partial<Pick<GraphqlContext, "pins" | "related">>,
  signal?: AbortSignal,
): Promise<GraphqlResult> {
  const result = await execute({
    schema,
    document: document.document,
    variableValues: variables,
    contextValue: { pins: new Map(), related: new Map(), ...context } satisfies GraphqlContext,
    hideSuggestions: true,
    ...(signal ? { abortSignal: signal } : {}),
  });
  return formatResult(result);
}
