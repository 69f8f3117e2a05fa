// Partners: businesses (agencies) that work for a business, the invites (the client asks) and
// requests (the agency asks) that make them partners, and ad-account-owner access approval
// (AOAA) requests, by which a business offers one of its ad accounts to another. The other
// side's ADMIN accepts; partners then act on the client's assets through their asset roles
// (./roles.ts). Each change is one D1 batch with a history row in each business it touches.
import { badRequest, conflict, notFound } from "~/domain/errors.ts";
import { enforce } from "~/server/rate-limit.server.ts";
import { actorMay, historyRow, likeTerm, newId, requireAction, seconds, where } from "./core.server.ts";
import { assetInBusiness, assetRolesOf, checkAssets, heldAssets, INVITE_RULE, statusClause, storedAssetRoles, type HeldAssets } from "./people.server.ts";
import { inviteStatus, INVITE_TTL_MS, PEOPLE_LIMITS, type AoaaStatus, type AOAA_SEARCHES, type AOAA_SORTS, type AssetRoleInput, type INVITE_SEARCHES, type INVITE_SORTS, type InviteStatus, type PARTNER_SEARCHES, type PARTNER_SORTS, type PartnerKind } from "./people.ts";
import type { AssetType, BusinessRole } from "./roles.ts";
import { tablePage, type TablePage, type TableState } from "./table-state.ts";

/** The other business named in a body: it must exist and not be this one. */
async function otherBusiness(db: D1Database, businessId: number, otherId: number, field: string): Promise<{ id: number; name: string }> {
  if (otherId === businessId) throw badRequest([{ field, reason: "business:validation.sameBusiness" }]);
  const row = await db.prepare("SELECT id, name FROM businesses WHERE id = ?1").bind(otherId).first<{ id: number; name: string }>();
  if (!row) throw badRequest([{ field, reason: "business:validation.noSuchBusiness" }]);
  return row;
}

// ---- Partners and clients ----

interface Partner extends HeldAssets {
  /** The other business's id. */
  id: string;
  name: string;
  /** PARTNER: it works for this business; CLIENT: this business works for it. Its asset roles are the partner's on the client's assets. */
  relation: "PARTNER" | "CLIENT";
  created_time: number;
}

const PARTNER_ORDER: Record<(typeof PARTNER_SORTS)[number], string> = { name: "o.name COLLATE NOCASE", created_time: "p.created_at" };

/** Both directions as one list: partners (p.business_id = us) and clients (p.partner_id = us). */
const PARTNER_SELECT = `SELECT o.id, o.name, p.relation, p.created_at, p.client_id, p.agency_id FROM (
    SELECT partner_id AS other_id, 'PARTNER' AS relation, created_at, business_id AS client_id, partner_id AS agency_id FROM business_partners WHERE business_id = ?1
    UNION ALL SELECT business_id, 'CLIENT', created_at, business_id, partner_id FROM business_partners WHERE partner_id = ?1
  ) p JOIN businesses o ON o.id = p.other_id`;

