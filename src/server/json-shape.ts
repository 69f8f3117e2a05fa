// What no schema can see in a parsed JSON value. Pure, so the browser's forms and the Worker's
// body readers (src/server/body.ts) refuse the same shapes.

/** Deepest nesting of objects and arrays a JSON value may have: every call's deepest shape is a few levels. */
export const MAX_JSON_DEPTH = 32;

export interface JsonShapeProblem {
  /** Keys from the value's root to the offending key or value. */
  path: string[];
  reason: "validation.unknownKey" | "validation.tooDeep";
}

/**
 * The first thing wrong with a parsed JSON value that a schema cannot see: an own `__proto__`
 * key (zod's records and every copy by assignment drop it silently, so it would never reach an
 * unknown-key check) or nesting past MAX_JSON_DEPTH (recursive code downstream could overflow
 * the stack on it). Iterative, so it cannot overflow on what it refuses.
 */
export function jsonShapeProblem(value: unknown): JsonShapeProblem | null {
  interface Step {
    node: unknown;
    depth: number;
    key: string;
    parent: Step | null;
  }
  const pathOf = (step: Step) => {
    const keys: string[] = [];
    for (let at: Step | null = step; at?.parent; at = at.parent) keys.push(at.key);
    return keys.reverse();
  };
  const stack: Step[] = [{ node: value, depth: 0, key: "", parent: null }];
  while (stack.length > 0) {
    const step = stack.pop()!;
    if (step.node === null || typeof step.node !== "object") continue;
    if (step.depth >= MAX_JSON_DEPTH) return { path: pathOf(step), reason: "validation.tooDeep" };
    for (const key of Object.keys(step.node)) {
      const child: Step = { node: (step.node as Record<string, unknown>)[key], depth: step.depth + 1, key, parent: step };
      if (key === "__proto__") return { path: pathOf(child), reason: "validation.unknownKey" };
      stack.push(child);
    }
  }
  return null;
}
