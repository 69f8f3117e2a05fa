// A business's profiles, audiences, conversion tags and hierarchy (spec 002 §7 "get, create,
// delete and update"; paths ours, recorded in docs/decisions.md), mounted at /v3 beside
// functions/business.ts and answering {status, code, message, data}. The role table decides
// every call (src/business/roles.ts): a stranger gets 404, a member without the right 403, and
// who may is asked before what was sent is read, so a stranger learns nothing from a 400.
//   GET|POST   /v3/businesses/{id}/profiles/                        POST {username}
//   GET|DELETE /v3/businesses/{id}/profiles/{profileId}/
//   GET        /v3/business_profile_requests/                       businesses asking for the viewer's profile
//   POST       /v3/business_profile_requests/{businessId}/approve/ | decline/
//   GET|POST   /v3/businesses/{id}/audiences/                       the business's own (shared) audiences
//   GET        /v3/businesses/{id}/audiences/received/              audiences shared with its ad accounts
//   GET|PATCH|DELETE /v3/businesses/{id}/audiences/{audienceId}/
//   POST       /v3/businesses/{id}/audiences/{audienceId}/shared_accounts/   {ad_account_id}
//   DELETE     /v3/businesses/{id}/audiences/{audienceId}/shared_accounts/{adAccountId}/
//   GET|POST   /v3/businesses/{id}/conversion_tags/
//   GET|PATCH|DELETE /v3/businesses/{id}/conversion_tags/{tagId}/
//   GET        /v3/businesses/{id}/hierarchy/?status               children, managers, pending, acting_user
//   GET        /v3/businesses/{id}/hierarchy/acting_user/
//   GET        /v3/businesses/{id}/hierarchy/lists/{list}/?page&limit&sort_direction&search_term
//   POST       /v3/businesses/{id}/hierarchy/invites/              {type, business_id | username}
//   DELETE     /v3/businesses/{id}/hierarchy/invites/{inviteId}/
//   DELETE     /v3/businesses/{id}/hierarchy/relations/{relationId}/
//   GET        /v3/business_hierarchy_invites/?status              the viewer's invites
//   POST       /v3/business_hierarchy_invites/{inviteId}/accept/ | decline/
import { Hono, type Context } from "hono";
import { z } from "zod";
import { audienceCreate, audienceQuery, audienceShare, audienceUpdate, HIERARCHY_LISTS, hierarchyInvite, inviteQuery, profileLink, profileQuery, tagCreate, tagQuery, tagUpdate } from "~/business/asset-schemas.ts";
import { createAudience, deleteAudience, getAudience, listAudiences, listReceivedAudiences, shareAudience, unshareAudience, updateAudience } from "~/business/audiences.server.ts";
import { answerInvite, cancelInvite, createInvite, getActingUser, getHierarchy, hierarchyList, removeRelation, viewerInvites } from "~/business/hierarchy.server.ts";
import { answerProfileRequest, getProfile, linkProfile, listProfiles, profileRequests, unlinkProfile } from "~/business/profiles.server.ts";
import { requireAssetAction } from "~/business/core.server.ts";
import { createTag, deleteTag, getTag, listTags, updateTag } from "~/business/tags.server.ts";
import { tableQuerySchema } from "~/business/table-state.ts";
import { success } from "~/server/answer.ts";
import { readParsed } from "~/server/body.ts";
import type { AppEnv } from "~/server/context.ts";
import { notFound } from "~/domain/errors.ts";
import { businessParam, gate, pathId, query, reader, writer } from "./business-request.ts";

export const businessAssetRoutes = new Hono<AppEnv>();


const B = "/businesses/:businessId{[0-9]+}";

// ---- Profiles ----

const profile = (c: Context<AppEnv>) => pathId(c.req.param("profileId"), "business:assets.profileNotFound");