export async function listPartners(db: D1Database, userId: number, businessId: number, state: TableState<(typeof PARTNER_SORTS)[number], (typeof PARTNER_SEARCHES)[number], { relation?: Array<"PARTNER" | "CLIENT"> | undefined }>): Promise<TablePage<Partner>> {
  await requireAction(db, businessId, userId, "partner.read");
  const parts: Array<[(n: number) => string, unknown]> = [];
  if (state.searchTerm) {
    if (state.searchBy === "id") parts.push([(n) => `CAST(o.id AS TEXT) = ?${n}`, state.searchTerm]);
    else parts.push([(n) => `o.name LIKE ?${n} ESCAPE '\\'`, likeTerm(state.searchTerm)]);
  }
  if (state.filtersPayload?.relation?.length) parts.push([(n) => `p.relation IN (SELECT value FROM json_each(?${n}))`, JSON.stringify(state.filtersPayload.relation)]);
  const clause = where(parts, 4);
  const order = `${PARTNER_ORDER[state.sortBy]} ${state.sortDirection === "ASCENDING" ? "ASC" : "DESC"}, o.id`;
  const [rows, count] = await db.batch<Record<string, unknown>>([
    db.prepare(`${PARTNER_SELECT} WHERE 1${clause.sql} ORDER BY ${order} LIMIT ?2 OFFSET ?3`).bind(businessId, state.limit, state.startIndex - 1, ...clause.values),
    db.prepare(`SELECT COUNT(*) AS n FROM (${PARTNER_SELECT} WHERE 1${where(parts, 2).sql})`).bind(businessId, ...clause.values),
  ]);
  const list = rows!.results;
  const held = await assetRolesOf(
    db,
    "PARTNER",
    [...new Set(list.map((row) => Number(row["client_id"])))],
    [...new Set(list.map((row) => Number(row["agency_id"])))],
  );
  return tablePage(
    list.map((row) => ({
      id: String(row["id"]),
      name: String(row["name"]),
      relation: row["relation"] as Partner["relation"],
      created_time: seconds(Number(row["created_at"])),
      ...heldAssets(held.get(`${String(row["client_id"])}:${String(row["agency_id"])}`) ?? []),
    })),
    Number(count!.results[0]?.["n"] ?? 0),
    state,
  );
}

/** Ends a partnership, from either side: the link and every role the agency held on the client's assets go. */
export async function removePartner(db: D1Database, actorId: number, businessId: number, otherId: number, now = Date.now()): Promise<{ id: string }> {
  await requireAction(db, businessId, actorId, "partner.manage");
  const link = await db
    .prepare("SELECT business_id AS client, partner_id AS agency, (SELECT name FROM businesses WHERE id = ?2) AS name FROM business_partners WHERE (business_id = ?1 AND partner_id = ?2) OR (business_id = ?2 AND partner_id = ?1)")
    .bind(businessId, otherId)
    .first<{ client: number; agency: number; name: string }>();
  if (!link) throw notFound("business:people.partnerNotFound");
  const gone = `NOT EXISTS (SELECT 1 FROM business_partners WHERE business_id = ${link.client} AND partner_id = ${link.agency})`;
  const [remove] = await db.batch([
    db.prepare(`DELETE FROM business_partners WHERE business_id = ?3 AND partner_id = ?4 AND ${actorMay("partner.manage")}`).bind(businessId, actorId, link.client, link.agency),
    historyRow(db, businessId, actorId, "PARTNER_REMOVED", "PARTNER", otherId, { name: link.name }, now, "changes() = 1"),
    db.prepare(`DELETE FROM business_asset_roles WHERE business_id = ?1 AND member_type = 'PARTNER' AND member_id = ?2 AND ${gone}`).bind(link.client, link.agency),
  ]);
  if (remove!.meta.changes !== 1) {
    await requireAction(db, businessId, actorId, "partner.manage");
    throw notFound("business:people.partnerNotFound");
  }
  return { id: String(otherId) };
}

// ---- Partner invites (the client asks) and requests (the agency asks) ----

interface PartnerInvite {
  id: string;
  kind: PartnerKind;
  /** SENT by this business, or RECEIVED: only the receiving business's ADMIN accepts. */
  direction: "SENT" | "RECEIVED";
  status: InviteStatus;
  invite_data: { sent_at: number; expires_at: number; asset_roles: Array<{ asset_type: AssetType; asset_id: string; role: BusinessRole }> };
  /** The other business. */
  business: { id: string; name: string };
  sent_by: { id: string; username: string; full_name: string };
}

/** The sending side of an invite row: the client for an INVITE, the agency for a REQUEST. */
const SENDER = "(CASE i.kind WHEN 'INVITE' THEN i.business_id ELSE i.partner_id END)";

const PARTNER_INVITE_SELECT = `SELECT i.id, i.kind, i.asset_roles, i.sent_at, i.expires_at, ${SENDER} AS sender_business,
  o.id AS other_id, o.name AS other_name, s.id AS sender_id, s.username AS sender_username, s.full_name AS sender_full_name
  FROM business_partner_invites i JOIN users s ON s.id = i.sent_by
  JOIN businesses o ON o.id = CASE WHEN i.business_id = ?1 THEN i.partner_id ELSE i.business_id END`;

