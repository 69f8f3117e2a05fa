// One error path for the edge functions. Handlers throw ApiError; app.onError turns it (or
// anything unexpected) into the spec's resource error object (spec 000 §8), translated into
// the request's locale. Nothing thrown ever reaches a client as a stack trace.
import type { TFunction } from "i18next";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { z } from "zod";

/** api_error_code values: stable numbers clients can branch on. */
export const ErrorCode = {
  InvalidParameters: 1,
  Unauthorized: 2,
  Forbidden: 3,
  NotFound: 4,
  MethodNotAllowed: 5,
  Conflict: 6,
  Gone: 7,
  PayloadTooLarge: 8,
  RateLimited: 9,
  CsrfFailed: 10,
  RangeNotSatisfiable: 11,
  /** Login: the password was right and the account asks for its second factor. */
  MfaRequired: 12,
  /** Sign-up refused for the birthday's age; the client sets the age-restriction cookie. */
  AgeRestricted: 13,
  /** A protected change needs the parental passcode. */
  PasscodeRequired: 14,
  /** Five wrong passcodes: locked until reset with the account password. */
  PasscodeLocked: 15,
  PasscodeIncorrect: 16,
  /** Signed in with limited login: this needs a full login. */
  LimitedLogin: 17,
  /** A configured outside service (human check, Facebook, Google) refused or is not set up. */
  ProviderFailed: 18,
  /** Storage is momentarily out of reach: retry after the answer's Retry-After (src/server/unavailable.ts). */
  Unavailable: 19,
  Internal: 99,
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export interface ApiErrorOptions {
  /** i18n key (namespace common) of the message, with its values. */
  message: string;
  values?: Record<string, string | number>;
  /** Already-translatable detail: "field: reason" lines for validation errors. */
  detail?: ReadonlyArray<FieldProblem>;
  extraData?: Record<string, unknown>;
  cause?: unknown;
  headers?: Record<string, string>;
}

export interface FieldProblem {
  field: string;
  reason: string;
  values?: Record<string, string | number>;
}

export class ApiError extends Error {
  readonly status: ContentfulStatusCode;
  readonly code: ErrorCode;
  readonly options: ApiErrorOptions;

  constructor(status: ContentfulStatusCode, code: ErrorCode, options: ApiErrorOptions) {
    super(options.message, { cause: options.cause });
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.options = options;
  }
}

export const badRequest = (detail: FieldProblem[], message = "api.invalidParameters") =>
  new ApiError(400, ErrorCode.InvalidParameters, { message, detail });
export const notFound = (message = "api.notFound", values?: Record<string, string>) =>
  new ApiError(404, ErrorCode.NotFound, values ? { message, values } : { message });

/** The spec's resource error object. */
export interface ResourceError {
  api_error_code: number;
  code: number;
  message: string;
  message_detail: string | null;
  extra_data: Record<string, unknown> | null;
  http_status: number;
}

export function toResourceError(error: ApiError, t: TFunction): ResourceError {
  const { message, values, detail, extraData } = error.options;
  const lines = detail?.map((problem) => `${problem.field}: ${t(problem.reason, problem.values ?? {})}`);
  return {
    api_error_code: error.code,
    code: error.code,
    message: t(message, values ?? {}),
    message_detail: lines && lines.length > 0 ? lines.join("; ") : null,
    extra_data: extraData ?? null,
    http_status: error.status,
  };
}

/** The unexpected: logged with its cause, answered with the default message and nothing else. */
export function internalError(cause: unknown): ApiError {
  return new ApiError(500, ErrorCode.Internal, { message: "api.default", cause });
}

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
