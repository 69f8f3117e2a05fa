import { describe, expect, it } from "vitest";
import { ApiError, ErrorCode, internalError } from "./errors.ts";
import { answerUnavailablePage, isStorageUnavailable, orUnavailable, unavailable, UNAVAILABLE_MARK } from "./unavailable.ts";

describe("storage out of reach, told from a bug", () => {
  it.each([
    "D1_ERROR: Network connection lost.",
    "D1_ERROR: D1 DB storage operation exceeded timeout which caused object to be reset.",
    "D1_ERROR: Internal error while starting up D1 DB storage caused object to be reset.",
    "D1_ERROR: D1 DB reset because its code was updated.",
    "D1_ERROR: D1 DB is overloaded. Requests queued for too long.",
    "D1_ERROR: Cannot resolve D1 DB due to transient issue on remote node.",
  ])("%s is storage being away", (message) => {
    expect(isStorageUnavailable(new Error(message))).toBe(true);
  });

  it.each([
    "D1_ERROR: no such table: pin_images: SQLITE_ERROR",
    "D1_ERROR: UNIQUE constraint failed: users.email: SQLITE_CONSTRAINT",
    'D1_EXEC_ERROR: Error in line 1: INSERTZ: sql error: near "INSERTZ": syntax error',
    "D1_TYPE_ERROR: Type 'undefined' not supported for value 'undefined'",
    "Cannot read properties of undefined (reading 'id')",
  ])("%s is a bug", (message) => {
    expect(isStorageUnavailable(new Error(message))).toBe(false);
  });

  it("looks through a wrapped cause", () => {
    expect(isStorageUnavailable(internalError(new Error("D1_ERROR: Network connection lost.")))).toBe(false);
    expect(isStorageUnavailable(new Error("render failed", { cause: new Error("D1_ERROR: Network connection lost.") }))).toBe(true);
  });

  it("the 503 carries code 20, Retry-After and no-store", () => {
    const error = unavailable(new Error("x"));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(503);
    expect(error.code).toBe(ErrorCode.Unavailable);
    expect(error.options.headers).toEqual({ "Retry-After": "10", "Cache-Control": "no-store" });
    expect(isStorageUnavailable(error)).toBe(true);
  });

  it("any failure of an R2 or queue call becomes the 503", async () => {
    await expect(orUnavailable(() => Promise.reject(new Error("put: We encountered an internal error. (10001)")))).rejects.toMatchObject({ status: 503, code: 20 });
    await expect(orUnavailable(() => Promise.resolve(7))).resolves.toBe(7);
  });

  it("a marked error page answers 503 without the mark; anything else is left alone", () => {
    const marked = answerUnavailablePage(new Response("page", { status: 500, headers: { [UNAVAILABLE_MARK]: "1", "retry-after": "10" } }));
    expect(marked.status).toBe(503);
    expect(marked.headers.has(UNAVAILABLE_MARK)).toBe(false);
    expect(marked.headers.get("retry-after")).toBe("10");
    const plain = new Response("page", { status: 500 });
    expect(answerUnavailablePage(plain)).toBe(plain);
  });
});
