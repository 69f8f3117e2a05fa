import { beforeEach, describe, expect, it } from "vitest";
import { eligibleAds, forgetInventory } from "./delivery.server.ts";

const NOON = Date.UTC(2026, 10, 27, 12, 0, 0);

/** One inventory row as the query answers it: ad 720 of campaign 700, its pin 150 by pinner 4, the advertiser's profile 4. */
const ROW = {
  ad_id: 720,
  campaign_id: 700,
  ad_account_id: 600,
  advertiser_profile_id: 4,
  pinner_id: 4,
  destination_url: "https://brand.example/armchair",
  goal: "CONSIDERATION",
  daily_budget_micro: 50_000_000,
  spent_micro: 0,
  targeting: '{"auto":true}',
  advertiser_name: "Brand Co",
  pin_title: "Green armchair",
  pin_description: "A green armchair",
  pin_category: null,
  pin_interests: "[]",
  keywords: "[]",
  id: 150,
  kind: "image",
  title: "Green armchair",
  grid_title: null,
  alt_text: null,
  auto_alt_text: null,
  dominant_color: "#123456",
  url: "/media/pins/150/236x.jpg",
  width: 236,
  height: 300,
  url_2x: null,
};

/** A D1 stand-in that answers the inventory with `rows` and the viewer's facts with `blocked`, counting each kind of read. */
function fakeDb(rows: unknown[], blocked: number[] = []) {
  const reads = { inventory: 0, viewer: 0 };
  const db = {
    prepare(sql: string) {
      const viewer = sql.includes("FROM blocks");
      return {
        bind: () => ({
          all: () => {
            reads.inventory++;
            return Promise.resolve({ results: rows });
          },
          first: () => {
            reads.viewer++;
            return Promise.resolve(viewer ? { blocked: JSON.stringify(blocked), interests: '[[11,"home_decor","Home decor"]]' } : null);
          },
        }),
      };
    },
  };
  return { db: db as unknown as D1Database, reads };
}

beforeEach(() => forgetInventory());

describe("the eligible ads of a feed request", () => {
  it("reads the inventory once while this isolate holds it, again once it is older than its lifetime or of another day", async () => {
    const { db, reads } = fakeDb([ROW]);
    await eligibleAds(db, null, NOON, 10_000);
    await eligibleAds(db, null, NOON + 9_999, 10_000);
    expect(reads.inventory).toBe(1);
    await eligibleAds(db, null, NOON + 10_000, 10_000);
    expect(reads.inventory).toBe(2);
    await eligibleAds(db, null, Date.UTC(2026, 10, 28, 0, 0, 1), 10_000);
    expect(reads.inventory).toBe(3);
  });

  it("reads it on every request with a lifetime of 0", async () => {
    const { db, reads } = fakeDb([ROW]);
    await eligibleAds(db, null, NOON, 0);
    await eligibleAds(db, null, NOON, 0);
    expect(reads.inventory).toBe(2);
  });

  it("reads nothing of a signed-out visitor, nor of anyone when nothing runs", async () => {
    const visitor = fakeDb([ROW]);
    expect((await eligibleAds(visitor.db, null, NOON)).ads.map((ad) => ad.candidate.adId)).toEqual([720]);
    expect(visitor.reads.viewer).toBe(0);
    forgetInventory();
    const empty = fakeDb([]);
    expect(await eligibleAds(empty.db, { id: 2, wantsInterests: true }, NOON)).toEqual({ ads: [], followedInterests: [] });
    expect(empty.reads.viewer).toBe(0);
  });

  it("reads a signed-in person's blocks and follows per request, dropping an ad whose advertiser they block", async () => {
    const { db, reads } = fakeDb([ROW]);
    const seen = await eligibleAds(db, { id: 2, wantsInterests: true }, NOON);
    expect(seen.ads.map((ad) => ad.candidate.adId)).toEqual([720]);
    expect(seen.followedInterests).toEqual([{ id: 11, key: "home_decor", name: "Home decor" }]);
    const blocker = fakeDb([ROW], [4]);
    forgetInventory();
    expect((await eligibleAds(blocker.db, { id: 3, wantsInterests: false }, NOON)).ads).toEqual([]);
    expect(reads.viewer + blocker.reads.viewer).toBe(2);
  });
});
