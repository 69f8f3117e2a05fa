import { describe, expect, it } from "vitest";
import { fakeTransport } from "~/api/fake-transport.ts";
import { savingApi } from "./api.client.ts";

const resourceOk = (data: unknown) => ({ status: 200, body: { resource_response: { status: "success", code: 0, message: "ok", data } } });
const optionsOf = (seen: { url: string; body: string | undefined }) =>
  seen.body ? (JSON.parse(seen.body) as { options: unknown }).options : (JSON.parse(new URL(seen.url, "https://x.test").searchParams.get("data")!) as { options: unknown }).options;

describe("the save island's calls", () => {
  it("BoardPickerResource.get with the pin, the filter and the page size", async () => {
    const board = { id: "10002", name: "Weeknight dinners", privacy: "public", url: "/demo/weeknight-dinners/", pin_count: 3 };
    const { transport, seen } = fakeTransport([resourceOk({ recent: [board], boards: [board], sections: { "10002": [{ id: "50003", title: "Pasta", pin_count: 1 }] }, saved: [] })]);
    const data = await savingApi(transport).picker("7", "dinner");
    expect(seen[0]!.url).toMatch(/^\/resource\/BoardPickerResource\/get\/\?data=/);
    expect(optionsOf(seen[0]!)).toEqual({ pin_id: "7", filter: "dinner", page_size: 50 });
    expect(data.recent).toEqual([{ id: "10002", name: "Weeknight dinners", privacy: "public", url: "/demo/weeknight-dinners/" }]);
    expect(data.sections["10002"]).toEqual([{ id: "50003", title: "Pasta" }]);
  });

  it.each<[string, { boardId: string; sectionId: string | null } | null, Record<string, string>]>([
    ["a board", { boardId: "10002", sectionId: null }, { pin_id: "7", board_id: "10002" }],
    ["a section", { boardId: "10002", sectionId: "50003" }, { pin_id: "7", board_id: "10002", section_id: "50003" }],
    ["the profile", null, { pin_id: "7" }],
  ])("RepinResource.create to %s", async (_name, board, options) => {
    const savedInfo = { boardId: board?.boardId ?? null, sectionId: board?.sectionId ?? null, title: "T", type: board ? "board" : "profile", url: "/", localPinId: "7" };
    const { transport, seen } = fakeTransport([resourceOk({ saved_info: savedInfo, board: null, pin_id: "7" })]);
    await expect(savingApi(transport).repin("7", board)).resolves.toMatchObject({ saved_info: savedInfo });
    expect(seen[0]!.url).toBe("/resource/RepinResource/create/");
    expect(optionsOf(seen[0]!)).toEqual(options);
  });

  it("a repin answer without saved_info is an error, not a button reading undefined", async () => {
    const { transport } = fakeTransport([resourceOk({ pin_id: "7" })]);
    await expect(savingApi(transport).repin("7", null)).rejects.toThrow(TypeError);
  });

  it.each<[string | null, Record<string, string>]>([
    ["10002", { pin_id: "7", board_id: "10002" }],
    [null, { pin_id: "7" }],
  ])("RepinResource.delete from board %s", async (boardId, options) => {
    const { transport, seen } = fakeTransport([resourceOk({ pin_id: "7", board_id: boardId })]);
    await savingApi(transport).unsave("7", boardId);
    expect(seen[0]!.url).toBe("/resource/RepinResource/delete/");
    expect(optionsOf(seen[0]!)).toEqual(options);
  });

  it("BoardResource.create sends the trimmed name and privacy", async () => {
    const { transport, seen } = fakeTransport([resourceOk({ id: "20001", name: "Places", privacy: "secret", url: "/demo/places/" })]);
    await expect(savingApi(transport).createBoard("  Places ", "secret")).resolves.toEqual({ id: "20001", name: "Places", privacy: "secret", url: "/demo/places/" });
    expect(optionsOf(seen[0]!)).toEqual({ name: "Places", privacy: "secret" });
  });
});
