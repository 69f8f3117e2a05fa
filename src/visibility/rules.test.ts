// The visibility table's answers, written out by hand from docs/decisions.md ("Visibility"):
// who may open a pin, see it in a grid, find it in search, feeds and sitemaps, see a profile
// and open a board page.
import { describe, expect, it } from "vitest";
import { holds, type Facts, type RuleName } from "./rules.ts";

const ANA = 1; // pinner and board owner
const BO = 2; // accepted collaborator on Ana's board
const SAM = 3; // anyone else, signed in

interface World {
  pin?: Record<string, unknown>;
  board?: Record<string, unknown> | null;
  pinner?: Record<string, unknown>;
  boCollaborates?: boolean;
}

const PUBLIC_USER = { id: ANA, is_private_profile: 0, is_under_16: 0, login_state: "full" };
const PUBLIC_BOARD = { id: 10, owner_id: ANA, privacy: "public", archived_at: null };
const OPEN_PIN = { pinner_id: ANA, board_id: 10, is_deleted: 0, is_hidden: 0, is_unsafe: 0, seo_noindex_reason: null };

/** The facts as one viewer's statement reads them: only Bo collaborates (when accepted). */
function pinFacts(world: World, viewer: number | null): Facts {
  const board = world.board === undefined ? PUBLIC_BOARD : world.board;
  return {
    rows: { pin: { ...OPEN_PIN, ...(board === null ? { board_id: null } : {}), ...world.pin }, board, pinner: { ...PUBLIC_USER, ...world.pinner } },
    collaborates: { board: viewer === BO && (world.boCollaborates ?? true) },
  };
}

/** [case, world, rule, signed out, Sam, Bo (collaborator), Ana (pinner, owner)] */
const PIN_CASES: Array<[string, World, RuleName, boolean, boolean, boolean, boolean]> = [
  ["an open pin", {}, "pin", true, true, true, true],
  ["an open pin in a grid", {}, "gridPin", true, true, true, true],
  ["an open pin in a shared feed", {}, "feedPin", true, true, true, true],
  ["an open pin in search", {}, "searchPin", true, true, true, true],
  ["an open pin in the sitemap", {}, "sitemapPin", true, true, true, true],
  ["a boardless pin", { board: null }, "pin", true, true, true, true],
  ["a pin on a secret board", { board: { ...PUBLIC_BOARD, privacy: "secret" } }, "pin", false, false, true, true],
  ["a pin on a secret board, collaboration not accepted", { board: { ...PUBLIC_BOARD, privacy: "secret" }, boCollaborates: false }, "pin", false, false, false, true],
  ["a pin on a secret board in search", { board: { ...PUBLIC_BOARD, privacy: "secret" } }, "searchPin", false, false, true, true],
  ["a pin on a secret board in a shared feed", { board: { ...PUBLIC_BOARD, privacy: "secret" } }, "feedPin", false, false, false, false],
  ["a pin on a protected board", { board: { ...PUBLIC_BOARD, privacy: "protected" } }, "pin", false, false, true, true],
  ["a pin on an archived public board", { board: { ...PUBLIC_BOARD, archived_at: 5 } }, "pin", false, false, true, true],
  ["a pin on an archived public board in a grid", { board: { ...PUBLIC_BOARD, archived_at: 5 } }, "gridPin", false, false, true, true],
  ["a hidden pin", { pin: { is_hidden: 1 } }, "pin", false, false, true, true],
  ["a hidden pin in a grid", { pin: { is_hidden: 1 } }, "gridPin", false, false, false, false],
  ["a deleted pin", { pin: { is_deleted: 1 } }, "pin", false, false, false, false],
  ["a deleted pin exists (410)", { pin: { is_deleted: 1 } }, "pinExists", true, true, true, true],
  ["a deleted secret pin exists only for its people", { pin: { is_deleted: 1 }, board: { ...PUBLIC_BOARD, privacy: "secret" } }, "pinExists", false, false, true, true],
  ["an unsafe pin", { pin: { is_unsafe: 1 } }, "pin", true, true, true, true],
  ["an unsafe pin in a grid", { pin: { is_unsafe: 1 } }, "gridPin", true, true, true, true],
  ["an unsafe pin in search", { pin: { is_unsafe: 1 } }, "searchPin", false, false, false, false],
  ["an unsafe pin in a shared feed", { pin: { is_unsafe: 1 } }, "feedPin", false, false, false, false],
  ["a noindex pin in the sitemap", { pin: { seo_noindex_reason: "thin" } }, "sitemapPin", false, false, false, false],
  ["a noindex pin in a shared feed", { pin: { seo_noindex_reason: "thin" } }, "feedPin", true, true, true, true],
  ["a private pinner's pin", { pinner: { is_private_profile: 1 } }, "pin", false, false, true, true],
  ["a private pinner's pin in a grid", { pinner: { is_private_profile: 1 } }, "gridPin", false, false, true, true],
  ["an under-16 pinner's pin, flagged public", { pinner: { is_under_16: 1 } }, "pin", false, false, true, true],
  ["a limited login's pin", { pinner: { login_state: "limited" } }, "pin", false, false, true, true],
];

