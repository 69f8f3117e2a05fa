import { beforeAll, describe, expect, it } from "vitest";
import { DomainError, badRequest, storageUnavailable } from "~/domain/errors.ts";
import { getT, loadLocale } from "~/i18n/i18n.ts";
import { ApiError, ErrorCode, internalError, toApiError, toResourceError } from "./errors.ts";

// Locales other than English load on first need, as in the Worker.
beforeAll(() => Promise.all((["fr"] as const).map(loadLocale)));

describe("the resource error object", () => {
  it("carries every field of the spec, translated", () => {
    const error = badRequest([{ field: "options.title", reason: "validation.tooLong", values: { maximum: 50 } }]);
    expect(toResourceError(error, getT("en_US"))).toEqual({
      api_error_code: ErrorCode.InvalidParameters,
      code: ErrorCode.InvalidParameters,
      message: "Invalid parameters",
      message_detail: "options.title: must be at most 50 characters",
      extra_data: null,
      http_status: 400,
    });
    expect(toResourceError(error, getT("fr")).message_detail).toBe("options.title: doit comporter au plus 50 caractères");
  });

  it("says only the spec's default message for the unexpected, and keeps the cause", () => {
    const cause = new Error("D1_ERROR: no such table: pins at line 3");
    const error = internalError(cause);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.cause).toBe(cause);
    const body = toResourceError(error, getT("en_US"));
    expect(body.message).toBe("Sorry! Something went wrong on our end!");
    expect(JSON.stringify(body)).not.toContain("D1_ERROR");
    expect(body.http_status).toBe(500);
  });
});

describe("a data-layer refusal as the API answers it", () => {
  // Written out from spec 000 §8 and the codes clients already branch on.
  it.each([
    ["invalid", 400, 1],
    ["unauthorized", 401, 2],
    ["forbidden", 403, 3],
    ["not_found", 404, 4],
    ["conflict", 409, 6],
    ["gone", 410, 7],
    ["too_large", 413, 8],
    ["rate_limited", 429, 9],
    ["age_restricted", 409, 13],
    ["passcode_required", 403, 14],
    ["passcode_locked", 403, 15],
    ["passcode_incorrect", 403, 16],
    ["limited_login", 403, 17],
    ["provider_unavailable", 503, 18],
    ["provider_unreachable", 502, 18],
    ["provider_refused", 401, 18],
    ["unavailable", 503, 20],
  ] as const)("%s → HTTP %i, code %i", (kind, status, code) => {
    const answer = toApiError(new DomainError(kind, { message: "api.default" }));
    expect({ status: answer.status, code: answer.code }).toEqual({ status, code });
  });

  it("keeps the message, its values and detail, and says when to retry", () => {
    const answer = toApiError(new DomainError("rate_limited", { message: "api.rateLimited", values: { limit: 5 }, retryAfterSeconds: 42 }));
    expect(answer.options).toMatchObject({ message: "api.rateLimited", values: { limit: 5 }, headers: { "Retry-After": "42" } });
    const detail = [{ field: "title", reason: "validation.required" }];
    expect(toApiError(badRequest(detail)).options.detail).toEqual(detail);
  });

  it("asks no cache to keep a storage outage, and the client to retry in ten seconds", () => {
    const answer = toApiError(storageUnavailable(new Error("Network connection lost.")));
    expect({ status: answer.status, headers: answer.options.headers }).toEqual({ status: 503, headers: { "Retry-After": "10", "Cache-Control": "no-store" } });
  });
});
