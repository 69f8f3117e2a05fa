import { describe, expect, it } from "vitest";
import { fakeTransport, ok, fail } from "~/api/fake-transport.ts";
import type { Experience } from "./experiences.ts";
import { createExperienceStore, resourceApi } from "./store.ts";

const upsell: Experience = {
  experience_id: 500501,
  placement_id: 1000071,
  placed_experience_id: "1000071:500501",
  type: 2,
  status: null,
  display_data: { anchor: "home_top" },
  metadata: {},
  triggerable_placed_exps: ["1000072:500502"],
};
const footer: Experience = { ...upsell, experience_id: 500417, placement_id: 1000069, placed_experience_id: "1000069:500417", type: 0, display_data: { anchor: "footer", hide_footer: true }, triggerable_placed_exps: [] };
const resourceOk = (data: unknown) => ({ status: 200, body: { resource_response: { status: "success", code: 0, message: "ok", data } } });
const optionsOf = (url: string) => JSON.parse(new URL(url, "https://pinloom.test").searchParams.get("data")!) as { options: Record<string, unknown> };

describe("the experiences store", () => {
  it("fetches the placements asked for in one call, once each, leaving empty ones empty", async () => {
    const { transport, seen } = fakeTransport([resourceOk({ "1000071": upsell })]);
    const store = createExperienceStore(resourceApi(transport));
    await store.load([1000071, 1000069]);
    await store.load([1000071]);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.url.startsWith("/resource/UserExperienceResource/get/")).toBe(true);
    expect(optionsOf(seen[0]!.url)).toEqual({ options: { placement_ids: [1000071, 1000069] } });
    expect(store.experienceIn(1000071)).toEqual(upsell);
    expect(store.experienceIn(1000069)).toBeUndefined();
  });

  it("takes GET /_/_/state's experiences instead of a call", async () => {
    const { transport, seen } = fakeTransport([]);
    const store = createExperienceStore(resourceApi(transport));
    store.seed({ "1000069": [footer] }, [1000069, 1000071]);
    await store.load([1000069, 1000071]);
    expect(seen).toHaveLength(0);
    expect(store.experienceIn(1000069)).toEqual(footer);
    expect(store.experienceIn(1000071)).toBeUndefined();
  });

  it("marks viewed: the status changes and the experience stays", async () => {
    const { transport, seen } = fakeTransport([resourceOk({ "1000071": upsell }), ok({ placed_experience_id: "1000071:500501", status: "viewed" })]);
    const store = createExperienceStore(resourceApi(transport));
    await store.load([1000071]);
    await store.markViewed("1000071:500501");
    expect(seen[1]!.url).toBe("/resource/UserExperienceViewedResource/update/");
    expect(JSON.parse(seen[1]!.body!)).toEqual({ options: { placed_experience_id: "1000071%3A500501" } });
    expect(store.experienceIn(1000071)).toEqual({ ...upsell, status: "viewed" });
  });

  it("completes or dismisses: recorded, then gone from the store", async () => {
    const { transport, seen } = fakeTransport([
      resourceOk({ "1000071": upsell, "1000069": footer }),
      ok({ status: "completed" }),
      ok({ status: "dismissed" }),
    ]);
    const store = createExperienceStore(resourceApi(transport));
    await store.load([1000071, 1000069]);
    await store.complete("1000071:500501", { completed_without_homefeed: true });
    expect(seen[1]!.url).toBe("/resource/UserExperienceCompletedResource/update/");
    expect(JSON.parse(seen[1]!.body!)).toEqual({ options: { placed_experience_id: "1000071%3A500501", extra_context: { completed_without_homefeed: true } } });
    expect(store.experienceIn(1000071)).toBeUndefined();
    expect(store.experienceIn(1000069)).toEqual(footer);
    await store.dismiss("1000069:500417");
    expect(seen[2]!.url).toBe("/resource/UserExperienceResource/delete/");
    expect(store.experienceIn(1000069)).toBeUndefined();
  });

  it("keeps the experience when the write fails, so the person can try again", async () => {
    const { transport } = fakeTransport([resourceOk({ "1000071": upsell }), fail(400, 1)]);
    const store = createExperienceStore(resourceApi(transport));
    await store.load([1000071]);
    await expect(store.dismiss("1000071:500501")).rejects.toThrow();
    expect(store.experienceIn(1000071)).toEqual(upsell);
  });

  it("asks again for a placement whose fetch failed", async () => {
    const { transport, seen } = fakeTransport([{ throws: new TypeError("offline") }, resourceOk({ "1000071": upsell })]);
    const store = createExperienceStore(resourceApi(transport));
    await expect(store.load([1000071])).rejects.toThrow();
    await store.load([1000071]);
    expect(seen).toHaveLength(2);
    expect(store.experienceIn(1000071)).toEqual(upsell);
  });
});
