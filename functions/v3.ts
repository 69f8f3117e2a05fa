// The spec's /v3/... calls keep their paths and methods and answer {status, code, message,
// data}. Features mount their routers here; an unknown path is a 404 in the same shape.
import { Hono } from "hono";
import type { AppEnv } from "~/server/context.ts";
import { notFound } from "~/domain/errors.ts";
import { accountRoutes } from "./accounts.ts";
import { accountDataRoutes } from "./account-data.ts";
import { boardRoutes } from "./boards.ts";
import { businessRoutes } from "./business.ts";
import { businessAssetRoutes } from "./business-assets.ts";
import { bulkRoutes } from "./business-bulk.ts";
import { conversionsHubRoutes } from "./conversions-api.ts";
import { businessPeopleRoutes } from "./business-people.ts";
import { businessBillingRoutes } from "./business-billing.ts";
import { merchantRoutes } from "./merchants.ts";
import { commentRoutes } from "./comments.ts";
import { consentRoutes } from "./consent.ts";
import { mediaUploadRoutes } from "./media-uploads.ts";
import { onboardingRoutes } from "./onboarding.ts";
import { newsRoutes } from "./news.ts";
import { messagingRoutes } from "./messaging.ts";
import { passcodeRoutes } from "./passcode.ts";
import { storyRoutes } from "./stories.ts";
import { campaignRoutes } from "./campaigns.ts";
import { adResultsRoutes } from "./ad-results.ts";
import { experienceRoutes } from "./experiences.ts";
import { conversionTagApiRoutes } from "./conversion-tag.ts";
import { leadFormRoutes } from "./lead-forms.ts";

export const v3Routes = new Hono<AppEnv>();

v3Routes.route("/", accountRoutes);
v3Routes.route("/", passcodeRoutes);
v3Routes.route("/", boardRoutes);
v3Routes.route("/", commentRoutes);
v3Routes.route("/", mediaUploadRoutes);
v3Routes.route("/", storyRoutes);
v3Routes.route("/", consentRoutes);
v3Routes.route("/", accountDataRoutes);
v3Routes.route("/", onboardingRoutes);
v3Routes.route("/", newsRoutes);
v3Routes.route("/", messagingRoutes);
v3Routes.route("/", businessRoutes);
v3Routes.route("/", businessAssetRoutes);
v3Routes.route("/", bulkRoutes);
v3Routes.route("/", campaignRoutes);
v3Routes.route("/", businessPeopleRoutes);
v3Routes.route("/", adResultsRoutes);
v3Routes.route("/", businessBillingRoutes);
v3Routes.route("/", merchantRoutes);
v3Routes.route("/", experienceRoutes);
v3Routes.route("/", conversionTagApiRoutes);
v3Routes.route("/", conversionsHubRoutes);
v3Routes.route("/", leadFormRoutes);

v3Routes.all("*", () => {
  throw notFound();
});
