import type { Context } from "hono";
import { describe, expect, it } from "vitest";
import type { AppEnv } from "../server/context.ts";
import { ApiError } from "../server/errors.ts";
import { requireFullViewer, requireSession, requireWriteAllowed } from "./guards.server.ts";
import type { Session } from "./session.server.ts";

type ViewerType = "AUTH" | "UNAUTH" | "LIMITED_LOGIN";

function contextFor(viewerType: ViewerType, user: { is_write_banned?: number } = {}): Context<AppEnv> {
  const session = viewerType === "UNAUTH" ? null : ({ id: "s", user: { id: 1, is_write_banned: 0, ...user } } as unknown as Session);
  return { var: { ctx: { viewerType, session } } } as unknown as Context<AppEnv>;
}

function refusal(run: () => unknown): { status: number; code: number } | null {
  try {
    run();
    return null;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { status: error.status, code: error.code };
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
