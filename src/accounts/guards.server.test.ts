import { describe, expect, it } from "vitest";
import { DomainError } from "~/domain/errors.ts";
import { toApiError } from "~/server/errors.ts";
import { requireFullViewer, requireSession, requireWriteAllowed, type Viewer } from "./guards.server.ts";
import type { Session } from "./session.server.ts";

type ViewerType = "AUTH" | "UNAUTH" | "LIMITED_LOGIN";

function contextFor(viewerType: ViewerType, user: { is_write_banned?: number } = {}): Viewer {
  const session = viewerType === "UNAUTH" ? null : ({ id: "s", user: { id: 1, is_write_banned: 0, ...user } } as unknown as Session);
  return { viewerType, session };
}

function refusal(run: () => unknown): { status: number; code: number } | null {
  try {
    run();
    return null;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    // As the API answers it: the one mapping from a refusal to its status and code.
    const answer = toApiError(error);
    return { status: answer.status, code: answer.code };
  }
}

describe("account guards (spec 000 §6)", () => {
  it.each([
    ["signed out", contextFor("UNAUTH"), { status: 401, code: 2 }, { status: 401, code: 2 }, { status: 401, code: 2 }],
    ["limited login", contextFor("LIMITED_LOGIN"), null, { status: 403, code: 17 }, { status: 403, code: 17 }],
    ["write-banned", contextFor("AUTH", { is_write_banned: 1 }), null, null, { status: 403, code: 3 }],
    ["a full login", contextFor("AUTH"), null, null, null],
  ])("%s: session, full viewer, write allowed", (_name, c, session, full, write) => {
    expect(refusal(() => requireSession(c))).toEqual(session);
    expect(refusal(() => requireFullViewer(c))).toEqual(full);
    expect(refusal(() => requireWriteAllowed(c))).toEqual(write);
  });
});
