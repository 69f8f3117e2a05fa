// A 400 answer's field problems (the server's message_detail: "field: reason; field: reason")
// as a map the forms show beside each field.
import type { ApiCallError } from "~/api/api.client.ts";

export function parseFieldProblems(detail: string | null): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const part of (detail ?? "").split("; ")) {
    const at = part.indexOf(": ");
    if (at > 0) problems[part.slice(0, at).trim()] = part.slice(at + 2).trim();
  }
  return problems;
}

export function fieldProblems(error: ApiCallError): Partial<Record<"name" | "description" | "privacy", string>> {
  const all = parseFieldProblems(error.detail);
  const picked: Partial<Record<"name" | "description" | "privacy", string>> = {};
  for (const field of ["name", "description", "privacy"] as const) if (all[field]) picked[field] = all[field];
  // A 400 naming no form field still has to say something: put the message on the name.
  if (Object.keys(picked).length === 0) picked.name = error.message;
  return picked;
}
