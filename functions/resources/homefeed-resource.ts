// HomefeedResource get: one page of the home feed, paged by bookmark (spec 000 §4). Signed out
// (and limited login): the shared feed, the same pins and order as the server-rendered home
// page, its bookmark the opaque keyset cursor. Signed in: the person's blend
// (src/home/), its bookmark the blend's, optionally one of their boards' "more ideas" tab.
// END_MARKER when there is nothing more. Every page places promoted pins by the rule the
// server-rendered first page follows (src/ads/), its cells marked `isPromoted`; `shown_ad_ids`
// (the ads the feed already shows) keeps a later page from repeating one.
import { z } from "zod";
import { END_MARKER } from "~/feeds/feed.ts";
import { decodeTimeCursor } from "~/feeds/cursor.ts";
import { HOME_FEED_PAGE_SIZE, listHomePinsPage, type GridPin } from "~/pins/pins.server.ts";
import { badRequest } from "~/domain/errors.ts";
import { decodeBlendBookmark, encodeBlendBookmark } from "~/home/blend.ts";
import { personalHomePage } from "~/home/home-feed.server.ts";
import { idOption } from "~/boards/options.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";
import { homeAdsBeside, startEligibleAds } from "~/ads/promoted-feed.server.ts";
import type { EligibleAds } from "~/ads/delivery.server.ts";
import { adAudienceOf, feedPageItems, shownAdIdsOption } from "./promoted-pins-resource.ts";

export const homefeedResource: ResourceDefinition = {
  get: defineHandler({
    options: z.strictObject({
      bookmark: z.string().max(400).optional(),
      page_size: z.number().int().min(1).max(50).optional(),
      /** A home tab (spec 001 §2): the board, and its index in the tab list. */
      tab_board_id: idOption.optional(),
      tab_index: z.number().int().min(1).max(50).optional(),
      shown_ad_ids: shownAdIdsOption.optional(),
    }),
    async handle(c, options) {
      const ctx = c.var.ctx;
      const size = options.page_size ?? HOME_FEED_PAGE_SIZE;
      const now = Date.now();
      // A board's tab is that board's ideas: no promoted pins there, as on its first page.
      const placing = options.tab_board_id === undefined;
      const items = (eligible: Promise<EligibleAds> | null, pins: GridPin[]) => feedPageItems(c, eligible, { feed: { kind: "home" }, organic: pins, shownAdIds: options.shown_ad_ids, asPin: (pin) => pin });
      if (ctx.viewerType !== "AUTH" || !ctx.session) {
        const eligible = placing ? startEligibleAds(c.env.DB, ctx, now, adAudienceOf(c), "home") : null;
        if (options.tab_board_id !== undefined) throw badRequest([{ field: "options.tab_board_id", reason: "onboarding:validation.tabsSignedIn" }]);
        const cursor = options.bookmark === undefined ? null : decodeTimeCursor(options.bookmark);
        if (options.bookmark !== undefined && cursor === null) throw badRequest([{ field: "options.bookmark", reason: "validation.invalidFormat" }]);
        const page = await listHomePinsPage(c.env.DB, cursor, size);
        return { results: await items(eligible, page.pins), bookmark: page.nextCursor ?? END_MARKER };
      }
      const bookmark = options.bookmark === undefined ? null : decodeBlendBookmark(options.bookmark);
      if (options.bookmark !== undefined && bookmark === null) throw badRequest([{ field: "options.bookmark", reason: "validation.invalidFormat" }]);
      // The viewer's part of the ads rides in the feed's own batch.
      const ads = placing ? await homeAdsBeside(c.env.DB, ctx, now, adAudienceOf(c)) : null;
      const page = await personalHomePage(c.env.DB, { viewerId: ctx.session.user.id, now, size, bookmark, tabBoardId: options.tab_board_id ?? null, clearFirstAfterNux: false, beside: ads?.statement ?? null });
      if (options.tab_board_id !== undefined && page.tab === null) throw badRequest([{ field: "options.tab_board_id", reason: "onboarding:validation.notYourTab" }]);
      if (options.tab_index !== undefined && page.tab !== null && page.tab.index !== options.tab_index) {
        throw badRequest([{ field: "options.tab_index", reason: "onboarding:validation.tabMoved", values: { index: page.tab.index } }]);
      }
      return { results: await items(ads ? ads.eligible(page.besideRow) : null, page.pins), bookmark: page.next === null ? END_MARKER : encodeBlendBookmark(page.next) };
    },
  }),
};
