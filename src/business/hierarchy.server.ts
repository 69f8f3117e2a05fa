// The business hierarchy: a parent business and its child businesses, and the organization
// managers who oversee it. A parent's ADMIN invites a child business by its id (the child's
// ADMIN answers) or a person by username (they answer). Two levels only: a child has one parent
// and no children of its own, so the tree can never loop. An invite is PENDING for 30 days, then
// EXPIRED (spec 002 §4 "Invites"). The hierarchy lists read what the parent and its children
// hold, each bounded.
import { badRequest, conflict, isDomainError, notFound } from "~/domain/errors.ts";
import { actorMay, historyRow, likeTerm, newId, requireAction, seconds, where } from "./core.server.ts";
import type { HierarchyList } from "./asset-schemas.ts";
import type { BusinessRole } from "./roles.ts";

const INVITE_TTL_MS = 30 * 86_400_000;
/** Open invites a business may have at once, and children and managers it may hold. */
const HIERARCHY_LIMITS = { pendingInvites: 50, children: 50, managers: 20 } as const;

type Named = { id: string; name: string };
type Person = { id: string; username: string; full_name: string };
type InviteStatus = "PENDING" | "EXPIRED";

interface HierarchyInvite {
  id: string;
  type: "CHILD_BUSINESS" | "ORGANIZATION_MANAGER";
  parent_business: Named;
  child_business: Named | null;
  user: Person | null;
  status: InviteStatus;
  invited_by: Person;
  invite_data: { sent_at: number };
}

interface Hierarchy {
  parent: (Named & { relation_id: string }) | null;
  child_businesses: Array<Named & { relation_id: string; since: number }>;
  organization_managers: Array<Person & { relation_id: string; since: number }>;
  pending_child_businesses: HierarchyInvite[];
  pending_organization_managers: HierarchyInvite[];
  acting_user: ActingUser;
}

interface ActingUser extends Person {
  role: BusinessRole | null;
  is_organization_manager: boolean;
}

/** The businesses joined to this one (its accepted parent and children). */
export async function relatedBusinesses(db: D1Database, businessId: number): Promise<number[]> {
  const { results } = await db
    .prepare(
      `SELECT child_business_id AS id FROM business_hierarchy WHERE parent_business_id = ?1 AND type = 'CHILD_BUSINESS' AND status = 'ACCEPTED'
       UNION SELECT parent_business_id FROM business_hierarchy WHERE child_business_id = ?1 AND status = 'ACCEPTED' LIMIT 100`,
    )
    .bind(businessId)
    .all<{ id: number }>();
  return results.map((row) => row.id);
}

/** The business's accepted parent, if any. */
export async function parentOf(db: D1Database, businessId: number): Promise<number | null> {
  return (await db.prepare("SELECT parent_business_id AS id FROM business_hierarchy WHERE child_business_id = ?1 AND status = 'ACCEPTED'").bind(businessId).first<number>("id")) ?? null;
}

async function managerOf(db: D1Database, businessId: number, userId: number): Promise<boolean> {
  return (await db.prepare("SELECT 1 FROM business_hierarchy WHERE parent_business_id = ?1 AND user_id = ?2 AND type = 'ORGANIZATION_MANAGER' AND status = 'ACCEPTED'").bind(businessId, userId).first()) !== null;
}

/** Members who may read the hierarchy, and the business's organization managers, read it. */
async function requireReader(db: D1Database, businessId: number, userId: number): Promise<BusinessRole | null> {
  try {
    return await requireAction(db, businessId, userId, "hierarchy.read");
  } catch (error) {
    if (isDomainError(error, "not_found") && (await managerOf(db, businessId, userId))) return null;
    throw error;
  }
}

const INVITE_SELECT = `SELECT h.id, h.type, h.created_at, pb.id AS parent_id, pb.name AS parent_name, cb.id AS child_id, cb.name AS child_name,
  u.id AS user_id, u.username AS user_username, u.full_name AS user_full_name, i.id AS inviter_id, i.username AS inviter_username, i.full_name AS inviter_full_name
  FROM business_hierarchy h JOIN businesses pb ON pb.id = h.parent_business_id LEFT JOIN businesses cb ON cb.id = h.child_business_id
  LEFT JOIN users u ON u.id = h.user_id JOIN users i ON i.id = h.invited_by`;