const PARTNER_INVITE_ORDER: Record<(typeof INVITE_SORTS)[number], string> = { sent_at: "i.sent_at", name: "o.name COLLATE NOCASE" };

function partnerInviteOf(row: Record<string, unknown>, businessId: number, now: number): PartnerInvite {
  const stored = JSON.parse(String(row["asset_roles"])) as Array<{ asset_type: AssetType; asset_id: number; role: BusinessRole }>;
  return {
    id: String(row["id"]),
    kind: row["kind"] as PartnerKind,
    direction: Number(row["sender_business"]) === businessId ? "SENT" : "RECEIVED",
    status: inviteStatus(Number(row["expires_at"]), now),
    invite_data: { sent_at: seconds(Number(row["sent_at"])), expires_at: seconds(Number(row["expires_at"])), asset_roles: stored.map((entry) => ({ asset_type: entry.asset_type, asset_id: String(entry.asset_id), role: entry.role })) },
    business: { id: String(row["other_id"]), name: String(row["other_name"]) },
    sent_by: { id: String(row["sender_id"]), username: String(row["sender_username"]), full_name: String(row["sender_full_name"]) },
  };
}

export async function listPartnerInvites(
  db: D1Database,
  userId: number,
  businessId: number,
  state: TableState<(typeof INVITE_SORTS)[number], (typeof INVITE_SEARCHES)[number], { status?: InviteStatus[] | undefined; kind?: PartnerKind[] | undefined }>,
  now = Date.now(),
): Promise<TablePage<PartnerInvite>> {
  await requireAction(db, businessId, userId, "partner.read");
  const parts: Array<[(n: number) => string, unknown]> = [];
  if (state.searchTerm) parts.push([(n) => `o.name LIKE ?${n} ESCAPE '\\'`, likeTerm(state.searchTerm)]);
  const filters = state.filtersPayload ?? {};
  if (filters.kind?.length) parts.push([(n) => `i.kind IN (SELECT value FROM json_each(?${n}))`, JSON.stringify(filters.kind)]);
  if (filters.status?.length) parts.push([statusClause("i.expires_at", 2), JSON.stringify(filters.status)]);
  const order = `${PARTNER_INVITE_ORDER[state.sortBy]} ${state.sortDirection === "ASCENDING" ? "ASC" : "DESC"}, i.id`;
  const mine = "(i.business_id = ?1 OR i.partner_id = ?1) AND ?2 = ?2";
  const page = where(parts, 5);
  const count = where(parts, 3);
  const [rows, total] = await db.batch<Record<string, unknown>>([
    db.prepare(`${PARTNER_INVITE_SELECT} WHERE ${mine}${page.sql} ORDER BY ${order} LIMIT ?3 OFFSET ?4`).bind(businessId, now, state.limit, state.startIndex - 1, ...page.values),
    db.prepare(`SELECT COUNT(*) AS n FROM business_partner_invites i JOIN businesses o ON o.id = CASE WHEN i.business_id = ?1 THEN i.partner_id ELSE i.business_id END WHERE ${mine}${count.sql}`).bind(businessId, now, ...count.values),
  ]);
  return tablePage(
    rows!.results.map((row) => partnerInviteOf(row, businessId, now)),
    Number(total!.results[0]?.["n"] ?? 0),
    state,
  );
}

async function partnerInvite(db: D1Database, businessId: number, inviteId: number, now: number): Promise<PartnerInvite & { client: number; agency: number }> {
  const row = await db
    .prepare(`${PARTNER_INVITE_SELECT} WHERE i.id = ?2 AND (i.business_id = ?1 OR i.partner_id = ?1)`)
    .bind(businessId, inviteId)
    .first<Record<string, unknown>>();
  if (!row) throw notFound("business:people.inviteNotFound");
  const invite = partnerInviteOf(row, businessId, now);
  const kind = invite.kind;
  const other = Number(invite.business.id);
  // INVITE: the sender is the client; REQUEST: the sender is the agency.
  const senderIsUs = invite.direction === "SENT";
  const client = (kind === "INVITE") === senderIsUs ? businessId : other;
  return { ...invite, client, agency: client === businessId ? other : businessId };
}

