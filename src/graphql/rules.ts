// Validation rules every executed document passes besides graphql-js's own: a depth bound
// and, outside development, no introspection (NoSchemaIntrospectionCustomRule).
import { GraphQLError, Kind, NoSchemaIntrospectionCustomRule, specifiedRules, type ASTNode, type ValidationContext, type ValidationRule } from "graphql";

/** Deepest selection any persisted document may reach (fields within fields). */
export const MAX_DEPTH = 6;

export function maxDepthRule(maxDepth: number): ValidationRule {
  return (context: ValidationContext) => {
    const fragments = new Map(
      context
        .getDocument()
        .definitions.flatMap((definition) => (definition.kind === Kind.FRAGMENT_DEFINITION ? [[definition.name.value, definition] as const] : [])),
    );
    const depthOf = (node: ASTNode, seen: Set<string>): number => {
      if (node.kind === Kind.FIELD) return node.selectionSet ? 1 + Math.max(0, ...node.selectionSet.selections.map((child) => depthOf(child, seen))) : 1;
      if (node.kind === Kind.INLINE_FRAGMENT) return Math.max(0, ...node.selectionSet.selections.map((child) => depthOf(child, seen)));
      if (node.kind === Kind.FRAGMENT_SPREAD) {
        const fragment = fragments.get(node.name.value);
        if (!fragment || seen.has(node.name.value)) return 0;
        return Math.max(0, ...fragment.selectionSet.selections.map((child) => depthOf(child, new Set([...seen, node.name.value]))));
      }
      return 0;
    };
    return {
      OperationDefinition(operation) {
        const depth = Math.max(0, ...operation.selectionSet.selections.map((child) => depthOf(child, new Set())));
        if (depth > maxDepth) context.reportError(new GraphQLError(`Operation is ${depth} fields deep; at most ${maxDepth} are allowed`, { nodes: operation }));
      },
    };
  };
}

/** The rules an executed document must pass: introspection only in development. */
export function executionRules(development: boolean): ReadonlyArray<ValidationRule> {
  const rules = [...specifiedRules, maxDepthRule(MAX_DEPTH)];
  return development ? rules : [...rules, NoSchemaIntrospectionCustomRule];
}