function inviteOf(row: Record<string, unknown>, now: number): HierarchyInvite {
  const sent = Number(row["created_at"]);
  return {
    id: String(row["id"]),
    type: row["type"] as HierarchyInvite["type"],
    parent_business: { id: String(row["parent_id"]), name: String(row["parent_name"]) },
    child_business: row["child_id"] === null ? null : { id: String(row["child_id"]), name: String(row["child_name"]) },
    user: row["user_id"] === null ? null : { id: String(row["user_id"]), username: String(row["user_username"]), full_name: String(row["user_full_name"]) },
    status: sent + INVITE_TTL_MS <= now ? "EXPIRED" : "PENDING",
    invited_by: { id: String(row["inviter_id"]), username: String(row["inviter_username"]), full_name: String(row["inviter_full_name"]) },
    invite_data: { sent_at: seconds(sent) },
  };
}

async function actingUser(db: D1Database, businessId: number, userId: number, role: BusinessRole | null): Promise<ActingUser> {
  const person = await db.prepare("SELECT id, username, full_name FROM users WHERE id = ?1").bind(userId).first<{ id: number; username: string; full_name: string }>();
  return { id: String(userId), username: person?.username ?? "", full_name: person?.full_name ?? "", role, is_organization_manager: await managerOf(db, businessId, userId) };
}

/** Who the viewer is in this business: their role, and whether they manage its organization. */
export async function getActingUser(db: D1Database, userId: number, businessId: number): Promise<ActingUser> {
  return actingUser(db, businessId, userId, await requireReader(db, businessId, userId));
}

export async function getHierarchy(db: D1Database, userId: number, businessId: number, statuses: readonly InviteStatus[] = ["PENDING", "EXPIRED"], now = Date.now()): Promise<Hierarchy> {
  const role = await requireReader(db, businessId, userId);
  const [parent, children, managers, pending] = await db.batch<Record<string, unknown>>([
    db.prepare("SELECT h.id AS relation_id, b.id, b.name FROM business_hierarchy h JOIN businesses b ON b.id = h.parent_business_id WHERE h.child_business_id = ?1 AND h.status = 'ACCEPTED'").bind(businessId),
    db
      .prepare("SELECT h.id AS relation_id, b.id, b.name, h.decided_at FROM business_hierarchy h JOIN businesses b ON b.id = h.child_business_id WHERE h.parent_business_id = ?1 AND h.status = 'ACCEPTED' ORDER BY b.name COLLATE NOCASE LIMIT ?2")
      .bind(businessId, HIERARCHY_LIMITS.children),
    db
      .prepare("SELECT h.id AS relation_id, u.id, u.username, u.full_name, h.decided_at FROM business_hierarchy h JOIN users u ON u.id = h.user_id WHERE h.parent_business_id = ?1 AND h.type = 'ORGANIZATION_MANAGER' AND h.status = 'ACCEPTED' ORDER BY u.username LIMIT ?2")
      .bind(businessId, HIERARCHY_LIMITS.managers),
    db.prepare(`${INVITE_SELECT} WHERE h.parent_business_id = ?1 AND h.status = 'PENDING' ORDER BY h.created_at DESC, h.id LIMIT ?2`).bind(businessId, HIERARCHY_LIMITS.pendingInvites),
  ]);
  const invites = pending!.results.map((row) => inviteOf(row, now)).filter((invite) => statuses.includes(invite.status));
  const top = parent!.results[0];
  return {
    parent: top ? { relation_id: String(top["relation_id"]), id: String(top["id"]), name: String(top["name"]) } : null,
    child_businesses: children!.results.map((row) => ({ relation_id: String(row["relation_id"]), id: String(row["id"]), name: String(row["name"]), since: seconds(Number(row["decided_at"])) })),
    organization_managers: managers!.results.map((row) => ({ relation_id: String(row["relation_id"]), id: String(row["id"]), username: String(row["username"]), full_name: String(row["full_name"]), since: seconds(Number(row["decided_at"])) })),
    pending_child_businesses: invites.filter((invite) => invite.type === "CHILD_BUSINESS"),
    pending_organization_managers: invites.filter((invite) => invite.type === "ORGANIZATION_MANAGER"),
    acting_user: await actingUser(db, businessId, userId, role),
  };
}

type InviteInput = { type: "CHILD_BUSINESS"; business_id: string } | { type: "ORGANIZATION_MANAGER"; username: string };

