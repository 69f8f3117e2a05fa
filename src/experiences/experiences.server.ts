// The experience platform's storage (migration 0044): which experiences a viewer is eligible
// for, and their statuses (viewed, completed, dismissed, completedWithoutHomefeed, triggered).
// A viewer is a person (user id) or a signed-out browser (its unauthId). Every answer reads the
// definitions, the viewer's states and the facts the targeting rules need in one batch.
import { badRequest, forbidden } from "~/domain/errors.ts";
import { welcomeBannerShows } from "~/merchants/program.ts";
import {
  RULES,
  eligibleByPlacement,
  isTriggerable,
  parsePlacedId,
  placedIdOf,
  statusOf,
  type Definition,
  type Experience,
  type ExperienceStatus,
  type PlacedId,
  type Rule,
  type State,
  type ViewerFacts,
} from "./experiences.ts";

/** Who asks, as plain values from the request context. */
export interface Viewer {
  /** The signed-in person (full or limited login), else null. */
  userId: number | null;
  /** A full login: the targeting rules about accounts apply only to one. */
  fullLogin: boolean;
  /** A signed-out browser's id (unauthId), else null. */
  visitorId: string | null;
  isBot: boolean;
  consentAsked: boolean;
  hideFooterGroup: boolean;
}

/** Experience rows one answer reads at most: the product seeds a handful. */
const MAX_DEFINITIONS = 200;
/** extra_context kept with a write, as JSON, at most. */
const MAX_CONTEXT_JSON = 4000;

/** The viewer's rows, by the column that names them (each has its unique index). */
const subjectOf = (viewer: Pick<Viewer, "userId">) => (viewer.userId !== null ? "user_id = ?1 AND ?2 IS NULL" : "visitor_id = ?2 AND ?1 IS NULL");

function objectOf(text: unknown): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(String(text));
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function listOf(text: unknown): string[] {
  try {
    const value: unknown = JSON.parse(String(text));
    return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === "string" && parsePlacedId(entry) !== null) : [];
  } catch {
    return [];
  }
}

function definitionOf(row: Record<string, unknown>): Definition | null {
  const rule = String(row["rule"]);
  if (!(RULES as readonly string[]).includes(rule)) return null;
  return {
    experienceId: Number(row["experience_id"]),
    placementId: Number(row["placement_id"]),
    type: Number(row["type"]),
    displayData: objectOf(row["display_data"]),
    metadata: objectOf(row["metadata"]),
    triggerable: listOf(row["triggerable_placed_exps"]),
    rule: rule as Rule,
    needsTrigger: row["needs_trigger"] === 1,
    priority: Number(row["priority"]),
  };
}

function stateOf(row: Record<string, unknown>): State {
  const time = (name: string) => (row[name] === null || row[name] === undefined ? null : Number(row[name]));
  return {
    triggeredAt: time("triggered_at"),
    viewedAt: time("viewed_at"),
    completedAt: time("completed_at"),
    completedWithoutHomefeed: row["completed_without_homefeed"] === 1,
    dismissedAt: time("dismissed_at"),
  };
}

interface Loaded {
  definitions: Definition[];
  states: Map<number, State>;
  facts: ViewerFacts;
}

