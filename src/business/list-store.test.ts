import { beforeEach, describe, expect, it } from "vitest";
import { hubLists, listAction, listFailed, listLoaded, loadList, startList, wellShaped } from "./list-store.ts";

const TAGS = { arrays: ["adAccounts", "tags"] };
const tag = (id: string) => ({ id, name: `Tag ${id}`, adAccounts: [], tags: [] });

beforeEach(() => hubLists.set({}));

describe("the hub's list store", () => {
  it("cycles loading (remembering the parameters), then success", () => {
    startList("tags", { page: "2" });
    expect(hubLists.get()["tags"]).toEqual({ status: "loading", items: [], error: null, selectedId: null, params: { page: "2" } });
    listLoaded("tags", [tag("1")], TAGS);
    expect(hubLists.get()["tags"]).toEqual({ status: "success", items: [tag("1")], error: null, selectedId: null, params: { page: "2" } });
  });

  it("keeps each list's error until its clear-error action, and only in that list", () => {
    startList("tags", {});
    startList("audiences", {});
    listFailed("tags", "Sorry! Something went wrong on our end!", TAGS);
    expect(hubLists.get()["tags"]).toMatchObject({ status: "error", error: "Sorry! Something went wrong on our end!" });
    expect(hubLists.get()["audiences"]!.error).toBeNull();
    startList("tags", {});
    listLoaded("tags", [tag("2")], TAGS);
    expect(hubLists.get()["tags"]!.error).toBe("Sorry! Something went wrong on our end!");
    listAction("tags", { type: "clearError" });
    expect(hubLists.get()["tags"]!.error).toBeNull();
  });

  it("keeps the items on a list's failure, and empties them where the list says so", () => {
    listLoaded("tags", [tag("1")], TAGS);
    listFailed("tags", "failed", TAGS);
    expect(hubLists.get()["tags"]!.items).toEqual([tag("1")]);
    listLoaded("recommendations", [{ id: "9_ADD_BILLING" }], { arrays: [] });
    listFailed("recommendations", "failed", { arrays: [], emptyOnError: true });
    expect(hubLists.get()["recommendations"]).toMatchObject({ status: "error", items: [], error: "failed" });
  });

  it("leaves the state unchanged for an answer without a string id or a required array", () => {
    startList("tags", { page: "1" });
    const before = hubLists.get()["tags"];
    for (const bad of [[{ id: 1, adAccounts: [], tags: [] }], [{ id: "1", adAccounts: null, tags: [] }], [{ id: "1", tags: [] }], { id: "1" }, null, [null]]) {
      listLoaded("tags", bad, TAGS);
      expect(hubLists.get()["tags"]).toBe(before);
    }
    expect(wellShaped([tag("1")], TAGS)).toBe(true);
  });

  it("selects a created item, the first remaining after a delete, and a chosen one", () => {
    listLoaded("tags", [tag("1"), tag("2")], TAGS);
    listAction("tags", { type: "created", item: tag("3") });
    expect(hubLists.get()["tags"]!.selectedId).toBe("3");
    listAction("tags", { type: "deleted", id: "3" });
    expect(hubLists.get()["tags"]!.selectedId).toBe("1");
    listAction("tags", { type: "select", id: "2" });
    expect(hubLists.get()["tags"]!.selectedId).toBe("2");
  });

  it("loads through a fetch: the answer's list on success, empty data and the error on a refusal", async () => {
    const asked: string[] = [];
    const answer = (status: number, body: unknown) => async (url: string) => {
      asked.push(url);
      return new Response(JSON.stringify(body), { status });
    };
    const pick = (body: unknown) => (body as { resource_response: { data: unknown } }).resource_response.data;
    const shape = { arrays: [], emptyOnError: true };
    await loadList("recs", "/ads/v4/notification_messages/RECOMMENDATIONS/", { recipient_id: "7", recipient_type: "ADVERTISER" }, shape, "failed", answer(200, { resource_response: { data: [{ id: "7_ADD_BILLING" }] } }), pick);
    expect(asked).toEqual(["/ads/v4/notification_messages/RECOMMENDATIONS/?recipient_id=7&recipient_type=ADVERTISER"]);
    expect(hubLists.get()["recs"]).toMatchObject({ status: "success", items: [{ id: "7_ADD_BILLING" }], params: { recipient_id: "7", recipient_type: "ADVERTISER" } });
    await loadList("recs", "/ads/v4/notification_messages/RECOMMENDATIONS/", { recipient_id: "7", recipient_type: "ADVERTISER" }, shape, "failed", answer(404, { resource_response: { data: [] } }), pick);
    expect(hubLists.get()["recs"]).toMatchObject({ status: "error", items: [], error: "failed" });
  });
});