export async function createInvite(db: D1Database, userId: number, businessId: number, input: InviteInput, now = Date.now()): Promise<HierarchyInvite> {
  await requireAction(db, businessId, userId, "hierarchy.invite");
  const id = newId();
  let target: { child: number | null; user: number | null; name: string };
  if (input.type === "CHILD_BUSINESS") {
    const child = Number(input.business_id);
    const found = await db.prepare("SELECT name FROM businesses WHERE id = ?1").bind(child).first<string>("name");
    if (found === null) throw badRequest([{ field: "business_id", reason: "business:validation.noSuchBusiness" }]);
    if (child === businessId) throw badRequest([{ field: "business_id", reason: "business:validation.selfInvite" }]);
    if ((await parentOf(db, businessId)) !== null) throw conflict("business:assets.childCannotInvite");
    const taken = await db.prepare("SELECT 1 FROM business_hierarchy WHERE status = 'ACCEPTED' AND type = 'CHILD_BUSINESS' AND (child_business_id = ?1 OR parent_business_id = ?1)").bind(child).first();
    if (taken) throw conflict("business:assets.alreadyInHierarchy");
    target = { child, user: null, name: found };
  } else {
    const person = await db.prepare("SELECT id, username FROM users WHERE username = ?1").bind(input.username.replace(/^@/, "")).first<{ id: number; username: string }>();
    if (!person) throw badRequest([{ field: "username", reason: "business:validation.noSuchProfile" }]);
    target = { child: null, user: person.id, name: `@${person.username}` };
  }
  // Only the actor's role, the open-invite bound and the partial unique indexes decide; a
  // duplicate open invite is refused by the index as a 409.
  const statements = [
    db
      .prepare(
        `INSERT INTO business_hierarchy (id, parent_business_id, type, child_business_id, user_id, status, invited_by, created_at)
         SELECT ?3, ?1, ?4, ?5, ?6, 'PENDING', ?2, ?7
         WHERE ${actorMay("hierarchy.invite")}
           AND (SELECT COUNT(*) FROM business_hierarchy WHERE parent_business_id = ?1 AND status = 'PENDING') < ?8`,
      )
      .bind(businessId, userId, id, input.type, target.child, target.user, now, HIERARCHY_LIMITS.pendingInvites),
    historyRow(db, businessId, userId, "HIERARCHY_INVITED", "BUSINESS", target.child ?? target.user!, { name: target.name, type: input.type }, now, "changes() = 1"),
  ];
  let inserted: D1Result;
  try {
    [inserted] = (await db.batch(statements)) as [D1Result];
  } catch (error) {
    if (error instanceof Error && /UNIQUE constraint failed/.test(error.message)) throw conflict("business:assets.inviteExists");
    throw error;
  }
  if (inserted.meta.changes === 0) {
    await requireAction(db, businessId, userId, "hierarchy.invite");
    throw badRequest([{ field: "business", reason: "business:validation.tooManyInvites", values: { maximum: HIERARCHY_LIMITS.pendingInvites } }]);
  }
  const row = await db.prepare(`${INVITE_SELECT} WHERE h.id = ?1`).bind(id).first<Record<string, unknown>>();
  return inviteOf(row!, now);
}

/** The parent withdraws an open invite. */
export async function cancelInvite(db: D1Database, userId: number, businessId: number, inviteId: number, now = Date.now()): Promise<{ id: string }> {
  await requireAction(db, businessId, userId, "hierarchy.invite");
  const [update] = await db.batch([
    db
      .prepare(`UPDATE business_hierarchy SET status = 'CANCELLED', decided_by = ?2, decided_at = ?4 WHERE id = ?3 AND parent_business_id = ?1 AND status = 'PENDING' AND ${actorMay("hierarchy.invite")}`)
      .bind(businessId, userId, inviteId, now),
    historyRow(db, businessId, userId, "HIERARCHY_CANCELLED", "BUSINESS", businessId, { invite_id: String(inviteId) }, now, "changes() = 1"),
  ]);
  if (update!.meta.changes === 0) throw notFound("business:assets.inviteNotFound");
  return { id: String(inviteId) };
}

/** Invites addressed to the viewer: to a business they are ADMIN of, or to them as manager (at most 50). */
export async function viewerInvites(db: D1Database, userId: number, statuses: readonly InviteStatus[] = ["PENDING", "EXPIRED"], now = Date.now()): Promise<HierarchyInvite[]> {
  const { results } = await db
    .prepare(
      `${INVITE_SELECT} WHERE h.status = 'PENDING' AND (h.user_id = ?1 OR h.child_business_id IN (SELECT business_id FROM business_members WHERE user_id = ?1 AND role = 'ADMIN'))
       ORDER BY h.created_at DESC, h.id LIMIT 50`,
    )
    .bind(userId)
    .all<Record<string, unknown>>();
  return results.map((row) => inviteOf(row, now)).filter((invite) => statuses.includes(invite.status));
}