/**
 * INVITE: this business (the client) asks another to work for it, optionally with roles on its
 * assets. REQUEST: this business (an agency) asks another to let it work for it. Sending again
 * to the same business replaces the open one. Bounded with the employee invites' limits.
 */
export async function sendPartnerInvite(db: D1Database, actorId: number, businessId: number, input: { business_id: string; kind: PartnerKind; asset_roles: AssetRoleInput[] }, now = Date.now()): Promise<PartnerInvite> {
  await requireAction(db, businessId, actorId, "partner.manage");
  await enforce(db, INVITE_RULE, businessId, now);
  const other = await otherBusiness(db, businessId, Number(input.business_id), "business_id");
  const client = input.kind === "INVITE" ? businessId : other.id;
  const agency = input.kind === "INVITE" ? other.id : businessId;
  if ((await db.prepare("SELECT 1 FROM business_partners WHERE business_id = ?1 AND partner_id = ?2").bind(client, agency).first()) !== null) throw conflict("business:people.alreadyPartner");
  await checkAssets(db, businessId, input.asset_roles, (index) => `asset_roles.${index}.asset_id`);
  const id = newId();
  const sent = `EXISTS (SELECT 1 FROM business_partner_invites WHERE business_id = ${client} AND partner_id = ${agency} AND sent_at = ${now})`;
  const [insert] = await db.batch([
    db
      .prepare(
        `INSERT INTO business_partner_invites (id, business_id, partner_id, kind, asset_roles, sent_by, sent_at, expires_at, created_at)
         SELECT ?3, ?4, ?5, ?6, ?7, ?2, ?8, ?9, ?8
         WHERE ${actorMay("partner.manage")} AND (SELECT COUNT(*) FROM business_partner_invites WHERE business_id = ?1 OR partner_id = ?1) < ?10
         ON CONFLICT (business_id, partner_id) DO UPDATE SET kind = excluded.kind, asset_roles = excluded.asset_roles, sent_by = excluded.sent_by, sent_at = excluded.sent_at, expires_at = excluded.expires_at`,
      )
      .bind(businessId, actorId, id, client, agency, input.kind, storedAssetRoles(input.asset_roles), now, now + INVITE_TTL_MS, PEOPLE_LIMITS.openInvites),
    historyRow(db, businessId, actorId, input.kind === "INVITE" ? "PARTNER_INVITED" : "PARTNER_REQUESTED", "PARTNER", other.id, { name: other.name }, now, sent),
  ]);
  if (insert!.meta.changes !== 1) {
    await requireAction(db, businessId, actorId, "partner.manage");
    throw badRequest([{ field: "business", reason: "business:validation.tooManyInvites", values: { maximum: PEOPLE_LIMITS.openInvites } }]);
  }
  const row = await db.prepare(`${PARTNER_INVITE_SELECT} WHERE i.business_id = ?2 AND i.partner_id = ?3`).bind(businessId, client, agency).first<Record<string, unknown>>();
  return partnerInviteOf(row!, businessId, now);
}

/** The sender sends it again: sent_at is now, 30 more days. */
export async function refreshPartnerInvite(db: D1Database, actorId: number, businessId: number, inviteId: number, now = Date.now()): Promise<PartnerInvite> {
  await requireAction(db, businessId, actorId, "partner.manage");
  const invite = await partnerInvite(db, businessId, inviteId, now);
  if (invite.direction !== "SENT") throw notFound("business:people.inviteNotFound");
  await enforce(db, INVITE_RULE, businessId, now);
  const [update] = await db.batch([
    db.prepare(`UPDATE business_partner_invites SET sent_at = ?4, expires_at = ?5 WHERE id = ?3 AND ${SENDER.replaceAll("i.", "")} = ?1 AND ${actorMay("partner.manage")}`).bind(businessId, actorId, inviteId, now, now + INVITE_TTL_MS),
    historyRow(db, businessId, actorId, "PARTNER_INVITE_REFRESHED", "PARTNER", Number(invite.business.id), { name: invite.business.name }, now, "changes() = 1"),
  ]);
  if (update!.meta.changes !== 1) {
    await requireAction(db, businessId, actorId, "partner.manage");
    throw notFound("business:people.inviteNotFound");
  }
  const { client: _client, agency: _agency, ...after } = await partnerInvite(db, businessId, inviteId, now);
  return after;
}

