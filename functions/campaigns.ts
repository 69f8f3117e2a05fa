// Promotion's calls (spec 002 §7 "Quick promote submission": path and payload not shown, so ours,
// recorded in docs/decisions.md), mounted at /v3 with the {status, code, message, data} envelope.
// An ad account's business decides through the role table (src/business/roles.ts): a stranger
// gets 404, a member without the right 403.
//   GET   /v3/quick_promote/ad_accounts/                         the accounts the viewer may promote from
//   GET   /v3/ad_accounts/{id}/quick_promote/                     the advertiser's facts and the country's defaults
//   POST  /v3/ad_accounts/{id}/quick_promote/                     the form → {campaign_id, ad_group_id, ad_id}; X-Client-Request-Id applies it once
//   GET   /v3/ad_accounts/{id}/quick_promote/pins/?source&list_type&board_id&search_term&pin_ids   the pick-a-pin sheet
//   POST  /v3/ad_accounts/{id}/quick_promote/gdpr/                the GDPR modal's answer
//   PUT   /v3/ad_accounts/{id}/quick_promote/billing_profile/     the test-mode billing form {name, email}
//   PUT   /v3/ad_accounts/{id}/quick_promote/business_address/    the business form {line1, line2, city, region, postalCode, country}
//   GET   /v3/ad_accounts/{id}/campaigns/?(table state)           and /ad_groups/, /ads/
//   GET|PATCH /v3/ad_accounts/{id}/campaigns/{campaignId}/         PATCH {name, dailyBudget, endDate}
//   POST  /v3/ad_accounts/{id}/campaigns/{campaignId}/{pause|resume|end}/
import { Hono, type Context } from "hono";
import { z } from "zod";
import { idOption } from "~/boards/options.ts";
import { STATUS_ACTIONS } from "~/campaigns/campaign-status.ts";
import { adGroupQuery, adQuery, campaignQuery } from "~/campaigns/campaign-tables.ts";
import { changeCampaignStatus, getCampaign, listAdGroups, listAds, listCampaigns, updateCampaign } from "~/campaigns/campaign-tables.server.ts";
import { addressFormSchema, billingFormSchema, campaignUpdateSchema, DURATION_MAX, DURATION_MIN, LIST_TYPES, MAX_DAILY_BUDGET, minimumDailyBudget, PIN_SOURCES, promotionDefaults, quickPromoteSchema, startingBudget } from "~/campaigns/quick-promote.ts";
import { acceptGdpr, getAdvertiser, pickList, promotableAccounts, quickPromote, requireAccount, saveBusinessAddress, saveTestBilling } from "~/campaigns/quick-promote.server.ts";
import { success } from "~/server/answer.ts";
import { readParsed } from "~/server/body.ts";
import { answerOnce, claimOf } from "~/server/client-request.ts";
import type { AppEnv } from "~/server/context.ts";
import { pathId, query, reader, writer } from "./business-request.ts";
import { forgetInventory } from "~/ads/delivery.server.ts";

export const campaignRoutes = new Hono<AppEnv>();


const account = (c: Context<AppEnv>) => pathId(c.req.param("adAccountId"), "business:api.adAccountNotFound");
const campaign = (c: Context<AppEnv>) => pathId(c.req.param("campaignId"), "campaigns:api.campaignNotFound");

const ACCOUNT = "/ad_accounts/:adAccountId{[0-9]+}";

// A campaign written here shows in this isolate's feeds at once (src/ads/delivery.server.ts).
campaignRoutes.use(`${ACCOUNT}/*`, async (c, next) => {
  await next();
  if (c.req.method !== "GET") forgetInventory();
});

campaignRoutes.get("/quick_promote/ad_accounts/", async (c) => success(c, { items: await promotableAccounts(c.env.DB, reader(c)) }));

campaignRoutes.get(`${ACCOUNT}/quick_promote/`, async (c) => {
  const advertiser = await getAdvertiser(c.env.DB, reader(c), account(c));
  const defaults = promotionDefaults(advertiser.country);
  return success(c, {
    advertiser,
    defaults: { dailyBudget: defaults.dailyBudget, duration: defaults.duration, startingBudget: startingBudget(advertiser.country) },
    limits: { minimumDailyBudget: minimumDailyBudget(advertiser.country), maximumDailyBudget: MAX_DAILY_BUDGET, minimumDuration: DURATION_MIN, maximumDuration: DURATION_MAX },
  });
});

