// The SQL side of the visibility table (rules.ts): each rule as a condition over the aliases a
// statement gives its rows, and as columns a reader selects to re-check rows with holds().
import { RULES, holds, readsOf, type Entity, type RuleName, type Term } from "./rules.ts";

/** The alias of each row a rule reads, as the statement names them (`{ pin: "p", board: "b", pinner: "pu" }`). */
export type Aliases = Partial<Record<Entity, string>>;

interface SqlOptions {
  /**
   * Columns of these entities are written with a unary `+`, which keeps SQLite from choosing an
   * index on them (the same value, no index): for scans that must walk another index.
   */
  unindexed?: readonly Entity[];
}

/** A term that can never be true for this viewer (it needs a viewer and there is none). */
const NEVER = null;
type Compiled = string | typeof NEVER;

function aliasOf(aliases: Aliases, entity: Entity): string {
  const alias = aliases[entity];
  if (!alias) throw new Error(`visibility rule needs an alias for ${entity}`);
  return alias;
}

function literal(value: string | number): string {
  return typeof value === "number" ? String(value) : `'${value.replace(/'/g, "''")}'`;
}

/** 1 when the viewer is an accepted collaborator of the board `board` (an alias), in SQL. */
function collaboratorSql(board: string, viewer: string): string {
  return `EXISTS (SELECT 1 FROM board_collaborators bc WHERE bc.board_id = ${board}.id AND bc.user_id = ${viewer} AND bc.status = 'accepted')`;
}

function compile(term: Term, aliases: Aliases, viewer: string | null, options: SqlOptions): Compiled {
  const columnSql = (entity: Entity, name: string) => `${options.unindexed?.includes(entity) ? "+" : ""}${aliasOf(aliases, entity)}.${name}`;
  if ("all" in term) {
    const parts: string[] = [];
    for (const part of term.all) {
      const sql = compile(part, aliases, viewer, options);
      // One part that can never hold makes the whole conjunction never hold.
      if (sql === NEVER) return NEVER;
      parts.push(sql);
    }
    return parts.length === 1 ? parts[0]! : `(${parts.join(" AND ")})`;
  }
  if ("any" in term) {
    const parts = term.any.map((part) => compile(part, aliases, viewer, options)).filter((sql): sql is string => sql !== NEVER);
    if (parts.length === 0) return NEVER;
    return parts.length === 1 ? parts[0]! : `(${parts.join(" OR ")})`;
  }
  if ("eq" in term) return `${columnSql(term.eq[0], term.eq[1])} = ${literal(term.eq[2])}`;
  if ("isNull" in term) return `${columnSql(term.isNull[0], term.isNull[1])} IS NULL`;
  // With no viewer at all (a feed read for no one), the viewer's terms are dropped: in SQL they
  // would compare with NULL, which is never true.
  if ("viewerIs" in term) return viewer === null ? NEVER : `${columnSql(term.viewerIs[0], term.viewerIs[1])} = ${viewer}`;
  return viewer === null ? NEVER : collaboratorSql(aliasOf(aliases, term.collaborates), viewer);
}

/**
 * The rule as a SQL condition. `viewer` is the SQL naming the viewer's id (a parameter such as
 * `?2`, bound NULL when signed out, or a column), or null for a read made for no one.
 */
export function visibleSql(rule: RuleName, aliases: Aliases, viewer: string | null, options: SqlOptions = {}): string {
  return compile(RULES[rule].term, aliases, viewer, options) ?? "0";
}

/** The rule as a 0/1 column (never NULL), for a SELECT list. */
export function visibleFlagSql(rule: RuleName, aliases: Aliases, viewer: string | null): string {
  return `CASE WHEN ${visibleSql(rule, aliases, viewer)} THEN 1 ELSE 0 END`;
}

const factName = (entity: Entity, name: string) => `v_${entity}_${name}`;
const collaborationName = (entity: Entity) => `v_${entity}_collaborates`;

/**
 * The columns holdsFor reads back, for a SELECT list: every column the rule reads, and whether
 * the viewer collaborates on each board it asks about. Names start with `v_`.
 */
export function factColumns(rule: RuleName, aliases: Aliases, viewer: string): string {
  const { columns, collaborations } = readsOf(rule);
  return [
    ...columns.map(([entity, name]) => `${aliasOf(aliases, entity)}.${name} AS ${factName(entity, name)}`),
    ...collaborations.map((entity) => `${collaboratorSql(aliasOf(aliases, entity), viewer)} AS ${collaborationName(entity)}`),
  ].join(", ");
}

/** The rule's JS predicate over a row that selected factColumns. */
export function holdsFor(rule: RuleName, row: Readonly<Record<string, unknown>>, viewerId: number | null): boolean {
  const { columns, collaborations } = readsOf(rule);
  const rows: Partial<Record<Entity, Record<string, unknown>>> = {};
  for (const [entity, name] of columns) (rows[entity] ??= {})[name] = row[factName(entity, name)];
  for (const entity of collaborations) rows[entity] ??= {};
  const collaborates = Object.fromEntries(collaborations.map((entity) => [entity, row[collaborationName(entity)] === 1]));
  return holds(rule, { rows, collaborates }, viewerId);
}

/**
 * A link host that may be published (as a pin's domain, a shop filter, a flashlight filter):
 * not a blocked host nor a subdomain of one. The SQL twin of isBlockedHost
 * (src/comments/segments.ts); `host` is a SQL expression naming the host, its column qualified
 * by its table (link_domains has a `domain` column of its own).
 */
export function publishedDomainSql(host: string): string {
  const lowered = `rtrim(lower(${host}), '.')`;
  return `NOT EXISTS (SELECT 1 FROM link_domains blocked WHERE blocked.is_blocked = 1
            AND (${lowered} = lower(blocked.domain) OR substr(${lowered}, -length(blocked.domain) - 1) = '.' || lower(blocked.domain)))`;
}
