// The business area's calls (spec 002 §7 "get, create, delete and update" of business assets;
// its paths are ours, recorded in docs/decisions.md), mounted at /v3 and answering
// {status, code, message, data}. Every call needs a full login; the role table decides the rest
// (src/business/roles.ts): a stranger or a personal account gets 404 for any business.
//   GET    /v3/businesses/                                  the viewer's businesses
//   POST   /v3/businesses/                                  onboarding → {business, ad_account}
//   GET    /v3/businesses/{id}/                             one business, with the viewer's role
//   GET    /v3/businesses/{id}/dashboard/                   recently added items and profiles
//   PUT    /v3/businesses/{id}/marketing_plan/              the survey's answers → the suggested plan
//   GET    /v3/businesses/{id}/ad_accounts/?page&limit&sort_by&sort_direction&search_by&search_term&filters
//   POST   /v3/businesses/{id}/ad_accounts/                 {name, country}
//   GET|PATCH|DELETE /v3/businesses/{id}/ad_accounts/{adAccountId}/   PATCH {name}
//   GET    /v3/businesses/{id}/asset_groups/?(table state)
//   POST   /v3/businesses/{id}/asset_groups/                {name, description, asset_group_types, child_ad_account_ids, child_profile_ids}
//   GET|PATCH|DELETE /v3/businesses/{id}/asset_groups/{groupId}/
//   GET    /v3/businesses/{id}/history/?start_date&end_date&page&limit
//   GET|PUT /v3/businesses/{id}/properties/BIZ_USER/NAVBAR_CONFIG/  {customShortcuts}
import { Hono, type Context } from "hono";
import { requireWriteAllowed } from "~/accounts/guards.server.ts";
import {
  businessesOf,
  createAdAccount,
  createAssetGroup,
  createBusiness,
  dashboard,
  deleteAdAccount,
  deleteAssetGroup,
  getAdAccount,
  getAssetGroup,
  getBusiness,
  listAdAccounts,
  listAssetGroups,
  listHistory,
  readShortcuts,
  saveMarketingPlan,
  updateAdAccount,
  updateAssetGroup,
  writeShortcuts,
} from "~/business/business.server.ts";
import { requireAction, requireAssetAction } from "~/business/core.server.ts";
import { marketingPlanSchema } from "~/business/marketing-plan.ts";
import { NAVIGATION_EXPERIMENT, navigationOn } from "~/business/navigation.ts";
import { adAccountCreate, adAccountQuery, adAccountUpdate, assetGroupCreate, assetGroupQuery, assetGroupUpdate, shortcutsBody } from "~/business/schemas.ts";
import { onboardingSchema } from "~/business/onboarding.ts";
import { historyQuerySchema } from "~/business/table-state.ts";
import { success } from "~/server/answer.ts";
import { readParsed } from "~/server/body.ts";
import type { AppEnv } from "~/server/context.ts";
import { DomainError, RETRY_AFTER_SECONDS } from "~/domain/errors.ts";
import { businessParam, pathId, query, reader, writer } from "./business-request.ts";

export const businessRoutes = new Hono<AppEnv>();



businessRoutes.get("/businesses/", async (c) => success(c, { items: await businessesOf(c.env.DB, reader(c)) }));

businessRoutes.post("/businesses/", async (c) => {
  const userId = writer(c);
  return success(c, await createBusiness(c.env.DB, userId, await readParsed(c, onboardingSchema)));
});

businessRoutes.get("/businesses/:businessId{[0-9]+}/", async (c) => success(c, await getBusiness(c.env.DB, reader(c), businessParam(c))));

businessRoutes.get("/businesses/:businessId{[0-9]+}/dashboard/", async (c) => success(c, await dashboard(c.env.DB, reader(c), businessParam(c))));

businessRoutes.put("/businesses/:businessId{[0-9]+}/marketing_plan/", async (c) => {
  const userId = writer(c);
  const businessId = businessParam(c);
  // Who may, before what they sent: a stranger learns nothing from a 400.
  await requireAction(c.env.DB, businessId, userId, "marketing_plan.update");
  return success(c, await saveMarketingPlan(c.env.DB, userId, businessId, await readParsed(c, marketingPlanSchema)));
});

// ---- Ad accounts ----

const adAccount = (c: Context<AppEnv>) => pathId(c.req.param("adAccountId"), "business:api.adAccountNotFound");

businessRoutes.get("/businesses/:businessId{[0-9]+}/ad_accounts/", async (c) => {
  const userId = reader(c);
  const businessId = businessParam(c);
  await requireAction(c.env.DB, businessId, userId, "ad_account.read");
  return success(c, await listAdAccounts(c.env.DB, userId, businessId, query(c, adAccountQuery)));
});
businessRoutes.post("/businesses/:businessId{[0-9]+}/ad_accounts/", async (c) => {
  const userId = writer(c);
  const businessId = businessParam(c);
  await requireAction(c.env.DB, businessId, userId, "ad_account.create");
  return success(c, await createAdAccount(c.env.DB, userId, businessId, await readParsed(c, adAccountCreate)));
});
businessRoutes.get("/businesses/:businessId{[0-9]+}/ad_accounts/:adAccountId{[0-9]+}/", async (c) => success(c, await getAdAccount(c.env.DB, reader(c), businessParam(c), adAccount(c))));
businessRoutes.patch("/businesses/:businessId{[0-9]+}/ad_accounts/:adAccountId{[0-9]+}/", async (c) => {
  const userId = writer(c);
  const businessId = businessParam(c);
  await requireAssetAction(c.env.DB, businessId, userId, "ad_account.update", { type: "AD_ACCOUNT", id: adAccount(c) });
  return success(c, await updateAdAccount(c.env.DB, userId, businessId, adAccount(c), await readParsed(c, adAccountUpdate)));
});
businessRoutes.delete("/businesses/:businessId{[0-9]+}/ad_accounts/:adAccountId{[0-9]+}/", async (c) => success(c, await deleteAdAccount(c.env.DB, writer(c), businessParam(c), adAccount(c))));

