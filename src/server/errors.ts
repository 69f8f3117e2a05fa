// One error path for the edge functions. Handlers throw ApiError (a refusal only HTTP knows:
// a wrong method, a bad range, a failed CSRF check) or the data layer's DomainError; app.onError
// turns either (or anything unexpected) into the spec's resource error object (spec 000 §8),
// translated into the request's locale. Nothing thrown ever reaches a client as a stack trace.
import type { TFunction } from "i18next";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { DomainError, type DomainErrorKind, type FieldProblem } from "~/domain/errors.ts";

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
  /** An account switch whose target's own session has expired: log in to it again. */
  ReauthRequired: 19,
  /** Storage is momentarily out of reach: retry after the answer's Retry-After (src/server/unavailable.ts). */
  Unavailable: 20,
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

/** Each kind of refusal the data layer names, as HTTP answers it: the one place the two meet. */
const DOMAIN_STATUS = {
  invalid: [400, ErrorCode.InvalidParameters],
  unauthorized: [401, ErrorCode.Unauthorized],
  forbidden: [403, ErrorCode.Forbidden],
  not_found: [404, ErrorCode.NotFound],
  conflict: [409, ErrorCode.Conflict],
  gone: [410, ErrorCode.Gone],
  too_large: [413, ErrorCode.PayloadTooLarge],
  rate_limited: [429, ErrorCode.RateLimited],
  age_restricted: [409, ErrorCode.AgeRestricted],
  passcode_required: [403, ErrorCode.PasscodeRequired],
  passcode_locked: [403, ErrorCode.PasscodeLocked],
  passcode_incorrect: [403, ErrorCode.PasscodeIncorrect],
  limited_login: [403, ErrorCode.LimitedLogin],
  provider_unavailable: [503, ErrorCode.ProviderFailed],
  provider_unreachable: [502, ErrorCode.ProviderFailed],
  provider_refused: [401, ErrorCode.ProviderFailed],
  unavailable: [503, ErrorCode.Unavailable],
} as const satisfies Record<DomainErrorKind, readonly [ContentfulStatusCode, ErrorCode]>;

/** A data-layer refusal as the API answers it (an ApiError passes through). */
export function toApiError(error: ApiError | DomainError): ApiError {
  if (error instanceof ApiError) return error;
  const [status, code] = DOMAIN_STATUS[error.kind];
  const { retryAfterSeconds, ...options } = error.options;
  if (retryAfterSeconds === undefined) return new ApiError(status, code, options);
  // Storage out of reach is no answer worth keeping: the same call works again shortly.
  const headers: Record<string, string> = error.kind === "unavailable" ? { "Retry-After": String(retryAfterSeconds), "Cache-Control": "no-store" } : { "Retry-After": String(retryAfterSeconds) };
  return new ApiError(status, code, { ...options, headers });
}

/** The spec's resource error object. */
export interface ResourceError {
  api_error_code: number;
  code: number;
  message: string;
  message_detail: string | null;
  extra_data: Record<string, unknown> | null;
  http_status: number;
}

export function toResourceError(thrown: ApiError | DomainError, t: TFunction): ResourceError {
  const error = toApiError(thrown);
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