/** The invitee answers: the child's ADMIN for a child business, the person for a manager invite. */
export async function answerInvite(db: D1Database, userId: number, inviteId: number, accept: boolean, now = Date.now()): Promise<{ id: string; status: "ACCEPTED" | "DECLINED" }> {
  const row = await db.prepare(`${INVITE_SELECT} WHERE h.id = ?1 AND h.status = 'PENDING'`).bind(inviteId).first<Record<string, unknown>>();
  if (!row) throw notFound("business:assets.inviteNotFound");
  const invite = inviteOf(row, now);
  if (invite.child_business) {
    try {
      await requireAction(db, Number(invite.child_business.id), userId, "hierarchy.respond");
    } catch (error) {
      // Someone else's invite is not theirs to see.
      if (isDomainError(error, "not_found")) throw notFound("business:assets.inviteNotFound");
      throw error;
    }
  } else if (invite.user?.id !== String(userId)) throw notFound("business:assets.inviteNotFound");
  if (invite.status === "EXPIRED") throw conflict("business:assets.inviteExpired");
  const parent = Number(invite.parent_business.id);
  const child = invite.child_business ? Number(invite.child_business.id) : null;
  const status = accept ? "ACCEPTED" : "DECLINED";
  // Re-checked in the write: still open and unexpired, the answerer still the child's ADMIN (or
  // the invited person), and for a child, the two-level rule still holding on both sides.
  // ?1 the child business (for actorMay), ?2 the answerer, ?5 the invite, ?6 the parent.
  const answerer = child === null ? "user_id = ?2 AND child_business_id IS ?1" : actorMay("hierarchy.respond");
  const twoLevels =
    accept && child !== null
      ? ` AND NOT EXISTS (SELECT 1 FROM business_hierarchy WHERE status = 'ACCEPTED' AND type = 'CHILD_BUSINESS' AND (child_business_id = ?1 OR parent_business_id = ?1 OR child_business_id = ?6))`
      : "";
  const done = `EXISTS (SELECT 1 FROM business_hierarchy WHERE id = ${inviteId} AND status = '${status}' AND decided_at = ${now})`;
  const detail = { name: invite.child_business?.name ?? `@${invite.user!.username}`, type: invite.type };
  let update: D1Result;
  try {
    [update] = (await db.batch([
      db
        .prepare(`UPDATE business_hierarchy SET status = ?4, decided_by = ?2, decided_at = ?3 WHERE id = ?5 AND parent_business_id = ?6 AND status = 'PENDING' AND created_at > ?3 - ${INVITE_TTL_MS} AND ${answerer}${twoLevels}`)
        .bind(child, userId, now, status, inviteId, parent),
      historyRow(db, parent, userId, accept ? "HIERARCHY_ACCEPTED" : "HIERARCHY_DECLINED", "BUSINESS", child ?? userId, detail, now, done),
      ...(child === null ? [] : [historyRow(db, child, userId, accept ? "HIERARCHY_ACCEPTED" : "HIERARCHY_DECLINED", "BUSINESS", parent, { name: invite.parent_business.name, type: invite.type }, now, done)]),
    ])) as [D1Result];
  } catch (error) {
    if (error instanceof Error && /UNIQUE constraint failed/.test(error.message)) throw conflict("business:assets.alreadyInHierarchy");
    throw error;
  }
  if (update.meta.changes === 0) throw conflict("business:assets.alreadyInHierarchy");
  return { id: String(inviteId), status };
}

/** Either side ends a relationship: the parent's ADMIN, or (for a child business) the child's ADMIN. */
export async function removeRelation(db: D1Database, userId: number, businessId: number, relationId: number, now = Date.now()): Promise<{ id: string }> {
  await requireAction(db, businessId, userId, "hierarchy.remove");
  const [update] = await db.batch([
    db
      .prepare(
        `UPDATE business_hierarchy SET status = 'REMOVED', decided_by = ?2, decided_at = ?4 WHERE id = ?3 AND status = 'ACCEPTED' AND (parent_business_id = ?1 OR child_business_id = ?1)
         AND ${actorMay("hierarchy.remove")}`,
      )
      .bind(businessId, userId, relationId, now),
    historyRow(db, businessId, userId, "HIERARCHY_REMOVED", "BUSINESS", businessId, { relation_id: String(relationId) }, now, "changes() = 1"),
  ]);
  if (update!.meta.changes === 0) throw notFound("business:assets.relationNotFound");
  return { id: String(relationId) };
}