/** Definitions (of the placements asked, or all), the viewer's states and their facts, in one batch. */
async function load(db: D1Database, viewer: Viewer, placementIds: readonly number[] | null, now: number): Promise<Loaded> {
  const userId = viewer.fullLogin ? viewer.userId : null;
  const placements = placementIds === null ? null : JSON.stringify(placementIds);
  const [definitions, states, account] = await db.batch<Record<string, unknown>>([
    db
      .prepare(
        `SELECT experience_id, placement_id, type, display_data, metadata, triggerable_placed_exps, rule, needs_trigger, priority
         FROM experiences WHERE active = 1 AND (?1 IS NULL OR placement_id IN (SELECT value FROM json_each(?1)))
         ORDER BY experience_id LIMIT ${MAX_DEFINITIONS}`,
      )
      .bind(placements),
    db
      .prepare(
        `SELECT experience_id, triggered_at, viewed_at, completed_at, completed_without_homefeed, dismissed_at
         FROM experience_states WHERE ${subjectOf(viewer)} LIMIT ${MAX_DEFINITIONS}`,
      )
      .bind(viewer.userId, viewer.visitorId),
    // The account facts the rules read: its type, a business of its own, an accepted merchant
    // program of a business it belongs to, and its merchant banners.
    db
      .prepare(
        `SELECT u.account_type,
           EXISTS (SELECT 1 FROM businesses b WHERE b.profile_id = u.id OR b.owner_id = u.id) AS owns_business,
           EXISTS (SELECT 1 FROM business_members m JOIN merchant_applications a ON a.business_id = m.business_id
                   WHERE m.user_id = u.id AND a.program_status = 'ACCEPTED') AS merchant,
           mb.welcome_dismissed_at, COALESCE(mb.welcome_dismiss_count, 0) AS welcome_dismiss_count
         FROM users u LEFT JOIN merchant_banners mb ON mb.user_id = u.id WHERE u.id = ?1`,
      )
      .bind(userId),
  ]);
  const row = account!.results[0];
  const ownsBusiness = row?.["owns_business"] === 1;
  const facts: ViewerFacts = {
    isBot: viewer.isBot,
    signedIn: row !== undefined,
    personalWithoutBusiness: row?.["account_type"] === "personal" && !ownsBusiness,
    ownsBusiness,
    merchantWelcomeShows:
      row !== undefined &&
      welcomeBannerShows(
        {
          welcomeDismissedAt: row["welcome_dismissed_at"] === null ? null : Number(row["welcome_dismissed_at"]),
          welcomeDismissCount: Number(row["welcome_dismiss_count"]),
          celebrationDismissed: false,
        },
        row["merchant"] === 1,
        now,
      ),
    consentAsked: viewer.consentAsked,
    hideFooterGroup: viewer.hideFooterGroup,
  };
  return {
    definitions: definitions!.results.map(definitionOf).filter((definition): definition is Definition => definition !== null),
    states: new Map(states!.results.map((state) => [Number(state["experience_id"]), stateOf(state)])),
    facts,
  };
}

/**
 * The experiences the viewer is eligible for, per placement (all placements when `placementIds`
 * is null). Bots get none, without a read.
 */
export async function experiencesFor(
  db: D1Database,
  viewer: Viewer,
  placementIds: readonly number[] | null,
  multi = false,
  now = Date.now(),
): Promise<Record<string, Experience[]>> {
  if (viewer.isBot) return {};
  const loaded = await load(db, viewer, placementIds, now);
  return eligibleByPlacement(loaded.definitions, loaded.states, loaded.facts, multi);
}

export type Change = "viewed" | "completed" | "dismissed" | "triggered";

/** A write's answer: the experience and where the viewer now stands with it. */
export interface ChangeAnswer {
  placed_experience_id: string;
  status: ExperienceStatus | null;
  triggered: boolean;
}

const COLUMNS: Record<Change, string> = {
  viewed: "viewed_at = COALESCE(viewed_at, ?5), last_viewed_at = ?5, view_count = view_count + 1",
  completed: "completed_at = COALESCE(completed_at, ?5), completed_without_homefeed = CASE WHEN completed_at IS NULL THEN ?6 ELSE completed_without_homefeed END",
  dismissed: "dismissed_at = COALESCE(dismissed_at, ?5)",
  triggered: "triggered_at = COALESCE(triggered_at, ?5)",
};

const INSERTED: Record<Change, string> = {
  viewed: "viewed_at, last_viewed_at, view_count",
  completed: "completed_at, completed_without_homefeed",
  dismissed: "dismissed_at",
  triggered: "triggered_at",
};
const INSERTED_VALUES: Record<Change, string> = { viewed: "?5, ?5, 1", completed: "?5, ?6", dismissed: "?5", triggered: "?5" };

/**
 * Records one change for the viewer. The placed id must name an experience in that placement
 * (a 400 naming placed_experience_id otherwise); a trigger must name one another experience
 * may trigger. Dismissing (or completing) the merchant welcome banner also dates and counts it in the program's
 * own record (merchant_banners), in the same batch, so both stay one truth.
 */
