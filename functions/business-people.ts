// The people of a business (spec 002 §7 "people, partners, people and partner invites and
// requests; employees, their invites and roles; AOAA requests"), under the same /v3/businesses/
// design as functions/business.ts and recorded in docs/decisions.md. Every call needs a full
// login; the role table decides the rest: a stranger or a personal account gets 404.
//   GET    /v3/businesses/{id}/employees/?(table state; filters {business_roles})
//   GET|PATCH|DELETE /v3/businesses/{id}/employees/{userId}/          PATCH {role}
//   PUT    /v3/businesses/{id}/employees/{userId}/assets/              {asset_type, asset_ids, role}
//   DELETE /v3/businesses/{id}/employees/{userId}/assets/{type}/{assetId}/
//   GET    /v3/businesses/{id}/employee_invites/?(table state; filters {status, business_roles})
//   POST   /v3/businesses/{id}/employee_invites/                       {invitee, role, asset_roles?}
//   POST   /v3/businesses/{id}/employee_invites/{inviteId}/refresh/
//   DELETE /v3/businesses/{id}/employee_invites/{inviteId}/
//   GET    /v3/businesses/invites/                                     the viewer's own invites
//   POST   /v3/businesses/invites/{inviteId}/accept/   DELETE /v3/businesses/invites/{inviteId}/ (decline)
//   GET    /v3/businesses/{id}/partners/?(table state; filters {relation})
//   DELETE /v3/businesses/{id}/partners/{otherId}/
//   PUT    /v3/businesses/{id}/partners/{partnerId}/assets/            {asset_type, asset_ids, role}
//   DELETE /v3/businesses/{id}/partners/{partnerId}/assets/{type}/{assetId}/
//   GET    /v3/businesses/{id}/partner_invites/?(table state; filters {status, kind})
//   POST   /v3/businesses/{id}/partner_invites/                        {business_id, kind, asset_roles?}
//   POST   /v3/businesses/{id}/partner_invites/{inviteId}/accept/ | refresh/
//   DELETE /v3/businesses/{id}/partner_invites/{inviteId}/
//   GET    /v3/businesses/{id}/aoaa_requests/?(table state; filters {status})
//   POST   /v3/businesses/{id}/aoaa_requests/                          {ad_account_id, business_id, permissions}
//   PATCH  /v3/businesses/{id}/aoaa_requests/{requestId}/              {permissions}
//   POST   /v3/businesses/{id}/aoaa_requests/{requestId}/approve/ | decline/
//   DELETE /v3/businesses/{id}/aoaa_requests/                          clears the answered ones
import { Hono, type Context } from "hono";
import { acceptPartnerInvite, answerAoaaRequest, clearAoaaRequests, createAoaaRequest, deletePartnerInvite, listAoaaRequests, listPartnerInvites, listPartners, refreshPartnerInvite, removePartner, sendPartnerInvite, updateAoaaRequest } from "~/business/partners.server.ts";
import {
  acceptEmployeeInvite,
  declineEmployeeInvite,
  deleteEmployeeInvite,
  getEmployee,
  invitesFor,
  inviteEmployee,
  listEmployeeInvites,
  listEmployees,
  refreshEmployeeInvite,
  removeAssetRole,
  removeEmployee,
  setAssetRoles,
  updateEmployeeRole,
} from "~/business/people.server.ts";
import { aoaaCreate, aoaaQuery, aoaaUpdate, assetRolesUpdate, employeeInviteCreate, employeeQuery, employeeRoleUpdate, inviteQuery, partnerInviteCreate, partnerInviteQuery, partnerQuery } from "~/business/people.ts";
import { ASSET_TYPES, type AssetType } from "~/business/roles.ts";
import { notFound } from "~/domain/errors.ts";
import { success } from "~/server/answer.ts";
import { readParsed } from "~/server/body.ts";
import type { AppEnv } from "~/server/context.ts";
import { businessParam, gate, pathId, query, reader, writer } from "./business-request.ts";

export const businessPeopleRoutes = new Hono<AppEnv>();

const B = "/businesses/:businessId{[0-9]+}";

const param = (c: Context<AppEnv>, name: string, message: string) => pathId(c.req.param(name), message);