/** The receiver's ADMIN accepts: the agency becomes the client's partner with the invite's asset roles, one batch, history in both. */
export async function acceptPartnerInvite(db: D1Database, actorId: number, businessId: number, inviteId: number, now = Date.now()): Promise<{ id: string; relation: "PARTNER" | "CLIENT" }> {
  await requireAction(db, businessId, actorId, "partner.manage");
  const invite = await partnerInvite(db, businessId, inviteId, now);
  if (invite.direction !== "RECEIVED") throw notFound("business:people.inviteNotFound");
  if (invite.status === "EXPIRED") throw conflict("business:people.inviteExpired");
  const other = Number(invite.business.id);
  const self = await db.prepare("SELECT name FROM businesses WHERE id = ?1").bind(businessId).first<{ name: string }>();
  const linked = `EXISTS (SELECT 1 FROM business_partners WHERE business_id = ${invite.client} AND partner_id = ${invite.agency} AND created_at = ${now})`;
  const [link] = await db.batch([
    db
      .prepare(
        `INSERT INTO business_partners (business_id, partner_id, created_at)
         SELECT ?3, ?4, ?5 FROM business_partner_invites WHERE id = ?6 AND business_id = ?3 AND partner_id = ?4 AND expires_at > ?5 AND ${actorMay("partner.manage")}
         ON CONFLICT (business_id, partner_id) DO NOTHING`,
      )
      .bind(businessId, actorId, invite.client, invite.agency, now, inviteId),
    db
      .prepare(
        `INSERT INTO business_asset_roles (business_id, member_type, member_id, asset_type, asset_id, role, created_at)
         SELECT ?1, 'PARTNER', ?2, json_extract(j.value, '$.asset_type'), json_extract(j.value, '$.asset_id'), json_extract(j.value, '$.role'), ?3
         FROM business_partner_invites i, json_each(i.asset_roles) j
         WHERE i.id = ?4 AND ${linked} AND ${assetInBusiness("json_extract(j.value, '$.asset_type')", "json_extract(j.value, '$.asset_id')", "?1")}
         ON CONFLICT (business_id, member_type, member_id, asset_type, asset_id) DO UPDATE SET role = excluded.role`,
      )
      .bind(invite.client, invite.agency, now, inviteId),
    historyRow(db, businessId, actorId, "PARTNER_ADDED", "PARTNER", other, { name: invite.business.name }, now, linked),
    historyRow(db, other, actorId, "PARTNER_ADDED", "PARTNER", businessId, { name: self?.name ?? "" }, now, linked),
    db.prepare(`DELETE FROM business_partner_invites WHERE id = ?1 AND ${linked}`).bind(inviteId),
  ]);
  if (link!.meta.changes !== 1) {
    await requireAction(db, businessId, actorId, "partner.manage");
    throw conflict("business:people.inviteExpired");
  }
  return { id: String(other), relation: invite.client === businessId ? "PARTNER" : "CLIENT" };
}

/** Either side ends an open invite or request: the sender withdraws it, the receiver declines it. */
export async function deletePartnerInvite(db: D1Database, actorId: number, businessId: number, inviteId: number, now = Date.now()): Promise<{ id: string }> {
  await requireAction(db, businessId, actorId, "partner.manage");
  const invite = await partnerInvite(db, businessId, inviteId, now);
  const [remove] = await db.batch([
    db.prepare(`DELETE FROM business_partner_invites WHERE id = ?3 AND (business_id = ?1 OR partner_id = ?1) AND ${actorMay("partner.manage")}`).bind(businessId, actorId, inviteId),
    historyRow(db, businessId, actorId, invite.direction === "SENT" ? "PARTNER_INVITE_DELETED" : "PARTNER_INVITE_DECLINED", "PARTNER", Number(invite.business.id), { name: invite.business.name }, now, "changes() = 1"),
  ]);
  if (remove!.meta.changes !== 1) {
    await requireAction(db, businessId, actorId, "partner.manage");
    throw notFound("business:people.inviteNotFound");
  }
  return { id: String(inviteId) };
}