interface HierarchyItem {
  id: string;
  name: string;
  detail: string;
  business: Named;
}

// Each list across the business and its children (?1 the business). `name` and `detail` are
// the columns shown; search and sort use name.
const LIST_SQL: Record<HierarchyList, string> = {
  ad_accounts: "SELECT a.id, a.name, a.currency AS detail, b.id AS business_id, b.name AS business_name FROM ad_accounts a JOIN businesses b ON b.id = a.business_id WHERE a.business_id IN (SELECT id FROM tree)",
  asset_groups: "SELECT g.id, g.name, '' AS detail, b.id AS business_id, b.name AS business_name FROM asset_groups g JOIN businesses b ON b.id = g.business_id WHERE g.business_id IN (SELECT id FROM tree)",
  profiles: `SELECT u.id, u.username AS name, u.full_name AS detail, b.id AS business_id, b.name AS business_name FROM businesses b JOIN users u ON u.id = b.profile_id WHERE b.id IN (SELECT id FROM tree)
    UNION ALL SELECT u.id, u.username, u.full_name, b.id, b.name FROM business_profiles p JOIN users u ON u.id = p.profile_id JOIN businesses b ON b.id = p.business_id WHERE p.business_id IN (SELECT id FROM tree) AND p.status = 'LINKED'`,
  business_members: "SELECT u.id, u.username AS name, m.role AS detail, b.id AS business_id, b.name AS business_name FROM business_members m JOIN users u ON u.id = m.user_id JOIN businesses b ON b.id = m.business_id WHERE m.business_id IN (SELECT id FROM tree)",
  employees: "SELECT u.id, u.username AS name, m.role AS detail, b.id AS business_id, b.name AS business_name FROM business_members m JOIN users u ON u.id = m.user_id JOIN businesses b ON b.id = m.business_id WHERE m.business_id IN (SELECT id FROM tree) AND m.user_id <> b.owner_id",
  managers: "SELECT u.id, u.username AS name, 'ORGANIZATION_MANAGER' AS detail, b.id AS business_id, b.name AS business_name FROM business_hierarchy h JOIN users u ON u.id = h.user_id JOIN businesses b ON b.id = h.parent_business_id WHERE h.parent_business_id = ?1 AND h.type = 'ORGANIZATION_MANAGER' AND h.status = 'ACCEPTED'",
};

/** One hierarchy list, a page at a time (at most 100 rows a page), searched and sorted by name. */
export async function hierarchyList(db: D1Database, userId: number, businessId: number, list: HierarchyList, state: { limit: number; startIndex: number; sortDirection: "ASCENDING" | "DESCENDING"; searchTerm?: string }): Promise<{ items: HierarchyItem[]; total_count: number }> {
  await requireReader(db, businessId, userId);
  const tree = `WITH tree AS (SELECT ?1 AS id UNION SELECT child_business_id FROM business_hierarchy WHERE parent_business_id = ?1 AND type = 'CHILD_BUSINESS' AND status = 'ACCEPTED')`;
  const parts: Array<[(n: number) => string, unknown]> = state.searchTerm ? [[(n) => `name LIKE ?${n} ESCAPE '\\'`, likeTerm(state.searchTerm)]] : [];
  const clause = where(parts, 4);
  const [rows, count] = await db.batch<Record<string, unknown>>([
    db
      .prepare(`${tree} SELECT * FROM (${LIST_SQL[list]}) WHERE 1${clause.sql} ORDER BY name COLLATE NOCASE ${state.sortDirection === "ASCENDING" ? "ASC" : "DESC"}, business_id, id LIMIT ?2 OFFSET ?3`)
      .bind(businessId, state.limit, state.startIndex - 1, ...clause.values),
    db.prepare(`${tree} SELECT COUNT(*) AS n FROM (${LIST_SQL[list]}) WHERE 1${where(parts, 2).sql}`).bind(businessId, ...clause.values),
  ]);
  return {
    items: rows!.results.map((row) => ({ id: String(row["id"]), name: String(row["name"]), detail: String(row["detail"]), business: { id: String(row["business_id"]), name: String(row["business_name"]) } })),
    total_count: Number(count!.results[0]?.["n"] ?? 0),
  };
}
