// The profiles a business manages: the one it was made from (always linked, never unlinked) and
// others linked later. Linking one's own profile is immediate; anyone else's waits, PENDING,
// until that profile's person approves it, so no business can claim a profile by naming it.
import { badRequest, conflict, notFound } from "~/domain/errors.ts";
import { actorMay, historyRow, likeTerm, permissionsOf, requireAction, seconds, where } from "./core.server.ts";
import { tablePage, type TablePage, type TableState } from "./table-state.ts";
import type { PROFILE_SEARCHES, PROFILE_SORTS, PROFILE_STATUSES } from "./asset-schemas.ts";
import type { BusinessAction, BusinessRole } from "./roles.ts";

/** Profiles a business may hold besides its own, linked or asked for. */
const MAX_LINKED_PROFILES = 20;

type Person = { id: string; username: string; full_name: string };

interface BusinessProfile {
  id: string;
  username: string;
  full_name: string;
  account_type: string;
  status: (typeof PROFILE_STATUSES)[number];
  is_own_profile: boolean;
  requested_by: Person;
  created_time: number;
  linked_time: number | null;
  permissions: BusinessAction[];
}

const ORDER: Record<(typeof PROFILE_SORTS)[number], string> = { username: "u.username COLLATE NOCASE", created_time: "p.created_at" };

// ?1 is the business: its own profile first, then the linked and pending ones.
const PROFILES = `WITH p AS (
    SELECT b.profile_id AS profile_id, 'LINKED' AS status, 1 AS own, b.created_at AS created_at, b.created_at AS linked_at, b.owner_id AS requested_by FROM businesses b WHERE b.id = ?1
    UNION ALL SELECT profile_id, status, 0, created_at, linked_at, requested_by FROM business_profiles WHERE business_id = ?1
  )`;
const SELECT = `${PROFILES} SELECT p.profile_id, p.status, p.own, p.created_at, p.linked_at, u.username, u.full_name, u.account_type,
  r.id AS requester_id, r.username AS requester_username, r.full_name AS requester_full_name
  FROM p JOIN users u ON u.id = p.profile_id JOIN users r ON r.id = p.requested_by`;

function profileOf(row: Record<string, unknown>, role: BusinessRole): BusinessProfile {
  return {
    id: String(row["profile_id"]),
    username: String(row["username"]),
    full_name: String(row["full_name"]),
    account_type: String(row["account_type"]),
    status: row["status"] as BusinessProfile["status"],
    is_own_profile: Number(row["own"]) === 1,
    requested_by: { id: String(row["requester_id"]), username: String(row["requester_username"]), full_name: String(row["requester_full_name"]) },
    created_time: seconds(Number(row["created_at"])),
    linked_time: row["linked_at"] === null ? null : seconds(Number(row["linked_at"])),
    permissions: permissionsOf(role).filter((action) => action.startsWith("profile.")),
  };
}

export async function listProfiles(db: D1Database, userId: number, businessId: number, state: TableState<(typeof PROFILE_SORTS)[number], (typeof PROFILE_SEARCHES)[number], { status?: Array<(typeof PROFILE_STATUSES)[number]> | undefined }>): Promise<TablePage<BusinessProfile>> {
  const role = await requireAction(db, businessId, userId, "profile.read");
  const parts: Array<[(n: number) => string, unknown]> = [];
  if (state.searchTerm) parts.push([(n) => `${state.searchBy === "full_name" ? "u.full_name" : "u.username"} LIKE ?${n} ESCAPE '\\'`, likeTerm(state.searchTerm)]);
  if (state.filtersPayload?.status?.length) parts.push([(n) => `p.status IN (SELECT value FROM json_each(?${n}))`, JSON.stringify(state.filtersPayload.status)]);
  const clause = where(parts, 4);
  const order = `p.own DESC, ${ORDER[state.sortBy]} ${state.sortDirection === "ASCENDING" ? "ASC" : "DESC"}, p.profile_id`;
  const [rows, count] = await db.batch<Record<string, unknown>>([
    db.prepare(`${SELECT} WHERE 1${clause.sql} ORDER BY ${order} LIMIT ?2 OFFSET ?3`).bind(businessId, state.limit, state.startIndex - 1, ...clause.values),
    db.prepare(`${PROFILES} SELECT COUNT(*) AS n FROM p JOIN users u ON u.id = p.profile_id WHERE 1${where(parts, 2).sql}`).bind(businessId, ...clause.values),
  ]);
  return tablePage(
    rows!.results.map((row) => profileOf(row, role)),
    Number(count!.results[0]?.["n"] ?? 0),
    state,
  );
}

export async function getProfile(db: D1Database, userId: number, businessId: number, profileId: number): Promise<BusinessProfile> {
  const role = await requireAction(db, businessId, userId, "profile.read");
  const row = await db.prepare(`${SELECT} WHERE p.profile_id = ?2`).bind(businessId, profileId).first<Record<string, unknown>>();
  if (!row) throw notFound("business:assets.profileNotFound");
  return profileOf(row, role);
}

