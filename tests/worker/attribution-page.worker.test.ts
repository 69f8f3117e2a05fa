// A promoted pin's page marks its link with the advertiser, so the events module pings
// attribution (src/attribution/pings.client.ts); other pins' links carry nothing.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { attributeOf, get, seedWorld } from "./fixtures.ts";

beforeAll(async () => {
  await seedWorld([{ id: 101 }, { id: 102, link: "https://shop.example/sofa" }, { id: 103, link: "https://pinloom.test/ideas/sofas/?a=1" }]);
  await env.DB.prepare("UPDATE pins SET is_promoted = 1, promoter_id = 1 WHERE id IN (102, 103)").run();
});

describe("attribution on pin pages", () => {
  it("names the advertiser on a promoted pin's link", async () => {
    const html = await (await get("/pin/102/")).text();
    expect(await attributeOf(html, "a[data-attribution-advertiser]", "data-attribution-advertiser")).toBe("1");
    expect(await attributeOf(html, "a[data-attribution-advertiser]", "href")).toBe("https://shop.example/sofa");
    expect(await attributeOf(html, "a[data-attribution-advertiser]", "data-attribution-pin")).toBe("102");
  });

  it("keeps a same-host promoted link as it is (no /advertiser/ route exists to rewrite it to)", async () => {
    const html = await (await get("/pin/103/")).text();
    expect(await attributeOf(html, "a[data-attribution-advertiser]", "href")).toBe("https://pinloom.test/ideas/sofas/?a=1");
  });

  it("leaves other pins' links alone", async () => {
    const html = await (await get("/pin/101/")).text();
    expect(await attributeOf(html, "a[data-attribution-advertiser]", "data-attribution-advertiser")).toBeNull();
  });
});
