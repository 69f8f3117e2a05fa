import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defaultHistoryRange, emptyList, historyQuerySchema, listReducer, tableQuerySchema, type ListState } from "./table-state.ts";

const schema = tableQuerySchema(["name", "created_time"], ["name", "id"], z.strictObject({ currency: z.array(z.string()).optional() }));

describe("a business list's table state", () => {
  it("defaults to page 1, limit 10, ASCENDING, startIndex 1, no search, no filters", () => {
    expect(schema.parse({})).toEqual({ page: 1, limit: 10, sortBy: "name", sortDirection: "ASCENDING", startIndex: 1 });
  });

  it("starts each page after the last one's items", () => {
    expect(schema.parse({ page: "3", limit: "25" })).toMatchObject({ page: 3, limit: 25, startIndex: 51 });
  });

  it("carries a search (by the first field unless named) and parsed filters", () => {
    expect(schema.parse({ search_term: " bloom " })).toMatchObject({ searchBy: "name", searchTerm: "bloom" });
    expect(schema.parse({ search_by: "id", search_term: "12" })).toMatchObject({ searchBy: "id", searchTerm: "12" });
    expect(schema.parse({ filters: '{"currency":["EUR"]}' }).filtersPayload).toEqual({ currency: ["EUR"] });
  });

  it("refuses what no table has", () => {
    for (const bad of [{ page: "0" }, { limit: "101" }, { sort_by: "secret" }, { sort_direction: "UP" }, { filters: "{" }, { filters: '{"owner":1}' }, { extra: "1" }]) {
      expect(schema.safeParse(bad).success).toBe(false);
    }
  });
});

describe("the history's date range", () => {
  const now = Date.parse("2026-03-10T15:00:00Z");

  it("defaults to 7 days ago through 1 day ago, whole UTC days", () => {
    expect(defaultHistoryRange(now)).toEqual({ startDate: "2026-03-03", endDate: "2026-03-09" });
    const query = historyQuerySchema(now).parse({});
    expect([query.from, query.until]).toEqual([Date.parse("2026-03-03T00:00:00Z"), Date.parse("2026-03-10T00:00:00Z")]);
  });

  it("refuses impossible dates, a range that ends before it starts, and one over a year", () => {
    const schemaNow = historyQuerySchema(now);
    expect(schemaNow.safeParse({ start_date: "2026-02-30" }).success).toBe(false);
    expect(schemaNow.safeParse({ start_date: "2026-03-05", end_date: "2026-03-04" }).success).toBe(false);
    expect(schemaNow.safeParse({ start_date: "2025-01-01", end_date: "2026-03-04" }).success).toBe(false);
    expect(schemaNow.parse({ start_date: "2026-03-10", end_date: "2026-03-10" })).toMatchObject({ startDate: "2026-03-10", endDate: "2026-03-10" });
  });
});

describe("a business list's store", () => {
  type Group = { id: string; name: string };
  const loaded: ListState<Group> = { status: "success", items: [{ id: "1", name: "A" }, { id: "2", name: "B" }], error: null, selectedId: null };

  it("cycles loading, then success or error, and keeps the error until cleared", () => {
    const loading = listReducer(emptyList<Group>(), { type: "loading" });
    expect(loading.status).toBe("loading");
    expect(listReducer(loading, { type: "success", items: loaded.items })).toMatchObject({ status: "success", items: loaded.items });
    const failed = listReducer(loading, { type: "error", error: "Sorry! Something went wrong on our end!" });
    expect(failed).toMatchObject({ status: "error", error: "Sorry! Something went wrong on our end!" });
    expect(listReducer(failed, { type: "loading" }).error).toBe("Sorry! Something went wrong on our end!");
    expect(listReducer(failed, { type: "clearError" }).error).toBeNull();
  });

  it("leaves the state unchanged for an answer without string ids or without an array", () => {
    const loading = listReducer(loaded, { type: "loading" });
    expect(listReducer(loading, { type: "success", items: [{ id: 3 }] })).toBe(loading);
    expect(listReducer(loading, { type: "success", items: { id: "3" } })).toBe(loading);
  });

  it("selects a created group, and the first remaining after a delete", () => {
    const created = listReducer(loaded, { type: "created", item: { id: "3", name: "C" } });
    expect(created.selectedId).toBe("3");
    expect(listReducer(created, { type: "deleted", id: "3" }).selectedId).toBe("1");
    expect(listReducer(created, { type: "deleted", id: "1" }).selectedId).toBe("2");
    expect(listReducer({ ...loaded, items: [{ id: "1", name: "A" }] }, { type: "deleted", id: "1" }).selectedId).toBeNull();
    expect(listReducer(loaded, { type: "select", id: "2" }).selectedId).toBe("2");
  });
});
