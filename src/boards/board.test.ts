import { describe, expect, it } from "vitest";
import { BOARD_PRIVACIES, boardSlugSchema, boardVisibleSql, canViewBoard, collaboratorSql, isPinListed, pinListedSql, type BoardPrivacy } from "./board.ts";

const OWNER = 1;
const STRANGER = 2;
const board = (privacy: BoardPrivacy, archived = false) => ({ owner_id: OWNER, privacy, archived_at: archived ? 1_700_000_000_000 : null });

describe("canViewBoard: a stranger sees public, unarchived boards only; the owner sees all", () => {
  it.each([
    ["public", false, true],
    ["public", true, false],
    ["secret", false, false],
    ["secret", true, false],
    ["protected", false, false],
    ["protected", true, false],
  ] as const)("%s board, archived %s → signed out and stranger see it: %s", (privacy, archived, visible) => {
    expect(canViewBoard(board(privacy, archived), null)).toBe(visible);
    expect(canViewBoard(board(privacy, archived), STRANGER)).toBe(visible);
  });

  it.each(BOARD_PRIVACIES)("the owner sees a %s board, archived or not", (privacy) => {
    expect(canViewBoard(board(privacy), OWNER)).toBe(true);
    expect(canViewBoard(board(privacy, true), OWNER)).toBe(true);
  });

  it("a signed-out viewer is never the owner, even of a board whose owner id is falsy", () => {
    expect(canViewBoard({ owner_id: 0, privacy: "secret", archived_at: null }, null)).toBe(false);
  });
});

describe("isPinListed: not deleted, not hidden, and on a public board or none (or the viewer's own)", () => {
  const pin = (patch: Partial<Parameters<typeof isPinListed>[0]> = {}) => ({
    pinner_id: OWNER,
    is_deleted: 0,
    is_hidden: 0,
    board_id: 10,
    board_privacy: "public" as BoardPrivacy | null,
    ...patch,
  });

  it.each([
    ["on a public board", pin(), true],
    ["boardless", pin({ board_id: null, board_privacy: null }), true],
    ["deleted", pin({ is_deleted: 1 }), false],
    ["hidden", pin({ is_hidden: 1 }), false],
    ["first pinned to a secret board", pin({ board_privacy: "secret" }), false],
    ["first pinned to a protected board", pin({ board_privacy: "protected" }), false],
    ["its board row is gone", pin({ board_privacy: null }), false],
  ])("%s → listed for strangers: %s", (_name, row, listed) => {
    expect(isPinListed(row, null)).toBe(listed);
    expect(isPinListed(row, STRANGER)).toBe(listed);
  });

  it("its pinner sees it on a secret or protected board, but never deleted or hidden", () => {
    expect(isPinListed(pin({ board_privacy: "secret" }), OWNER)).toBe(true);
    expect(isPinListed(pin({ board_privacy: "protected" }), OWNER)).toBe(true);
    expect(isPinListed(pin({ board_privacy: "secret", is_deleted: 1 }), OWNER)).toBe(false);
    expect(isPinListed(pin({ is_hidden: 1 }), OWNER)).toBe(false);
  });
});

describe("collaborators see a board and its pins as its owner does", () => {
  const COLLABORATOR = 3;
  it.each(BOARD_PRIVACIES)("an accepted collaborator sees a %s board; a stranger with the same row does not", (privacy) => {
    const row = { ...board(privacy), viewer_collaborates: 1 };
    expect(canViewBoard(row, COLLABORATOR)).toBe(true);
    expect(canViewBoard({ ...board(privacy), viewer_collaborates: 0 }, COLLABORATOR)).toBe(privacy === "public");
  });
  it("a collaborator flag never opens a board to a signed-out viewer", () => {
    expect(canViewBoard({ ...board("secret"), viewer_collaborates: 1 }, null)).toBe(false);
  });
  const secretPin = { pinner_id: OWNER, is_deleted: 0, is_hidden: 0, board_id: 11, board_privacy: "secret" as BoardPrivacy, board_owner_id: OWNER };
  it.each([
    ["its board's owner", OWNER, 0, true],
    ["an accepted collaborator", COLLABORATOR, 1, true],
    ["a stranger", STRANGER, 0, false],
    ["signed out", null, 1, false],
  ] as const)("a pin born on a secret board is listed for %s: %s", (_name, viewer, collaborates, listed) => {
    expect(isPinListed({ ...secretPin, board_viewer_collaborates: collaborates }, viewer)).toBe(listed);
  });
});

describe("the SQL forms", () => {
  it("name the aliases and the viewer parameter they are given", () => {
    const collaborates = (id: string) => `EXISTS (SELECT 1 FROM board_collaborators bc WHERE bc.board_id = ${id} AND bc.user_id = ?3 AND bc.status = 'accepted')`;
    expect(collaboratorSql("b.id", "?3")).toBe(collaborates("b.id"));
    expect(boardVisibleSql("b", "?3")).toBe(`((b.privacy = 'public' AND b.archived_at IS NULL) OR b.owner_id = ?3 OR ${collaborates("b.id")})`);
    expect(pinListedSql("p", "pb", "?3").replace(/\s+/g, " ")).toBe(
      `(p.is_deleted = 0 AND p.is_hidden = 0 AND (p.board_id IS NULL OR pb.privacy = 'public' OR p.pinner_id = ?3 OR pb.owner_id = ?3 OR ${collaborates("pb.id")}))`,
    );
  });
});

describe("boardSlugSchema", () => {
  it.each(["weeknight-dinners", "spring-bakes-2", "café-ideas", "وصفات-العائلة"])("accepts %s", (slug) => {
    expect(boardSlugSchema.safeParse(slug).success).toBe(true);
  });
  it.each(["", "a/b", "a b", "x".repeat(121), "a?b", "..", "%2e"])("refuses %j", (slug) => {
    expect(boardSlugSchema.safeParse(slug).success).toBe(false);
  });
});
