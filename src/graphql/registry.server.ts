// Hash → parsed, validated document. Keys are computed from the documents' exact text (SHA-256,
// lowercase hex) once per isolate, so a registry key can never drift from its document.
import { parse, specifiedRules, validate, type DocumentNode, type OperationDefinitionNode } from "graphql";
import { PERSISTED_DOCUMENTS, type QueryName } from "./documents/index.ts";
import { schema } from "./schema.server.ts";
import { MAX_DEPTH, maxDepthRule } from "./rules.ts";
import { sha256Hex } from "~/runtime/sha256.ts";

export interface PersistedDocument {
  name: QueryName;
  hash: string;
  text: string;
  document: DocumentNode;
  operation: OperationDefinitionNode;
}

function compile(name: QueryName, text: string, hash: string): PersistedDocument {
  const document = parse(text, { maxTokens: 2000 });
  const errors = validate(schema, document, [...specifiedRules, maxDepthRule(MAX_DEPTH)]);
  if (errors.length > 0) throw new Error(`persisted document ${name} is invalid: ${errors.map((e) => e.message).join("; ")}`);
  const operation = document.definitions.find((definition): definition is OperationDefinitionNode => definition.kind === "OperationDefinition");
  if (!operation || operation.name?.value !== name) throw new Error(`persisted document ${name} must hold the operation ${name}`);
  return { name, hash, text, document, operation };
}

let registry: Promise<ReadonlyMap<string, PersistedDocument>> | null = null;

/** The registry, built on first use and kept for the isolate's life. */
export function persistedDocuments(): Promise<ReadonlyMap<string, PersistedDocument>> {
  registry ??= Promise.all(
    (Object.entries(PERSISTED_DOCUMENTS) as Array<[QueryName, string]>).map(async ([name, text]) => compile(name, text, await sha256Hex(text))),
  ).then((documents) => new Map(documents.map((entry) => [entry.hash, entry])));
  return registry;
}