// ---- AOAA requests ----

interface AoaaRequest {
  id: string;
  direction: "SENT" | "RECEIVED";
  status: AoaaStatus;
  ad_account: { id: string; name: string };
  business: { id: string; name: string };
  /** The role offered on the ad account ("roles" and "permissions" name the same thing). */
  permissions: BusinessRole[];
  roles: BusinessRole[];
  created_time: number;
  updated_time: number;
}

const AOAA_SELECT = `SELECT r.id, r.business_id, r.status, r.role, r.created_at, r.updated_at, r.ad_account_id, coalesce(a.name, '') AS account_name,
  o.id AS other_id, o.name AS other_name
  FROM business_aoaa_requests r LEFT JOIN ad_accounts a ON a.id = r.ad_account_id
  JOIN businesses o ON o.id = CASE WHEN r.business_id = ?1 THEN r.target_id ELSE r.business_id END`;

function aoaaOf(row: Record<string, unknown>, businessId: number): AoaaRequest {
  const role = row["role"] as BusinessRole;
  return {
    id: String(row["id"]),
    direction: Number(row["business_id"]) === businessId ? "SENT" : "RECEIVED",
    status: row["status"] as AoaaStatus,
    ad_account: { id: String(row["ad_account_id"]), name: String(row["account_name"]) },
    business: { id: String(row["other_id"]), name: String(row["other_name"]) },
    permissions: [role],
    roles: [role],
    created_time: seconds(Number(row["created_at"])),
    updated_time: seconds(Number(row["updated_at"])),
  };
}

export async function listAoaaRequests(db: D1Database, userId: number, businessId: number, state: TableState<(typeof AOAA_SORTS)[number], (typeof AOAA_SEARCHES)[number], { status?: AoaaStatus[] | undefined }>): Promise<TablePage<AoaaRequest>> {
  await requireAction(db, businessId, userId, "aoaa.read");
  const parts: Array<[(n: number) => string, unknown]> = [];
  if (state.searchTerm) parts.push([(n) => `CAST(r.id AS TEXT) = ?${n}`, state.searchTerm]);
  if (state.filtersPayload?.status?.length) parts.push([(n) => `r.status IN (SELECT value FROM json_each(?${n}))`, JSON.stringify(state.filtersPayload.status)]);
  const clause = where(parts, 4);
  const mine = "(r.business_id = ?1 OR r.target_id = ?1)";
  const [rows, count] = await db.batch<Record<string, unknown>>([
    db.prepare(`${AOAA_SELECT} WHERE ${mine}${clause.sql} ORDER BY r.created_at ${state.sortDirection === "ASCENDING" ? "ASC" : "DESC"}, r.id LIMIT ?2 OFFSET ?3`).bind(businessId, state.limit, state.startIndex - 1, ...clause.values),
    db.prepare(`SELECT COUNT(*) AS n FROM business_aoaa_requests r WHERE ${mine}${where(parts, 2).sql}`).bind(businessId, ...clause.values),
  ]);
  return tablePage(
    rows!.results.map((row) => aoaaOf(row, businessId)),
    Number(count!.results[0]?.["n"] ?? 0),
    state,
  );
}

async function aoaaRequest(db: D1Database, businessId: number, requestId: number): Promise<AoaaRequest & { target: number; owner: number }> {
  const row = await db.prepare(`${AOAA_SELECT} WHERE r.id = ?2 AND (r.business_id = ?1 OR r.target_id = ?1)`).bind(businessId, requestId).first<Record<string, unknown>>();
  if (!row) throw notFound("business:people.requestNotFound");
  const request = aoaaOf(row, businessId);
  const other = Number(request.business.id);
  return { ...request, owner: request.direction === "SENT" ? businessId : other, target: request.direction === "SENT" ? other : businessId };
}

const publicAoaa = ({ owner: _owner, target: _target, ...request }: AoaaRequest & { owner: number; target: number }): AoaaRequest => request;