businessAssetRoutes.get(`${B}/profiles/`, async (c) => {
  const { userId, businessId } = await gate(c, "profile.read", false);
  return success(c, await listProfiles(c.env.DB, userId, businessId, query(c, profileQuery)));
});
businessAssetRoutes.post(`${B}/profiles/`, async (c) => {
  const { userId, businessId } = await gate(c, "profile.link", true);
  return success(c, await linkProfile(c.env.DB, userId, businessId, await readParsed(c, profileLink)));
});
businessAssetRoutes.get(`${B}/profiles/:profileId{[0-9]+}/`, async (c) => success(c, await getProfile(c.env.DB, reader(c), businessParam(c), profile(c))));
businessAssetRoutes.delete(`${B}/profiles/:profileId{[0-9]+}/`, async (c) => success(c, await unlinkProfile(c.env.DB, writer(c), businessParam(c), profile(c))));

businessAssetRoutes.get("/business_profile_requests/", async (c) => success(c, { items: await profileRequests(c.env.DB, reader(c)) }));
for (const [verb, approve] of [
  ["approve", true],
  ["decline", false],
] as const) {
  businessAssetRoutes.post(`/business_profile_requests/:businessId{[0-9]+}/${verb}/`, async (c) => success(c, await answerProfileRequest(c.env.DB, writer(c), businessParam(c), approve)));
}

// ---- Audiences ----

const audience = (c: Context<AppEnv>) => pathId(c.req.param("audienceId"), "business:assets.audienceNotFound");

businessAssetRoutes.get(`${B}/audiences/`, async (c) => {
  const { userId, businessId } = await gate(c, "audience.read", false);
  return success(c, await listAudiences(c.env.DB, userId, businessId, query(c, audienceQuery)));
});
businessAssetRoutes.get(`${B}/audiences/received/`, async (c) => {
  const { userId, businessId } = await gate(c, "audience.read", false);
  return success(c, await listReceivedAudiences(c.env.DB, userId, businessId, query(c, audienceQuery)));
});
businessAssetRoutes.post(`${B}/audiences/`, async (c) => {
  const { userId, businessId } = await gate(c, "audience.create", true);
  return success(c, await createAudience(c.env.DB, userId, businessId, await readParsed(c, audienceCreate)));
});
businessAssetRoutes.get(`${B}/audiences/:audienceId{[0-9]+}/`, async (c) => success(c, await getAudience(c.env.DB, reader(c), businessParam(c), audience(c))));
businessAssetRoutes.patch(`${B}/audiences/:audienceId{[0-9]+}/`, async (c) => {
  const { userId, businessId } = await gate(c, "audience.update", true);
  return success(c, await updateAudience(c.env.DB, userId, businessId, audience(c), await readParsed(c, audienceUpdate)));
});
businessAssetRoutes.delete(`${B}/audiences/:audienceId{[0-9]+}/`, async (c) => success(c, await deleteAudience(c.env.DB, writer(c), businessParam(c), audience(c))));
businessAssetRoutes.post(`${B}/audiences/:audienceId{[0-9]+}/shared_accounts/`, async (c) => {
  const { userId, businessId } = await gate(c, "audience.share", true);
  return success(c, await shareAudience(c.env.DB, userId, businessId, audience(c), (await readParsed(c, audienceShare)).ad_account_id));
});
businessAssetRoutes.delete(`${B}/audiences/:audienceId{[0-9]+}/shared_accounts/:adAccountId{[0-9]+}/`, async (c) =>
  success(c, await unshareAudience(c.env.DB, writer(c), businessParam(c), audience(c), pathId(c.req.param("adAccountId"), "business:assets.shareNotFound"))),
);

// ---- Conversion tags ----

const tag = (c: Context<AppEnv>) => pathId(c.req.param("tagId"), "business:assets.tagNotFound");

