// The verified merchant program's calls (spec 002 §7 "VerifiedMerchantResource; method and payload
// not shown": the paths are ours, recorded in docs/decisions.md), mounted at /v3 and answering
// {status, code, message, data}. A business's calls follow its role table (a stranger gets 404);
// the reviewers' calls need an admin with the reviewer role (anyone else gets the same 404).
//   GET    /v3/businesses/{id}/verified_merchant/                     the program as a member sees it
//   POST   /v3/businesses/{id}/verified_merchant/                     apply: checks, then review or FAILED
//   POST   /v3/businesses/{id}/verified_merchant/appeal/              {appeal_comment}
//   POST   /v3/businesses/{id}/verified_merchant/withdraw/            leave the program (CANCELLED)
//   PATCH  /v3/businesses/{id}/verified_merchant/policies/            {shipping_policy_url?, return_policy_url?}
//   PUT    /v3/businesses/{id}/verified_merchant/cover/               {cover_pin_id}
//   POST   /v3/businesses/{id}/verified_merchant/banners/             {banner: welcome|celebration} dismissed
//   POST   /v3/businesses/{id}/verified_merchant/items/{pinId}/appeal/  {appeal_comment}
//   GET    /v3/merchant_reviews/                                      the reviewers' queue
//   GET    /v3/merchant_reviews/{businessId}/                         one application with its items
//   POST   /v3/merchant_reviews/{businessId}/decision/                {decision, review_reasons}
//   PUT    /v3/merchant_reviews/{businessId}/items/{pinId}/           {status: approved|declined, reason?}
//   PUT    /v3/storefront/locale/                                     {country, language, feedProfileId}
import { Hono, type Context } from "hono";
import { profilePaths } from "~/boards/write.server.ts";
import { requireAction } from "~/business/core.server.ts";
import { appeal, appealItem, apply, decide, decideItem, dismissBanner, programOf, requireReviewer, reviewOf, reviewQueue, setCover, setPolicies, withdraw } from "~/merchants/merchants.server.ts";
import { appealBody, bannerBody, coverBody, decisionBody, itemAppealBody, itemDecisionBody, policiesBody } from "~/merchants/program.ts";
import { storefrontLocaleBody } from "~/merchants/storefront.ts";
import { setStorefrontLocale } from "~/merchants/storefront.server.ts";
import { purgePages } from "~/server/after-write.ts";
import { success } from "~/server/answer.ts";
import { readParsed } from "~/server/body.ts";
import type { AppEnv } from "~/server/context.ts";
import { businessParam, pathId, reader, writer } from "./business-request.ts";

export const merchantRoutes = new Hono<AppEnv>();

const pin = (c: Context<AppEnv>) => pathId(c.req.param("pinId"), "merchants:errors.noItem");
const PROGRAM = "/businesses/:businessId{[0-9]+}/verified_merchant";

merchantRoutes.get(`${PROGRAM}/`, async (c) => success(c, await programOf(c.env.DB, reader(c), businessParam(c))));
merchantRoutes.post(`${PROGRAM}/`, async (c) => success(c, await apply(c.env.DB, writer(c), businessParam(c))));
merchantRoutes.post(`${PROGRAM}/appeal/`, async (c) => {
  const userId = writer(c);
  const businessId = businessParam(c);
  // Who may, before what they sent: a stranger learns nothing from a 400.
  await requireAction(c.env.DB, businessId, userId, "merchant.manage");
  return success(c, await appeal(c.env.DB, userId, businessId, (await readParsed(c, appealBody)).appeal_comment));
});
merchantRoutes.post(`${PROGRAM}/withdraw/`, async (c) => {
  const answer = await withdraw(c.env.DB, writer(c), businessParam(c));
  // The badge leaves the profile's page: its shared copies are dropped now.
  purgePages(c, profilePaths(answer.profile.username));
  return success(c, answer);
});
merchantRoutes.patch(`${PROGRAM}/policies/`, async (c) => {
  const userId = writer(c);
  const businessId = businessParam(c);
  await requireAction(c.env.DB, businessId, userId, "merchant.manage");
  return success(c, await setPolicies(c.env.DB, userId, businessId, await readParsed(c, policiesBody)));
});
merchantRoutes.put(`${PROGRAM}/cover/`, async (c) => {
  const userId = writer(c);
  const businessId = businessParam(c);
  await requireAction(c.env.DB, businessId, userId, "merchant.manage");
  return success(c, await setCover(c.env.DB, userId, businessId, Number((await readParsed(c, coverBody)).cover_pin_id)));
});
merchantRoutes.post(`${PROGRAM}/banners/`, async (c) => {
  const userId = writer(c);
  const businessId = businessParam(c);
  await requireAction(c.env.DB, businessId, userId, "business.read");
  return success(c, await dismissBanner(c.env.DB, userId, businessId, (await readParsed(c, bannerBody)).banner));
});
merchantRoutes.post(`${PROGRAM}/items/:pinId{[0-9]+}/appeal/`, async (c) => {
  const userId = writer(c);
  const businessId = businessParam(c);
  await requireAction(c.env.DB, businessId, userId, "merchant.manage");
  return success(c, await appealItem(c.env.DB, userId, businessId, pin(c), (await readParsed(c, itemAppealBody)).appeal_comment));
});

// ---- Reviewers ----

merchantRoutes.get("/merchant_reviews/", async (c) => success(c, { items: await reviewQueue(c.env.DB, reader(c)) }));
merchantRoutes.get("/merchant_reviews/:businessId{[0-9]+}/", async (c) => success(c, await reviewOf(c.env.DB, reader(c), businessParam(c))));
merchantRoutes.post("/merchant_reviews/:businessId{[0-9]+}/decision/", async (c) => {
  const reviewerId = writer(c);
  const businessId = businessParam(c);
  await requireReviewer(c.env.DB, reviewerId);
  const input = await readParsed(c, decisionBody);
  const { review, username } = await decide(c.env.DB, reviewerId, businessId, input.decision, input.review_reasons);
  // The badge shows on the profile's page: its shared copies are dropped now.
  purgePages(c, profilePaths(username));
  return success(c, review);
});
merchantRoutes.put("/merchant_reviews/:businessId{[0-9]+}/items/:pinId{[0-9]+}/", async (c) => {
  const reviewerId = writer(c);
  const businessId = businessParam(c);
  const pinId = pin(c);
  await requireReviewer(c.env.DB, reviewerId);
  const input = await readParsed(c, itemDecisionBody);
  return success(c, await decideItem(c.env.DB, reviewerId, businessId, pinId, input.status, input.reason ?? null));
});

// ---- Storefront ----

merchantRoutes.put("/storefront/locale/", async (c) => {
  const userId = writer(c);
  return success(c, await setStorefrontLocale(c.env.DB, userId, await readParsed(c, storefrontLocaleBody)));
});