describe("pins", () => {
  it.each(PIN_CASES)("%s (%s by %s)", (_name, world, rule, signedOut, sam, bo, ana) => {
    expect([null, SAM, BO, ANA].map((viewer) => holds(rule, pinFacts(world, viewer), viewer))).toEqual([signedOut, sam, bo, ana]);
  });
});

describe("profiles", () => {
  it.each<[string, Record<string, unknown>, boolean, boolean]>([
    ["public", {}, true, true],
    ["private", { is_private_profile: 1 }, false, true],
    ["under 16, flagged public", { is_under_16: 1 }, false, true],
    ["limited login", { login_state: "limited" }, false, true],
  ])("a %s profile: strangers %s, its owner %s", (_name, user, stranger, self) => {
    const facts: Facts = { rows: { user: { ...PUBLIC_USER, ...user } } };
    expect(holds("profile", facts, null)).toBe(stranger);
    expect(holds("profile", facts, SAM)).toBe(stranger);
    expect(holds("profile", facts, ANA)).toBe(self);
    expect(holds("publicProfile", facts, ANA)).toBe(stranger);
  });
});

describe("boards", () => {
  const boardFacts = (board: Record<string, unknown>, owner: Record<string, unknown> = {}) => (viewer: number | null): Facts => ({
    rows: { board: { ...PUBLIC_BOARD, ...board }, owner: { ...PUBLIC_USER, ...owner } },
    collaborates: { board: viewer === BO },
  });
  it.each<[string, (viewer: number | null) => Facts, RuleName, boolean, boolean, boolean]>([
    ["a public board's page", boardFacts({}), "boardPage", true, true, true],
    ["a secret board's page", boardFacts({ privacy: "secret" }), "boardPage", false, true, true],
    ["an archived board's page", boardFacts({ archived_at: 5 }), "boardPage", false, true, true],
    ["a public board of a private profile", boardFacts({}, { is_private_profile: 1 }), "boardPage", false, false, true],
    ["an archived board in the profile's list", boardFacts({ archived_at: 5 }), "profileBoard", false, false, false],
    ["a public board in the sitemap", boardFacts({}), "publicBoard", true, true, true],
    ["a public board of a private profile in the sitemap", boardFacts({}, { is_private_profile: 1 }), "publicBoard", false, false, false],
  ])("%s (%s): strangers %s, collaborator %s, owner %s", (_name, facts, rule, stranger, bo, ana) => {
    expect([null, BO, ANA].map((viewer) => holds(rule, facts(viewer), viewer))).toEqual([stranger, bo, ana]);
  });
});