/** The ad account's owner offers it to another business with one role; offering it again reopens the request. */
export async function createAoaaRequest(db: D1Database, actorId: number, businessId: number, input: { ad_account_id: string; business_id: string; permissions: BusinessRole[] }, now = Date.now()): Promise<AoaaRequest> {
  await requireAction(db, businessId, actorId, "aoaa.manage");
  await enforce(db, INVITE_RULE, businessId, now);
  await checkAssets(db, businessId, [{ asset_type: "AD_ACCOUNT", asset_id: input.ad_account_id }], () => "ad_account_id");
  const other = await otherBusiness(db, businessId, Number(input.business_id), "business_id");
  const id = newId();
  const made = `EXISTS (SELECT 1 FROM business_aoaa_requests WHERE ad_account_id = ${Number(input.ad_account_id)} AND target_id = ${other.id} AND updated_at = ${now})`;
  const [insert] = await db.batch([
    db
      .prepare(
        `INSERT INTO business_aoaa_requests (id, business_id, ad_account_id, target_id, role, status, created_by, created_at, updated_at)
         SELECT ?3, ?1, ?4, ?5, ?6, 'PENDING', ?2, ?7, ?7
         WHERE ${actorMay("aoaa.manage")} AND EXISTS (SELECT 1 FROM ad_accounts WHERE id = ?4 AND business_id = ?1) AND (SELECT COUNT(*) FROM business_aoaa_requests WHERE business_id = ?1) < ?8
         ON CONFLICT (ad_account_id, target_id) DO UPDATE SET role = excluded.role, status = 'PENDING', created_by = excluded.created_by, updated_at = excluded.updated_at`,
      )
      .bind(businessId, actorId, id, Number(input.ad_account_id), other.id, input.permissions[0], now, PEOPLE_LIMITS.aoaaRequests),
    historyRow(db, businessId, actorId, "AOAA_REQUESTED", "AD_ACCOUNT", Number(input.ad_account_id), { name: other.name, role: input.permissions[0] }, now, made),
  ]);
  if (insert!.meta.changes !== 1) {
    await requireAction(db, businessId, actorId, "aoaa.manage");
    throw badRequest([{ field: "business", reason: "business:validation.tooManyRequests", values: { maximum: PEOPLE_LIMITS.aoaaRequests } }]);
  }
  const row = await db.prepare(`${AOAA_SELECT} WHERE r.ad_account_id = ?2 AND r.target_id = ?3`).bind(businessId, Number(input.ad_account_id), other.id).first<Record<string, unknown>>();
  return aoaaOf(row!, businessId);
}

/**
 * The owner changes the offered role in place, by the request's id (spec 002 §4); once approved,
 * the partner's role on the ad account changes with it, in the same batch.
 */
export async function updateAoaaRequest(db: D1Database, actorId: number, businessId: number, requestId: number, input: { permissions: BusinessRole[] }, now = Date.now()): Promise<AoaaRequest> {
  await requireAction(db, businessId, actorId, "aoaa.manage");
  const request = await aoaaRequest(db, businessId, requestId);
  if (request.direction !== "SENT") throw notFound("business:people.requestNotFound");
  const role = input.permissions[0]!;
  const [update] = await db.batch([
    db.prepare(`UPDATE business_aoaa_requests SET role = ?4, updated_at = ?5 WHERE id = ?3 AND business_id = ?1 AND ${actorMay("aoaa.manage")}`).bind(businessId, actorId, requestId, role, now),
    historyRow(db, businessId, actorId, "AOAA_UPDATED", "AD_ACCOUNT", Number(request.ad_account.id), { name: request.business.name, role: { from: request.roles[0], to: role } }, now, "changes() = 1"),
    db
      .prepare(
        `UPDATE business_asset_roles SET role = ?4 WHERE business_id = ?1 AND member_type = 'PARTNER' AND member_id = ?2 AND asset_type = 'AD_ACCOUNT' AND asset_id = ?3
         AND EXISTS (SELECT 1 FROM business_aoaa_requests WHERE id = ?5 AND status = 'APPROVED' AND role = ?4 AND updated_at = ?6)`,
      )
      .bind(businessId, request.target, Number(request.ad_account.id), role, requestId, now),
  ]);
  if (update!.meta.changes !== 1) {
    await requireAction(db, businessId, actorId, "aoaa.manage");
    throw notFound("business:people.requestNotFound");
  }
  return publicAoaa(await aoaaRequest(db, businessId, requestId));
}