export async function recordChange(
  db: D1Database,
  viewer: Viewer,
  placedText: string,
  change: Change,
  options: { extraContext?: Record<string, unknown> | undefined; withoutHomefeed?: boolean } = {},
  now = Date.now(),
): Promise<ChangeAnswer> {
  if (viewer.isBot) throw forbidden();
  if (viewer.userId === null && viewer.visitorId === null) throw forbidden();
  const placed = parsePlacedId(placedText);
  if (placed === null) throw badRequest([{ field: "placed_experience_id", reason: "shell:experiences.errors.malformed" }]);
  const definitions = await placementDefinitions(db, placed, change);
  // The merchant welcome banner's dismissals are dated each time (it comes back a week later).
  const latest = definitions.some((entry) => entry.experienceId === placed.experienceId && entry.rule === "merchant_welcome");
  const context = options.extraContext === undefined ? null : JSON.stringify(options.extraContext).slice(0, MAX_CONTEXT_JSON);
  const userColumn = viewer.userId === null ? "visitor_id" : "user_id";
  const statements = [
    db
      .prepare(
        `INSERT INTO experience_states (user_id, visitor_id, experience_id, placement_id, ${INSERTED[change]}, extra_context, updated_at)
         VALUES (?1, ?2, ?3, ?4, ${INSERTED_VALUES[change]}, ?7, ?5)
         ON CONFLICT (${userColumn}, experience_id) DO UPDATE SET ${latest && change === "dismissed" ? "dismissed_at = ?5" : COLUMNS[change]}, extra_context = COALESCE(?7, extra_context), updated_at = ?5`,
      )
      .bind(viewer.userId, viewer.userId === null ? viewer.visitorId : null, placed.experienceId, placed.placementId, now, options.withoutHomefeed ? 1 : 0, context),
  ];
  if (latest && (change === "dismissed" || change === "completed") && viewer.userId !== null) {
    statements.push(
      db
        .prepare(
          `INSERT INTO merchant_banners (user_id, welcome_dismissed_at, welcome_dismiss_count, updated_at) VALUES (?1, ?2, 1, ?2)
           ON CONFLICT (user_id) DO UPDATE SET welcome_dismissed_at = ?2, welcome_dismiss_count = welcome_dismiss_count + 1, updated_at = ?2`,
        )
        .bind(viewer.userId, now),
    );
  }
  statements.push(
    db
      .prepare(`SELECT triggered_at, viewed_at, completed_at, completed_without_homefeed, dismissed_at FROM experience_states WHERE ${subjectOf(viewer)} AND experience_id = ?3`)
      .bind(viewer.userId, viewer.visitorId, placed.experienceId),
  );
  const results = await db.batch<Record<string, unknown>>(statements);
  const row = results.at(-1)!.results[0];
  const state = row ? stateOf(row) : undefined;
  return { placed_experience_id: placedIdOf(placed.placementId, placed.experienceId), status: statusOf(state), triggered: (state?.triggeredAt ?? null) !== null };
}

/** The experiences of the placed id's placement (and, for a trigger, those that may trigger it). */
async function placementDefinitions(db: D1Database, placed: PlacedId, change: Change): Promise<Definition[]> {
  const rows = await db
    .prepare(
      `SELECT experience_id, placement_id, type, display_data, metadata, triggerable_placed_exps, rule, needs_trigger, priority
       FROM experiences WHERE active = 1 AND (placement_id = ?1 OR (?2 = 1 AND triggerable_placed_exps LIKE ?3)) LIMIT ${MAX_DEFINITIONS}`,
    )
    .bind(placed.placementId, change === "triggered" ? 1 : 0, `%"${placedIdOf(placed.placementId, placed.experienceId)}"%`)
    .all<Record<string, unknown>>();
  const definitions = rows.results.map(definitionOf).filter((definition): definition is Definition => definition !== null);
  if (!definitions.some((definition) => definition.experienceId === placed.experienceId && definition.placementId === placed.placementId)) {
    throw badRequest([{ field: "placed_experience_id", reason: "shell:experiences.errors.unknown" }]);
  }
  if (change === "triggered" && !isTriggerable(definitions, placed)) {
    throw badRequest([{ field: "placed_experience_id", reason: "shell:experiences.errors.notTriggerable" }]);
  }
  return definitions;
}
