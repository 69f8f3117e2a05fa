// Search calls: BaseSearchResource,
// SearchTabResource, AdvancedTypeaheadResource, VisualLiveSearchResource,
// VisualSearchFlashlightUnifiedResource and UserRecentSearchesResource. Search itself is in
// src/search/ (engine.server.ts, typeahead.server.ts, filters.server.ts …); these only parse
// options, check sign-in, throttle and record recent searches.
import type { Context } from "hono";
import { z } from "zod";
import { clientIp, throttleSubject } from "~/server/client-ip.ts";
import type { AppEnv } from "~/server/context.ts";
import { RATE_RULES, enforce } from "~/server/rate-limit.server.ts";
import { isOwnSearch } from "~/search/recent.ts";
import { ApiError, ErrorCode } from "~/server/errors.ts";
import { notFound } from "~/domain/errors.ts";
import { pinIdSchema } from "~/pins/pin.ts";
import { viewerIdOf } from "~/users/user.ts";
import { PERSONAL_SCOPES, SCOPES, normalizeQuery, searchOptionsSchema } from "~/search/options.ts";
import { visualAnnotations } from "~/search/annotations.server.ts";
import { search } from "~/search/engine.server.ts";
import { flashlightFilters } from "~/search/filters.server.ts";
import { tabsFor } from "~/search/response.ts";
import { typeahead } from "~/search/typeahead.server.ts";
import { deleteRecentSearch, listRecent, recordRecentSearch } from "~/search/recent.server.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";
import { startEligibleAds } from "~/ads/promoted-feed.server.ts";
import type { SearchPinItem } from "~/search/types.ts";
import { adAudienceOf, feedPageItems } from "./promoted-pins-resource.ts";

const unauthorized = () => new ApiError(401, ErrorCode.Unauthorized, { message: "api.unauthorized" });

/** The throttles' subject: the signed-in person, else the address (an IPv6 address by its /64). */
const throttleKey = (c: Context<AppEnv>, viewerId: number | null): string => (viewerId !== null ? `u:${viewerId}` : `ip:${throttleSubject(clientIp(c.req.raw))}`);

export const baseSearchResource: ResourceDefinition = {
  get: defineHandler({
    options: searchOptionsSchema,
    async handle(c, options) {
      const viewerId = viewerIdOf(c.var.ctx);
      const scope = options.scope ?? "pins";
      const personal = PERSONAL_SCOPES.has(scope);
      if (personal && viewerId === null) throw unauthorized();
      await enforce(c.env.DB, RATE_RULES.searchPerViewer, throttleKey(c, viewerId));
      // A pin search's pages place promoted pins (src/ads/), read beside the search.
      const eligible = scope === "pins" ? startEligibleAds(c.env.DB, c.var.ctx, Date.now(), adAudienceOf(c), "search") : null;
      const response = await search(c.env.DB, options, { id: viewerId });
      // Page 1 of a signed-in search is a recent search: its own batch, nothing else pending.
      // Only the person's own calls count: a cross-site GET must not fill their list.
      if (viewerId !== null && options.bookmark === undefined && isOwnSearch(c.req.raw.headers)) {
        await recordRecentSearch(c.env.DB, viewerId, response.query, personal);
      }
      if (scope !== "pins") return response;
      const organic = response.results.filter((item): item is SearchPinItem => item.type === "pin");
      const results = await feedPageItems(c, eligible, { feed: { kind: "search", query: response.query }, organic, asPin: (pin): SearchPinItem => ({ type: "pin", ...pin }) });
      return { ...response, results };
    },
  }),
};

export const searchTabResource: ResourceDefinition = {
  get: defineHandler({
    options: z.strictObject({
      query: z.string().max(4000).transform(normalizeQuery).pipe(z.string().min(1).max(200)),
      scope: z.enum(SCOPES).optional(),
    }),
    handle(c, options) {
      return Promise.resolve({ tabs: tabsFor(options.scope ?? "pins", { id: viewerIdOf(c.var.ctx) }) });
    },
  }),
};

export const advancedTypeaheadResource: ResourceDefinition = {
  get: defineHandler({
    options: z.strictObject({
      term: z.string().max(100),
      recent_queries_tags: z.boolean().optional(),
    }),
    async handle(c, options) {
      const viewerId = viewerIdOf(c.var.ctx);
      // Typeahead fires per keystroke: its throttle is counted inside its own batch (one round trip).
      return typeahead(c.env.DB, options, { id: viewerId }, { rule: RATE_RULES.typeaheadPerViewer, subject: throttleKey(c, viewerId) });
    },
  }),
};

export const visualLiveSearchResource: ResourceDefinition = {
  get: defineHandler({
    options: z.strictObject({ pin_id: pinIdSchema }),
    async handle(c, options) {
      const answer = await visualAnnotations(c.env.DB, options.pin_id, { id: viewerIdOf(c.var.ctx) });
      if (!answer) throw notFound("api.pinNotFound");
      return answer;
    },
  }),
};

export const visualSearchFlashlightUnifiedResource: ResourceDefinition = {
  get: defineHandler({
    options: z.strictObject({
      pin_id: pinIdSchema,
      query: z.string().max(4000).transform(normalizeQuery).pipe(z.string().max(200)).optional(),
    }),
    async handle(c, options) {
      const answer = await flashlightFilters(c.env.DB, options.pin_id, options.query, { id: viewerIdOf(c.var.ctx) });
      if (!answer) throw notFound("api.pinNotFound");
      return answer;
    },
  }),
};

export const userRecentSearchesResource: ResourceDefinition = {
  get: defineHandler({
    options: z.strictObject({ personal: z.boolean().optional() }),
    async handle(c, options) {
      const viewerId = viewerIdOf(c.var.ctx);
      if (viewerId === null) throw unauthorized();
      return { results: await listRecent(c.env.DB, viewerId, options.personal ?? false) };
    },
  }),
  delete: defineHandler({
    options: z.strictObject({ query: z.string().max(4000).transform(normalizeQuery).pipe(z.string().min(1).max(200)).optional() }),
    async handle(c, options) {
      const viewerId = viewerIdOf(c.var.ctx);
      if (viewerId === null) throw unauthorized();
      await deleteRecentSearch(c.env.DB, viewerId, options.query);
      return { results: await listRecent(c.env.DB, viewerId, false) };
    },
  }),
};