campaignRoutes.post(`${ACCOUNT}/quick_promote/`, async (c) => {
  const userId = writer(c);
  const adAccountId = account(c);
  // Who may, before what they sent: a stranger learns nothing from a 400.
  await requireAccount(c.env.DB, userId, adAccountId, "campaign.create");
  const input = await readParsed(c, quickPromoteSchema);
  return success(c, await answerOnce(c, () => quickPromote(c.env.DB, userId, adAccountId, input, claimOf(c))));
});

const pickQuery = z.strictObject({
  source: z.enum(PIN_SOURCES).default("PINS"),
  list_type: z.enum(LIST_TYPES).default("RECENT"),
  board_id: idOption.optional(),
  search_term: z.string().trim().max(100).optional(),
  pin_ids: z
    .string()
    .max(24 * 20)
    .regex(/^[0-9]{1,19}(,[0-9]{1,19}){0,23}$/)
    .transform((text) => text.split(",").map(Number))
    .optional(),
});

campaignRoutes.get(`${ACCOUNT}/quick_promote/pins/`, async (c) => {
  const userId = reader(c);
  const adAccountId = account(c);
  await requireAccount(c.env.DB, userId, adAccountId, "campaign.read");
  const asked = query(c, pickQuery);
  const items = await pickList(c.env.DB, userId, adAccountId, { source: asked.source, listType: asked.list_type, boardId: asked.board_id, searchTerm: asked.search_term, pinIds: asked.pin_ids });
  return success(c, { items, source: asked.source, list_type: asked.list_type });
});

campaignRoutes.post(`${ACCOUNT}/quick_promote/gdpr/`, async (c) => success(c, await acceptGdpr(c.env.DB, writer(c), account(c))));

campaignRoutes.put(`${ACCOUNT}/quick_promote/billing_profile/`, async (c) => {
  const userId = writer(c);
  const adAccountId = account(c);
  await requireAccount(c.env.DB, userId, adAccountId, "ad_account.update");
  return success(c, await saveTestBilling(c.env.DB, userId, adAccountId, await readParsed(c, billingFormSchema)));
});

campaignRoutes.put(`${ACCOUNT}/quick_promote/business_address/`, async (c) => {
  const userId = writer(c);
  const adAccountId = account(c);
  await requireAccount(c.env.DB, userId, adAccountId, "business.update");
  return success(c, await saveBusinessAddress(c.env.DB, userId, adAccountId, await readParsed(c, addressFormSchema)));
});

// ---- The tables ----

campaignRoutes.get(`${ACCOUNT}/campaigns/`, async (c) => {
  const userId = reader(c);
  const adAccountId = account(c);
  await requireAccount(c.env.DB, userId, adAccountId, "campaign.read");
  return success(c, await listCampaigns(c.env.DB, userId, adAccountId, query(c, campaignQuery)));
});
campaignRoutes.get(`${ACCOUNT}/ad_groups/`, async (c) => {
  const userId = reader(c);
  const adAccountId = account(c);
  await requireAccount(c.env.DB, userId, adAccountId, "campaign.read");
  return success(c, await listAdGroups(c.env.DB, userId, adAccountId, query(c, adGroupQuery)));
});
campaignRoutes.get(`${ACCOUNT}/ads/`, async (c) => {
  const userId = reader(c);
  const adAccountId = account(c);
  await requireAccount(c.env.DB, userId, adAccountId, "campaign.read");
  return success(c, await listAds(c.env.DB, userId, adAccountId, query(c, adQuery)));
});

const CAMPAIGN = `${ACCOUNT}/campaigns/:campaignId{[0-9]+}`;

campaignRoutes.get(`${CAMPAIGN}/`, async (c) => success(c, await getCampaign(c.env.DB, reader(c), account(c), campaign(c))));
campaignRoutes.patch(`${CAMPAIGN}/`, async (c) => {
  const userId = writer(c);
  const adAccountId = account(c);
  await requireAccount(c.env.DB, userId, adAccountId, "campaign.update");
  return success(c, await updateCampaign(c.env.DB, userId, adAccountId, campaign(c), await readParsed(c, campaignUpdateSchema)));
});
for (const action of STATUS_ACTIONS) {
  campaignRoutes.post(`${CAMPAIGN}/${action}/`, async (c) => success(c, await changeCampaignStatus(c.env.DB, writer(c), account(c), campaign(c), action)));
}
