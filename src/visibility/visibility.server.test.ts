// The SQL forms of the visibility table, written out by hand: they name the aliases and the
// viewer they are given, keep the public case first, and a read made for no one drops the
// viewer's terms instead of comparing with NULL. (That SQL and JS agree on every world is the
// property test in tests/worker/visibility-rules.worker.test.ts.)
import { describe, expect, it } from "vitest";
import { factColumns, holdsFor, visibleFlagSql, visibleSql } from "./visibility.server.ts";

const collaborates = (board: string, viewer: string) =>
  `EXISTS (SELECT 1 FROM board_collaborators bc WHERE bc.board_id = ${board}.id AND bc.user_id = ${viewer} AND bc.status = 'accepted')`;

describe("visibleSql", () => {
  it("writes a profile rule over its alias and viewer", () => {
    expect(visibleSql("profile", { user: "u" }, "?2")).toBe("((u.is_private_profile = 0 AND u.is_under_16 = 0 AND u.login_state = 'full') OR u.id = ?2)");
  });

  it("writes a board rule with the public case first", () => {
    expect(visibleSql("board", { board: "b" }, "?3")).toBe(
      `((b.privacy = 'public' AND b.archived_at IS NULL) OR (b.owner_id = ?3 OR ${collaborates("b", "?3")}))`,
    );
  });

  it("drops the viewer's terms from a read made for no one", () => {
    expect(visibleSql("board", { board: "b" }, null)).toBe("(b.privacy = 'public' AND b.archived_at IS NULL)");
    expect(visibleSql("boardPeople", { board: "b" }, null)).toBe("0");
  });

  it("writes the feed rule for no one, the pin's rows under the aliases given", () => {
    expect(visibleSql("feedPin", { pin: "p", board: "b", pinner: "pu" }, null)).toBe(
      "(p.is_deleted = 0 AND (p.is_hidden = 0 AND p.is_unsafe = 0) AND (p.is_hidden = 0 AND (pu.is_private_profile = 0 AND pu.is_under_16 = 0 AND pu.login_state = 'full') AND (p.board_id IS NULL OR (b.privacy = 'public' AND b.archived_at IS NULL))))",
    );
  });

  it("keeps named entities off index choice with a unary plus", () => {
    expect(visibleSql("publicProfile", { user: "u" }, null, { unindexed: ["user"] })).toBe("(+u.is_private_profile = 0 AND +u.is_under_16 = 0 AND +u.login_state = 'full')");
  });

  it("refuses a rule missing one of its aliases", () => {
    expect(() => visibleSql("pin", { pin: "p", board: "b" }, "?2")).toThrow(/pinner/);
  });

  it("writes a 0/1 column", () => {
    expect(visibleFlagSql("publicProfile", { user: "o" }, null)).toBe("CASE WHEN (o.is_private_profile = 0 AND o.is_under_16 = 0 AND o.login_state = 'full') THEN 1 ELSE 0 END");
  });
});

describe("factColumns and holdsFor", () => {
  it("select every column a rule reads, under names holdsFor reads back", () => {
    expect(factColumns("board", { board: "b" }, "?2")).toBe(
      `b.privacy AS v_board_privacy, b.archived_at AS v_board_archived_at, b.owner_id AS v_board_owner_id, ${collaborates("b", "?2")} AS v_board_collaborates`,
    );
    const secret = { v_board_privacy: "secret", v_board_archived_at: null, v_board_owner_id: 1, v_board_collaborates: 0 };
    expect(holdsFor("board", secret, null)).toBe(false);
    expect(holdsFor("board", secret, 2)).toBe(false);
    expect(holdsFor("board", secret, 1)).toBe(true);
    expect(holdsFor("board", { ...secret, v_board_collaborates: 1 }, 2)).toBe(true);
    expect(holdsFor("board", { ...secret, v_board_privacy: "public" }, null)).toBe(true);
  });
});