function assetType(c: Context<AppEnv>): AssetType {
  const type = c.req.param("assetType");
  if (!(ASSET_TYPES as readonly string[]).includes(type ?? "")) throw notFound("business:people.assetRoleNotFound");
  return type as AssetType;
}

// ---- Employees ----

const employee = (c: Context<AppEnv>) => param(c, "userId", "business:people.employeeNotFound");

businessPeopleRoutes.get(`${B}/employees/`, async (c) => {
  const { userId, businessId } = await gate(c, "people.read", false);
  return success(c, await listEmployees(c.env.DB, userId, businessId, query(c, employeeQuery)));
});
businessPeopleRoutes.get(`${B}/employees/:userId{[0-9]+}/`, async (c) => success(c, await getEmployee(c.env.DB, reader(c), businessParam(c), employee(c))));
businessPeopleRoutes.patch(`${B}/employees/:userId{[0-9]+}/`, async (c) => {
  const { userId, businessId } = await gate(c, "people.manage", true);
  const input = await readParsed(c, employeeRoleUpdate);
  return success(c, await updateEmployeeRole(c.env.DB, userId, businessId, employee(c), input.role));
});
businessPeopleRoutes.delete(`${B}/employees/:userId{[0-9]+}/`, async (c) => success(c, await removeEmployee(c.env.DB, writer(c), businessParam(c), employee(c))));
businessPeopleRoutes.put(`${B}/employees/:userId{[0-9]+}/assets/`, async (c) => {
  const { userId, businessId } = await gate(c, "people.manage", true);
  const input = await readParsed(c, assetRolesUpdate);
  await setAssetRoles(c.env.DB, userId, businessId, "EMPLOYEE", employee(c), input);
  return success(c, await getEmployee(c.env.DB, userId, businessId, employee(c)));
});
businessPeopleRoutes.delete(`${B}/employees/:userId{[0-9]+}/assets/:assetType{[A-Z_]+}/:assetId{[0-9]+}/`, async (c) => {
  const userId = writer(c);
  const businessId = businessParam(c);
  await removeAssetRole(c.env.DB, userId, businessId, "EMPLOYEE", employee(c), { type: assetType(c), id: param(c, "assetId", "business:people.assetRoleNotFound") });
  return success(c, await getEmployee(c.env.DB, userId, businessId, employee(c)));
});

// ---- Employee invites ----

const invite = (c: Context<AppEnv>) => param(c, "inviteId", "business:people.inviteNotFound");

businessPeopleRoutes.get(`${B}/employee_invites/`, async (c) => {
  const { userId, businessId } = await gate(c, "people.read", false);
  return success(c, await listEmployeeInvites(c.env.DB, userId, businessId, query(c, inviteQuery)));
});
businessPeopleRoutes.post(`${B}/employee_invites/`, async (c) => {
  const { userId, businessId } = await gate(c, "people.manage", true);
  return success(c, await inviteEmployee(c.env.DB, userId, businessId, await readParsed(c, employeeInviteCreate)));
});
businessPeopleRoutes.post(`${B}/employee_invites/:inviteId{[0-9]+}/refresh/`, async (c) => success(c, await refreshEmployeeInvite(c.env.DB, writer(c), businessParam(c), invite(c))));
businessPeopleRoutes.delete(`${B}/employee_invites/:inviteId{[0-9]+}/`, async (c) => success(c, await deleteEmployeeInvite(c.env.DB, writer(c), businessParam(c), invite(c))));

// ---- The viewer's own invites ----

businessPeopleRoutes.get("/businesses/invites/", async (c) => success(c, { items: await invitesFor(c.env.DB, reader(c)) }));
businessPeopleRoutes.post("/businesses/invites/:inviteId{[0-9]+}/accept/", async (c) => success(c, await acceptEmployeeInvite(c.env.DB, writer(c), invite(c))));
businessPeopleRoutes.delete("/businesses/invites/:inviteId{[0-9]+}/", async (c) => success(c, await declineEmployeeInvite(c.env.DB, writer(c), invite(c))));

// ---- Partners ----

const otherBusiness = (c: Context<AppEnv>) => param(c, "otherId", "business:people.partnerNotFound");