// ---- Asset groups ----

const assetGroup = (c: Context<AppEnv>) => pathId(c.req.param("groupId"), "business:api.assetGroupNotFound");

businessRoutes.get("/businesses/:businessId{[0-9]+}/asset_groups/", async (c) => {
  const userId = reader(c);
  const businessId = businessParam(c);
  await requireAction(c.env.DB, businessId, userId, "asset_group.read");
  return success(c, await listAssetGroups(c.env.DB, userId, businessId, query(c, assetGroupQuery)));
});
businessRoutes.post("/businesses/:businessId{[0-9]+}/asset_groups/", async (c) => {
  const userId = writer(c);
  const businessId = businessParam(c);
  await requireAction(c.env.DB, businessId, userId, "asset_group.create");
  return success(c, await createAssetGroup(c.env.DB, userId, businessId, await readParsed(c, assetGroupCreate)));
});
businessRoutes.get("/businesses/:businessId{[0-9]+}/asset_groups/:groupId{[0-9]+}/", async (c) => success(c, await getAssetGroup(c.env.DB, reader(c), businessParam(c), assetGroup(c))));
businessRoutes.patch("/businesses/:businessId{[0-9]+}/asset_groups/:groupId{[0-9]+}/", async (c) => {
  const userId = writer(c);
  const businessId = businessParam(c);
  await requireAssetAction(c.env.DB, businessId, userId, "asset_group.update", { type: "ASSET_GROUP", id: assetGroup(c) });
  return success(c, await updateAssetGroup(c.env.DB, userId, businessId, assetGroup(c), await readParsed(c, assetGroupUpdate)));
});
businessRoutes.delete("/businesses/:businessId{[0-9]+}/asset_groups/:groupId{[0-9]+}/", async (c) => success(c, await deleteAssetGroup(c.env.DB, writer(c), businessParam(c), assetGroup(c))));

// ---- History ----

businessRoutes.get("/businesses/:businessId{[0-9]+}/history/", async (c) => {
  const userId = reader(c);
  const businessId = businessParam(c);
  await requireAction(c.env.DB, businessId, userId, "history.read");
  const range = query(c, historyQuerySchema(Date.now()));
  const { items, total_count } = await listHistory(c.env.DB, businessId, range);
  return success(c, { items, total_count, page: range.page, limit: range.limit, start_index: range.startIndex, date_range: { start_date: range.startDate, end_date: range.endDate } });
});

// ---- Navigation shortcuts: business properties BIZ_USER / NAVBAR_CONFIG ----

const SHORTCUTS_PATH = "/businesses/:businessId{[0-9]+}/properties/BIZ_USER/NAVBAR_CONFIG/";

/** Spec 002 §8: signed out or outside the navigation experiment is Auth_Error. */
function requireNavigation(c: Context<AppEnv>, write: boolean): number {
  const authError = (kind: "unauthorized" | "forbidden") => new DomainError(kind, { message: "business:shortcuts.authError", extraData: { error: "Auth_Error" } });
  const session = c.var.ctx.session;
  if (!session || c.var.ctx.viewerType !== "AUTH") throw authError("unauthorized");
  if (!navigationOn(c.var.ctx.experiments[NAVIGATION_EXPERIMENT])) throw authError("forbidden");
  return write ? requireWriteAllowed(c.var.ctx).user.id : session.user.id;
}

businessRoutes.get(SHORTCUTS_PATH, async (c) => {
  const userId = requireNavigation(c, false);
  return success(c, { entity_type: "BIZ_USER", key: "NAVBAR_CONFIG", customShortcuts: await readShortcuts(c.env.DB, userId, businessParam(c)) });
});

businessRoutes.put(SHORTCUTS_PATH, async (c) => {
  const userId = requireNavigation(c, true);
  try {
    const businessId = businessParam(c);
    await requireAction(c.env.DB, businessId, userId, "shortcuts.write");
    const input = await readParsed(c, shortcutsBody);
    return success(c, { entity_type: "BIZ_USER", key: "NAVBAR_CONFIG", customShortcuts: await writeShortcuts(c.env.DB, userId, businessId, input.customShortcuts) });
  } catch (error) {
    // Spec 002 §8: any other failure of the save is Upsert_Error, its status still saying why.
    if (error instanceof DomainError) throw new DomainError(error.kind, { ...error.options, extraData: { ...error.options.extraData, error: "Upsert_Error" } });
    throw new DomainError("unavailable", { message: "api.unavailable", retryAfterSeconds: RETRY_AFTER_SECONDS, extraData: { error: "Upsert_Error" }, cause: error });
  }
});
