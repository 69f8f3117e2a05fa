// Who may see what: one table of rules for pins, boards and profiles, written once as data.
// The SQL condition every reader filters with (visibility.server.ts) and the JS predicate that
// re-checks rows (holds, below) are both read off this table, so the two cannot disagree: a
// property test runs every rule both ways over generated worlds in D1.
//
// A rule is a small boolean expression over the columns of named rows (the pin, its own board,
// its pinner, a profile, a board's owner) and the viewer. Evaluation follows SQL's three-valued
// logic exactly (a comparison with NULL is unknown, and unknown is never "visible"), so a LEFT
// JOIN that found no board means the same thing to both forms.

/** The rows a rule reads: a pin, its own board (pins.board_id) and its pinner; a profile; a board's owner. */
export type Entity = "pin" | "board" | "pinner" | "user" | "owner";

export type Term =
  | { readonly all: readonly Term[] }
  | { readonly any: readonly Term[] }
  /** The column equals a constant (unknown when the column is NULL). */
  | { readonly eq: readonly [Entity, string, string | number] }
  | { readonly isNull: readonly [Entity, string] }
  /** The column is the viewer's id (unknown when either is NULL: a stranger is nobody). */
  | { readonly viewerIs: readonly [Entity, string] }
  /** The viewer is an accepted collaborator of that board (false when signed out or without a board). */
  | { readonly collaborates: Entity };

const all = (...terms: Term[]): Term => ({ all: terms });
const any = (...terms: Term[]): Term => ({ any: terms });
const eq = (entity: Entity, column: string, value: string | number): Term => ({ eq: [entity, column, value] });
const isNull = (entity: Entity, column: string): Term => ({ isNull: [entity, column] });
const viewerIs = (entity: Entity, column: string): Term => ({ viewerIs: [entity, column] });
const collaborates = (entity: Entity): Term => ({ collaborates: entity });

/**
 * A profile anyone may see: public, a full login, and not an under-16 account (whose profile is
 * private whatever its flag says). Public terms come first in every rule: SQLite stops an OR at
 * its first true term, so most rows never run the collaborator look-up.
 */
const profilePublic = (user: Entity) => all(eq(user, "is_private_profile", 0), eq(user, "is_under_16", 0), eq(user, "login_state", "full"));
const profileVisible = (user: Entity) => any(profilePublic(user), viewerIs(user, "id"));
/** A board anyone may see: public and not archived. */
const boardPublic = (board: Entity) => all(eq(board, "privacy", "public"), isNull(board, "archived_at"));
/** A board's people: its owner and its accepted collaborators (an invitation not yet accepted gives nothing). */
const boardPeople = (board: Entity) => any(viewerIs(board, "owner_id"), collaborates(board));
const boardVisible = (board: Entity) => any(boardPublic(board), boardPeople(board));

/**
 * A pin a stranger may open: not hidden, by a profile anyone may see, and boardless or first
 * pinned to a board anyone may see. Saves to other boards (board_pins) never widen this: a pin
 * born on a secret or archived board stays with that board's people wherever it is saved.
 */
const pinPublic = all(eq("pin", "is_hidden", 0), profilePublic("pinner"), any(isNull("pin", "board_id"), boardPublic("board")));
/** Its pinner, and its own board's owner and accepted collaborators, always see it. */
const pinPeople = any(viewerIs("pin", "pinner_id"), boardPeople("board"));
const pinReachable = any(pinPublic, pinPeople);
const notDeleted = eq("pin", "is_deleted", 0);
const safe = all(eq("pin", "is_hidden", 0), eq("pin", "is_unsafe", 0));

interface Rule {
  /** The rows the rule reads; a reader names an alias for each. */
  readonly entities: readonly Entity[];
  readonly term: Term;
}

/**
 * Every rule, by the place it decides. The viewer is the signed-in person (null signed out);
 * feeds shared by everyone are read for no viewer at all.
 */