/**
 * The receiving business's ADMIN answers a PENDING request. Approving makes it the owner's
 * partner (if it was not) with the offered role on the ad account, one batch, history in both.
 */
export async function answerAoaaRequest(db: D1Database, actorId: number, businessId: number, requestId: number, approve: boolean, now = Date.now()): Promise<AoaaRequest> {
  await requireAction(db, businessId, actorId, "aoaa.manage");
  const request = await aoaaRequest(db, businessId, requestId);
  if (request.direction !== "RECEIVED") throw notFound("business:people.requestNotFound");
  if (request.status !== "PENDING") throw conflict("business:people.requestAnswered");
  const answered = `EXISTS (SELECT 1 FROM business_aoaa_requests WHERE id = ${requestId} AND status = 'APPROVED' AND updated_at = ${now})`;
  const status = approve ? "APPROVED" : "DECLINED";
  const [update] = await db.batch([
    db.prepare(`UPDATE business_aoaa_requests SET status = ?4, updated_at = ?5 WHERE id = ?3 AND target_id = ?1 AND status = 'PENDING' AND ${actorMay("aoaa.manage")}`).bind(businessId, actorId, requestId, status, now),
    historyRow(db, businessId, actorId, approve ? "AOAA_APPROVED" : "AOAA_DECLINED", "AD_ACCOUNT", Number(request.ad_account.id), { name: request.ad_account.name }, now, "changes() = 1"),
    historyRow(db, request.owner, actorId, approve ? "AOAA_APPROVED" : "AOAA_DECLINED", "AD_ACCOUNT", Number(request.ad_account.id), { name: request.ad_account.name }, now, `EXISTS (SELECT 1 FROM business_aoaa_requests WHERE id = ${requestId} AND updated_at = ${now})`),
    db.prepare(`INSERT INTO business_partners (business_id, partner_id, created_at) SELECT ?1, ?2, ?3 WHERE ${answered} ON CONFLICT (business_id, partner_id) DO NOTHING`).bind(request.owner, businessId, now),
    db
      .prepare(
        `INSERT INTO business_asset_roles (business_id, member_type, member_id, asset_type, asset_id, role, created_at)
         SELECT ?1, 'PARTNER', ?2, 'AD_ACCOUNT', r.ad_account_id, r.role, ?3 FROM business_aoaa_requests r
         WHERE r.id = ?4 AND ${answered} AND EXISTS (SELECT 1 FROM ad_accounts WHERE id = r.ad_account_id AND business_id = ?1)
         ON CONFLICT (business_id, member_type, member_id, asset_type, asset_id) DO UPDATE SET role = excluded.role`,
      )
      .bind(request.owner, businessId, now, requestId),
  ]);
  if (update!.meta.changes !== 1) {
    await requireAction(db, businessId, actorId, "aoaa.manage");
    throw conflict("business:people.requestAnswered");
  }
  return publicAoaa(await aoaaRequest(db, businessId, requestId));
}

/** Clears the answered requests (approved or declined) this business sent or received; pending ones stay. */
export async function clearAoaaRequests(db: D1Database, actorId: number, businessId: number, now = Date.now()): Promise<{ cleared: number }> {
  await requireAction(db, businessId, actorId, "aoaa.manage");
  const [remove] = await db.batch([
    db.prepare(`DELETE FROM business_aoaa_requests WHERE (business_id = ?1 OR target_id = ?1) AND status <> 'PENDING' AND ${actorMay("aoaa.manage")}`).bind(businessId, actorId),
    historyRow(db, businessId, actorId, "AOAA_CLEARED", "BUSINESS", businessId, {}, now, "changes() > 0"),
  ]);
  return { cleared: remove!.meta.changes };
}
