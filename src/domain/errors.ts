// What the data layer answers when it refuses: a DomainError names the kind of refusal and the
// i18n message, and nothing about HTTP. The edge functions' one error path
// (src/server/errors.ts) maps each kind to its status and api_error_code, so a `*.server.ts`
// module never picks a status and the API answers the same wherever the refusal came from.
import type { z } from "zod";

export type DomainErrorKind =
  // Bad input: detail names each field and reason.
  | "invalid"
  // Signed out where a login is needed.
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  // Existed and was deleted (a pin's close-up answers this).
  | "gone"
  | "too_large"
  // Over a throttle; retryAfterSeconds says when the window ends.
  | "rate_limited"
  // Sign-up refused for the birthday's age; the client sets the age-restriction cookie.
  | "age_restricted"
  // A protected change needs the parental passcode.
  | "passcode_required"
  // Five wrong passcodes: locked until reset with the account password.
  | "passcode_locked"
  | "passcode_incorrect"
  // Signed in with limited login: this needs a full login.
  | "limited_login"
  // A configured outside service is not set up, cannot be reached, or refused.
  | "provider_unavailable"
  | "provider_unreachable"
  | "provider_refused"
  /** Storage briefly out of reach (R2 not answering): the same call works again shortly. */
  | "unavailable";

export interface FieldProblem {
  field: string;
  reason: string;
  values?: Record<string, string | number>;
}

export interface DomainErrorOptions {
  /** i18n key of the message (namespace common unless it names one), with its values. */
  message: string;
  values?: Record<string, string | number>;
  /** "field: reason" lines for bad input. */
  detail?: ReadonlyArray<FieldProblem>;
  extraData?: Record<string, unknown>;
  /** For rate_limited: seconds until the throttle's window ends. */
  retryAfterSeconds?: number;
  cause?: unknown;
}

export class DomainError extends Error {
  readonly kind: DomainErrorKind;
  readonly options: DomainErrorOptions;

  constructor(kind: DomainErrorKind, options: DomainErrorOptions) {
    super(options.message, { cause: options.cause });
    this.name = "DomainError";
    this.kind = kind;
    this.options = options;
  }
}

export const badRequest = (detail: FieldProblem[], message = "api.invalidParameters") => new DomainError("invalid", { message, detail });
export const notFound = (message = "api.notFound", values?: Record<string, string>) => new DomainError("not_found", values ? { message, values } : { message });
export const forbidden = (message = "api.forbidden") => new DomainError("forbidden", { message });
export const conflict = (message: string, extraData?: Record<string, unknown>) => new DomainError("conflict", extraData ? { message, extraData } : { message });

/** True for a refusal of this kind (a caller that re-words a lookup's 404, say). */
export const isDomainError = (error: unknown, kind: DomainErrorKind): error is DomainError => error instanceof DomainError && error.kind === kind;

const MAX_PROBLEMS = 20;

function valueAt(input: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let node = input;
  for (const key of path) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return node;
}

/**
 * zod issues → field problems with i18n reasons ("title: must be at most 50 characters").
 * `input` is what was parsed: it tells a missing field from one of the wrong type.
 */
export function zodProblems(error: z.ZodError, prefix = "", input?: unknown): FieldProblem[] {
  return error.issues.slice(0, MAX_PROBLEMS).map((issue) => {
    const field = [prefix, ...issue.path.map(String)].filter(Boolean).join(".") || prefix || "body";
    switch (issue.code) {
      case "invalid_type":
        return valueAt(input, issue.path) === undefined
          ? { field, reason: "validation.required" }
          : { field, reason: "validation.invalidType", values: { expected: String(issue.expected) } };
      case "too_big":
        return {
          field,
          reason: issue.origin === "string" ? "validation.tooLong" : "validation.tooBig",
          values: { maximum: Number(issue.maximum) },
        };
      case "too_small":
        return {
          field,
          reason: issue.origin === "string" ? "validation.tooShort" : "validation.tooSmall",
          values: { minimum: Number(issue.minimum) },
        };
      case "invalid_format":
        return { field, reason: "validation.invalidFormat" };
      case "invalid_value":
        return { field, reason: "validation.invalidValue", values: { values: issue.values.map(String).join(", ") } };
      case "unrecognized_keys":
        return { field: [field === "body" ? "" : field, issue.keys[0]].filter(Boolean).join("."), reason: "validation.unknownKey" };
      case "custom": {
        // A feature's own rule names its message as "namespace:key", with values in params.
        const values = (issue.params as { values?: Record<string, string | number> } | undefined)?.values;
        if (!/^[a-z]+:[A-Za-z.]+$/.test(issue.message)) return { field, reason: "validation.invalid" };
        return values ? { field, reason: issue.message, values } : { field, reason: issue.message };
      }
      default:
        return { field, reason: "validation.invalid" };
    }
  });
}

/** How long a client is asked to wait when storage is out of reach: D1 resets and lost connections clear within seconds. */
export const RETRY_AFTER_SECONDS = 10;

/** Storage out of reach: a 503 asking the client to retry after RETRY_AFTER_SECONDS. */
export function storageUnavailable(cause: unknown): DomainError {
  return new DomainError("unavailable", { message: "api.unavailable", retryAfterSeconds: RETRY_AFTER_SECONDS, cause });
}