export const RULES = {
  /** A profile page, and anyone named anywhere: comment authors, mentions, reactions, collaborators, lookups. */
  profile: { entities: ["user"], term: profileVisible("user") },
  /** Profiles a stranger may open: the sitemaps, the avatars of the shared pages. */
  publicProfile: { entities: ["user"], term: profilePublic("user") },
  /** A board, where its owner's profile is checked apart (board JSON, sections, saved-to lists). */
  board: { entities: ["board"], term: boardVisible("board") },
  /** A board's owner or accepted collaborator: who sees its stored counters and may save to it. */
  boardPeople: { entities: ["board"], term: boardPeople("board") },
  /** A board's page: the board and its owner's profile (a private profile hides its boards). */
  boardPage: { entities: ["board", "owner"], term: all(boardVisible("board"), profileVisible("owner")) },
  /** A board in its owner's profile list: archived boards leave it for everyone (the owner finds them in the archive). */
  profileBoard: { entities: ["board"], term: all(isNull("board", "archived_at"), boardVisible("board")) },
  /** A board a stranger may open and find: the sitemaps, the board a pin page links to for everyone. */
  publicBoard: { entities: ["board", "owner"], term: all(boardPublic("board"), profilePublic("owner")) },
  /** A pin that exists for the viewer, deleted or not: a deleted one answers 410, anything else 404. */
  pinExists: { entities: ["pin", "board", "pinner"], term: pinReachable },
  /** A pin's close-up, PinResource, GraphQL, its media and every action on it. */
  pin: { entities: ["pin", "board", "pinner"], term: all(notDeleted, pinReachable) },
  /** A pin in a board, section or profile grid and the counts beside it: a hidden pin shows on its own page only. */
  gridPin: { entities: ["pin", "board", "pinner"], term: all(notDeleted, eq("pin", "is_hidden", 0), pinReachable) },
  /** Search, its filters, typeahead and the visual resources: neither hidden nor unsafe. */
  searchPin: { entities: ["pin", "board", "pinner"], term: all(notDeleted, safe, pinReachable) },
  /** Shared feeds read for no one (home, related pins, articles): what a stranger may open, and safe. */
  feedPin: { entities: ["pin", "board", "pinner"], term: all(notDeleted, safe, pinPublic) },
  /** The pins sitemap: a shared feed's pins that are not marked noindex. */
  sitemapPin: { entities: ["pin", "board", "pinner"], term: all(notDeleted, safe, isNull("pin", "seo_noindex_reason"), pinPublic) },
} as const satisfies Record<string, Rule>;

export type RuleName = keyof typeof RULES;

/**
 * The facts a rule reads: each entity's row (null or missing when a LEFT JOIN found none) and,
 * per board entity, whether the viewer is an accepted collaborator on it.
 */
export interface Facts {
  readonly rows: Partial<Record<Entity, object | null>>;
  readonly collaborates?: Partial<Record<Entity, boolean>>;
}

type Truth = boolean | null;

function column(facts: Facts, entity: Entity, name: string): unknown {
  return (facts.rows[entity] as Readonly<Record<string, unknown>> | null | undefined)?.[name] ?? null;
}

function evaluate(term: Term, facts: Facts, viewerId: number | null): Truth {
  if ("all" in term) {
    let result: Truth = true;
    for (const part of term.all) {
      const value = evaluate(part, facts, viewerId);
      if (value === false) return false;
      if (value === null) result = null;
    }
    return result;
  }
  if ("any" in term) {
    let result: Truth = false;
    for (const part of term.any) {
      const value = evaluate(part, facts, viewerId);
      if (value === true) return true;
      if (value === null) result = null;
    }
    return result;
  }
  if ("eq" in term) {
    const value = column(facts, term.eq[0], term.eq[1]);
    return value === null ? null : value === term.eq[2];
  }
  if ("isNull" in term) return column(facts, term.isNull[0], term.isNull[1]) === null;
  if ("viewerIs" in term) {
    const value = column(facts, term.viewerIs[0], term.viewerIs[1]);
    return value === null || viewerId === null ? null : value === viewerId;
  }
  return viewerId !== null && (facts.rows[term.collaborates] ?? null) !== null && facts.collaborates?.[term.collaborates] === true;
}

/** Whether the rule lets the viewer (null: signed out) see the thing these facts describe. */
export function holds(rule: RuleName, facts: Facts, viewerId: number | null): boolean {
  return evaluate(RULES[rule].term, facts, viewerId) === true;
}

interface Reads {
  readonly columns: ReadonlyArray<readonly [Entity, string]>;
  readonly collaborations: readonly Entity[];
}
const reads = new Map<RuleName, Reads>();

/** The (entity, column) pairs a rule reads, and the board entities it asks about collaborators on. */
export function readsOf(rule: RuleName): Reads {
  const known = reads.get(rule);
  if (known) return known;
  const columns = new Map<string, [Entity, string]>();
  const collaborations = new Set<Entity>();
  const walk = (term: Term): void => {
    if ("all" in term) term.all.forEach(walk);
    else if ("any" in term) term.any.forEach(walk);
    else if ("collaborates" in term) collaborations.add(term.collaborates);
    else {
      const [entity, name] = "eq" in term ? term.eq : "isNull" in term ? term.isNull : term.viewerIs;
      columns.set(`${entity}.${name}`, [entity, name]);
    }
  };
  walk(RULES[rule].term);
  const found = { columns: [...columns.values()], collaborations: [...collaborations] };
  reads.set(rule, found);
  return found;
}