/** Links a profile by its username: the viewer's own at once, anyone else's on their approval. */
export async function linkProfile(db: D1Database, userId: number, businessId: number, input: { username: string }, now = Date.now()): Promise<BusinessProfile> {
  await requireAction(db, businessId, userId, "profile.link");
  const person = await db
    .prepare("SELECT id, username, is_under_18, age_in_years FROM users WHERE username = ?1")
    .bind(input.username.replace(/^@/, ""))
    .first<{ id: number; username: string; is_under_18: number; age_in_years: number | null }>();
  if (!person) throw badRequest([{ field: "username", reason: "business:validation.noSuchProfile" }]);
  // A business is for adults (onboarding refuses minors); their profiles are not linked either.
  if (person.is_under_18 === 1 || (person.age_in_years !== null && person.age_in_years < 18)) throw badRequest([{ field: "username", reason: "business:validation.minorProfile" }]);
  const own = person.id === userId;
  const status = own ? "LINKED" : "PENDING";
  const [insert] = await db.batch([
    db
      .prepare(
        `INSERT INTO business_profiles (business_id, profile_id, status, requested_by, created_at, linked_at)
         SELECT ?1, ?3, ?4, ?2, ?5, ?6 WHERE ${actorMay("profile.link")}
           AND NOT EXISTS (SELECT 1 FROM businesses WHERE id = ?1 AND profile_id = ?3)
           AND NOT EXISTS (SELECT 1 FROM business_profiles WHERE business_id = ?1 AND profile_id = ?3)
           AND (SELECT COUNT(*) FROM business_profiles WHERE business_id = ?1) < ?7`,
      )
      .bind(businessId, userId, person.id, status, now, own ? now : null, MAX_LINKED_PROFILES),
    historyRow(db, businessId, userId, own ? "PROFILE_LINKED" : "PROFILE_LINK_REQUESTED", "PROFILE", person.id, { name: `@${person.username}` }, now, "changes() = 1"),
  ]);
  if (insert!.meta.changes === 0) {
    await requireAction(db, businessId, userId, "profile.link");
    const there = await db.prepare(`${PROFILES} SELECT 1 FROM p WHERE profile_id = ?2`).bind(businessId, person.id).first();
    if (there) throw conflict("business:assets.profileAlreadyLinked");
    throw badRequest([{ field: "business", reason: "business:validation.tooManyProfiles", values: { maximum: MAX_LINKED_PROFILES } }]);
  }
  return getProfile(db, userId, businessId, person.id);
}

/** Unlinks a profile or withdraws a request; the business's own profile stays. */
export async function unlinkProfile(db: D1Database, userId: number, businessId: number, profileId: number, now = Date.now()): Promise<{ id: string }> {
  const before = await getProfile(db, userId, businessId, profileId);
  await requireAction(db, businessId, userId, "profile.unlink");
  if (before.is_own_profile) throw conflict("business:assets.ownProfile");
  const [remove] = await db.batch([
    db.prepare(`DELETE FROM business_profiles WHERE business_id = ?1 AND profile_id = ?3 AND ${actorMay("profile.unlink")}`).bind(businessId, userId, profileId),
    historyRow(db, businessId, userId, "PROFILE_UNLINKED", "PROFILE", profileId, { name: `@${before.username}` }, now, "changes() = 1"),
  ]);
  if (remove!.meta.changes === 0) {
    await requireAction(db, businessId, userId, "profile.unlink");
    throw notFound("business:assets.profileNotFound");
  }
  return { id: String(profileId) };
}

interface ProfileRequest {
  business: { id: string; name: string };
  requested_by: Person;
  created_time: number;
}

/** Businesses asking to link the viewer's own profile (at most 50, newest first). */
export async function profileRequests(db: D1Database, userId: number): Promise<ProfileRequest[]> {
  const { results } = await db
    .prepare(
      `SELECT b.id, b.name, p.created_at, r.id AS requester_id, r.username, r.full_name FROM business_profiles p
       JOIN businesses b ON b.id = p.business_id JOIN users r ON r.id = p.requested_by
       WHERE p.profile_id = ?1 AND p.status = 'PENDING' ORDER BY p.created_at DESC LIMIT 50`,
    )
    .bind(userId)
    .all<Record<string, unknown>>();
  return results.map((row) => ({
    business: { id: String(row["id"]), name: String(row["name"]) },
    requested_by: { id: String(row["requester_id"]), username: String(row["username"]), full_name: String(row["full_name"]) },
    created_time: seconds(Number(row["created_at"])),
  }));
}

/** The profile's person answers a business's request: approve links it, decline drops it. */
export async function answerProfileRequest(db: D1Database, userId: number, businessId: number, approve: boolean, now = Date.now()): Promise<{ business_id: string; status: "LINKED" | "DECLINED" }> {
  const username = await db.prepare("SELECT username FROM users WHERE id = ?1").bind(userId).first<string>("username");
  const pending = "EXISTS (SELECT 1 FROM business_profiles WHERE business_id = ?1 AND profile_id = ?2 AND status = 'PENDING')";
  const [history, change] = await db.batch([
    historyRow(db, businessId, userId, approve ? "PROFILE_LINKED" : "PROFILE_LINK_DECLINED", "PROFILE", userId, { name: `@${username ?? ""}` }, now, pending),
    approve
      ? db.prepare("UPDATE business_profiles SET status = 'LINKED', linked_at = ?3 WHERE business_id = ?1 AND profile_id = ?2 AND status = 'PENDING'").bind(businessId, userId, now)
      : db.prepare("DELETE FROM business_profiles WHERE business_id = ?1 AND profile_id = ?2 AND status = 'PENDING'").bind(businessId, userId),
  ]);
  if (change!.meta.changes === 0 || history!.meta.changes === 0) throw notFound("business:assets.requestNotFound");
  return { business_id: String(businessId), status: approve ? "LINKED" : "DECLINED" };
}