businessPeopleRoutes.get(`${B}/partners/`, async (c) => {
  const { userId, businessId } = await gate(c, "partner.read", false);
  return success(c, await listPartners(c.env.DB, userId, businessId, query(c, partnerQuery)));
});
businessPeopleRoutes.delete(`${B}/partners/:otherId{[0-9]+}/`, async (c) => success(c, await removePartner(c.env.DB, writer(c), businessParam(c), otherBusiness(c))));
businessPeopleRoutes.put(`${B}/partners/:otherId{[0-9]+}/assets/`, async (c) => {
  const { userId, businessId } = await gate(c, "partner.manage", true);
  const input = await readParsed(c, assetRolesUpdate);
  await setAssetRoles(c.env.DB, userId, businessId, "PARTNER", otherBusiness(c), input);
  return success(c, { id: String(otherBusiness(c)) });
});
businessPeopleRoutes.delete(`${B}/partners/:otherId{[0-9]+}/assets/:assetType{[A-Z_]+}/:assetId{[0-9]+}/`, async (c) => {
  await removeAssetRole(c.env.DB, writer(c), businessParam(c), "PARTNER", otherBusiness(c), { type: assetType(c), id: param(c, "assetId", "business:people.assetRoleNotFound") });
  return success(c, { id: String(otherBusiness(c)) });
});

// ---- Partner invites and requests ----

businessPeopleRoutes.get(`${B}/partner_invites/`, async (c) => {
  const { userId, businessId } = await gate(c, "partner.read", false);
  return success(c, await listPartnerInvites(c.env.DB, userId, businessId, query(c, partnerInviteQuery)));
});
businessPeopleRoutes.post(`${B}/partner_invites/`, async (c) => {
  const { userId, businessId } = await gate(c, "partner.manage", true);
  return success(c, await sendPartnerInvite(c.env.DB, userId, businessId, await readParsed(c, partnerInviteCreate)));
});
businessPeopleRoutes.post(`${B}/partner_invites/:inviteId{[0-9]+}/accept/`, async (c) => success(c, await acceptPartnerInvite(c.env.DB, writer(c), businessParam(c), invite(c))));
businessPeopleRoutes.post(`${B}/partner_invites/:inviteId{[0-9]+}/refresh/`, async (c) => success(c, await refreshPartnerInvite(c.env.DB, writer(c), businessParam(c), invite(c))));
businessPeopleRoutes.delete(`${B}/partner_invites/:inviteId{[0-9]+}/`, async (c) => success(c, await deletePartnerInvite(c.env.DB, writer(c), businessParam(c), invite(c))));

// ---- AOAA requests ----

const request = (c: Context<AppEnv>) => param(c, "requestId", "business:people.requestNotFound");

businessPeopleRoutes.get(`${B}/aoaa_requests/`, async (c) => {
  const { userId, businessId } = await gate(c, "aoaa.read", false);
  return success(c, await listAoaaRequests(c.env.DB, userId, businessId, query(c, aoaaQuery)));
});
businessPeopleRoutes.post(`${B}/aoaa_requests/`, async (c) => {
  const { userId, businessId } = await gate(c, "aoaa.manage", true);
  return success(c, await createAoaaRequest(c.env.DB, userId, businessId, await readParsed(c, aoaaCreate)));
});
businessPeopleRoutes.patch(`${B}/aoaa_requests/:requestId{[0-9]+}/`, async (c) => {
  const { userId, businessId } = await gate(c, "aoaa.manage", true);
  return success(c, await updateAoaaRequest(c.env.DB, userId, businessId, request(c), await readParsed(c, aoaaUpdate)));
});
businessPeopleRoutes.post(`${B}/aoaa_requests/:requestId{[0-9]+}/approve/`, async (c) => success(c, await answerAoaaRequest(c.env.DB, writer(c), businessParam(c), request(c), true)));
businessPeopleRoutes.post(`${B}/aoaa_requests/:requestId{[0-9]+}/decline/`, async (c) => success(c, await answerAoaaRequest(c.env.DB, writer(c), businessParam(c), request(c), false)));
businessPeopleRoutes.delete(`${B}/aoaa_requests/`, async (c) => success(c, await clearAoaaRequests(c.env.DB, writer(c), businessParam(c))));