businessAssetRoutes.get(`${B}/conversion_tags/`, async (c) => {
  const { userId, businessId } = await gate(c, "tag.read", false);
  return success(c, await listTags(c.env.DB, userId, businessId, query(c, tagQuery)));
});
businessAssetRoutes.post(`${B}/conversion_tags/`, async (c) => {
  const { userId, businessId } = await gate(c, "tag.create", true);
  return success(c, await createTag(c.env.DB, userId, businessId, await readParsed(c, tagCreate)));
});
businessAssetRoutes.get(`${B}/conversion_tags/:tagId{[0-9]+}/`, async (c) => success(c, await getTag(c.env.DB, reader(c), businessParam(c), tag(c))));
businessAssetRoutes.patch(`${B}/conversion_tags/:tagId{[0-9]+}/`, async (c) => {
  const userId = writer(c);
  const businessId = businessParam(c);
  // Who may, on this tag, before what they sent: a stranger learns nothing from a 400.
  await requireAssetAction(c.env.DB, businessId, userId, "tag.update", { type: "TAG", id: tag(c) });
  return success(c, await updateTag(c.env.DB, userId, businessId, tag(c), await readParsed(c, tagUpdate)));
});
businessAssetRoutes.delete(`${B}/conversion_tags/:tagId{[0-9]+}/`, async (c) => success(c, await deleteTag(c.env.DB, writer(c), businessParam(c), tag(c))));

// ---- Hierarchy ----

const statusesOf = (status: "PENDING" | "EXPIRED" | undefined) => (status ? [status] : (["PENDING", "EXPIRED"] as const));
const hierarchyListQuery = tableQuerySchema(["name"] as const, ["name"] as const, z.strictObject({}));

businessAssetRoutes.get(`${B}/hierarchy/`, async (c) => {
  const userId = reader(c);
  return success(c, await getHierarchy(c.env.DB, userId, businessParam(c), statusesOf(query(c, inviteQuery).status)));
});
businessAssetRoutes.get(`${B}/hierarchy/acting_user/`, async (c) => success(c, await getActingUser(c.env.DB, reader(c), businessParam(c))));
businessAssetRoutes.get(`${B}/hierarchy/lists/:list/`, async (c) => {
  const userId = reader(c);
  const businessId = businessParam(c);
  const list = z.enum(HIERARCHY_LISTS).safeParse(c.req.param("list"));
  if (!list.success) throw notFound();
  const state = query(c, hierarchyListQuery);
  const page = await hierarchyList(c.env.DB, userId, businessId, list.data, state);
  return success(c, { ...page, page: state.page, limit: state.limit, start_index: state.startIndex, sort_direction: state.sortDirection, search_term: state.searchTerm ?? null });
});
businessAssetRoutes.post(`${B}/hierarchy/invites/`, async (c) => {
  const { userId, businessId } = await gate(c, "hierarchy.invite", true);
  return success(c, await createInvite(c.env.DB, userId, businessId, await readParsed(c, hierarchyInvite)));
});
businessAssetRoutes.delete(`${B}/hierarchy/invites/:inviteId{[0-9]+}/`, async (c) => {
  const { userId, businessId } = await gate(c, "hierarchy.invite", true);
  return success(c, await cancelInvite(c.env.DB, userId, businessId, pathId(c.req.param("inviteId"), "business:assets.inviteNotFound")));
});
businessAssetRoutes.delete(`${B}/hierarchy/relations/:relationId{[0-9]+}/`, async (c) => {
  const { userId, businessId } = await gate(c, "hierarchy.remove", true);
  return success(c, await removeRelation(c.env.DB, userId, businessId, pathId(c.req.param("relationId"), "business:assets.relationNotFound")));
});

businessAssetRoutes.get("/business_hierarchy_invites/", async (c) => {
  const userId = reader(c);
  return success(c, { items: await viewerInvites(c.env.DB, userId, statusesOf(query(c, inviteQuery).status)) });
});
for (const [verb, accept] of [
  ["accept", true],
  ["decline", false],
] as const) {
  businessAssetRoutes.post(`/business_hierarchy_invites/:inviteId{[0-9]+}/${verb}/`, async (c) => success(c, await answerInvite(c.env.DB, writer(c), pathId(c.req.param("inviteId"), "business:assets.inviteNotFound"), accept)));
}
