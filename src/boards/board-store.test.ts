import { describe, expect, it, vi } from "vitest";
import { ApiCallError } from "~/api/api.client.ts";
import { feedKey } from "./feed-lists.ts";
import { createBoardStore, type Notice, type OrganizeApi, type PinItem } from "./board-store.ts";
import type { BoardState } from "./board-state.ts";

const board: BoardState = {
  id: "10002",
  name: "Weeknight dinners",
  description: "",
  privacy: "public",
  pin_count: 4,
  sectionless_pin_count: 1,
  section_count: 3,
  sections: [
    { id: "50003", title: "Pasta", pin_count: 1 },
    { id: "50004", title: "Soups", pin_count: 1 },
    { id: "50005", title: "Sheet pan dinners", pin_count: 1 },
  ],
  cover_pin_id: null,
  archived_by_me_at: null,
  pending_ownership_transfer: null,
};
const pin = (id: string): PinItem => ({ id, type: "pin", title: `Pin ${id}`, imageUrl: null });
const refused = (status: number) => new ApiCallError(status, { status: "failure", code: status === 403 ? 3 : 4, message: "no" });

function setup(overrides: Partial<Record<keyof OrganizeApi, (...args: never[]) => Promise<unknown>>> = {}) {
  const notices: Array<[Notice, number | undefined]> = [];
  const api = Object.fromEntries(Object.entries(overrides).map(([name, run]) => [name, vi.fn(run)])) as unknown as OrganizeApi;
  const store = createBoardStore({ board, pins: ["1", "2", "3", "4"].map(pin), bookmark: null }, { api, notify: (notice, count) => notices.push([notice, count]), now: () => 1_763_800_000_000 });
  const ids = (key = feedKey("boardfeed", "10002")) => store.$lists.get()[key]?.items.map((item) => item.id);
  return { store, api, notices, ids };
}

describe("board store: optimistic, reverted on refusal", () => {
  it("archive applies at once and keeps the server's time", async () => {
    const { store, notices } = setup({ updateBoard: async () => ({ archived_by_me_at: 1_763_800_000_500 }) });
    await store.setArchived(true);
    expect(store.$board.get().archived_by_me_at).toBe(1_763_800_000_500);
    expect(notices).toEqual([["archived", undefined]]);
  });

  it("a refused archive restores the board and toasts forbidden", async () => {
    const { store, notices } = setup({ updateBoard: async () => Promise.reject(refused(403)) });
    expect(await store.setArchived(true)).toBe(false);
    expect(store.$board.get().archived_by_me_at).toBeNull();
    expect(notices).toEqual([["forbidden", undefined]]);
  });

  it("bulk move of two pins: off this board's feed, counts down, one bulkMove call", async () => {
    const { store, api, ids, notices } = setup({ bulk: async () => ({ moved: 2 }) });
    store.toggle("2");
    store.toggle("4");
    await store.sendSelection("move", { boardId: "10003", sectionId: null });
    expect(ids()).toEqual(["1", "3"]);
    expect(ids(feedKey("boardfeed", "10003"))).toEqual(["2", "4"]);
    expect(store.$board.get().pin_count).toBe(2);
    expect(api.bulk).toHaveBeenCalledWith({ board_id: "10002", action: "bulkMove", pin_ids: ["2", "4"], target_board_id: "10003" });
    expect(notices).toEqual([["moved", 2]]);
    expect(store.$selection.get()).toEqual({ all: false, ids: [] });
  });

  it("one pin moves through PinResource.update", async () => {
    const { store, api } = setup({ movePin: async () => ({}) });
    store.toggle("3");
    await store.sendSelection("move", { boardId: "10003", sectionId: "50100" });
    expect(api.movePin).toHaveBeenCalledWith("3", "10002", "10003", "50100");
  });

  it("move-all with exclusions keeps only the excluded pins", async () => {
    const { store, api, ids } = setup({ bulk: async () => ({ moved: 3 }) });
    store.selectAll();
    store.toggle("3");
    await store.sendSelection("move", { boardId: "10003", sectionId: null });
    expect(ids()).toEqual(["3"]);
    expect(api.bulk).toHaveBeenCalledWith({ board_id: "10002", action: "bulkMove", all: true, excluded_pin_ids: ["3"], target_board_id: "10003" });
  });

  it("a refused bulk delete puts every pin and count back", async () => {
    const { store, ids, notices } = setup({ bulk: async () => Promise.reject(refused(404)) });
    store.toggle("1");
    await store.deleteSelection();
    expect(ids()).toEqual(["1", "2", "3", "4"]);
    expect(store.$board.get().pin_count).toBe(4);
    expect(notices).toEqual([["notFound", undefined]]);
    expect(store.$selection.get()).toEqual({ all: false, ids: ["1"] });
  });

  it("copy leaves this board's feed alone", async () => {
    const { store, ids } = setup({ bulk: async () => ({ copied: 1 }) });
    store.toggle("1");
    await store.sendSelection("copy", { boardId: "10003", sectionId: null });
    expect(ids()).toEqual(["1", "2", "3", "4"]);
  });

  it("moving a pin to the top sends after_pin_id null", async () => {
    const { store, api, ids } = setup({ reorderPin: async () => ({}) });
    await store.movePin("3", "top");
    expect(ids()).toEqual(["3", "1", "2", "4"]);
    expect(api.reorderPin).toHaveBeenCalledWith("10002", "3", null);
    expect(store.$dirty.get()).toBe(true);
  });

  it("moving a section down sends the whole new order", async () => {
    const { store, api } = setup({ reorderSections: async () => ({}) });
    await store.moveSection("50003", "down");
    expect(api.reorderSections).toHaveBeenCalledWith("10002", ["50004", "50003", "50005"]);
    expect(store.$board.get().sections.map((section) => section.id)).toEqual(["50004", "50003", "50005"]);
  });

  it("the first section cannot move up (no call)", async () => {
    const { store, api } = setup({ reorderSections: async () => ({}) });
    expect(await store.moveSection("50003", "up")).toBe(false);
    expect(api.reorderSections).not.toHaveBeenCalled();
  });

  it("a new section goes first, with its count", async () => {
    const { store, ids } = setup({ createSection: async () => ({ id: "50100", board_id: "10002", title: "Stews", slug: "stews", pin_count: 0, position: 0 }) });
    await store.createSection(" Stews ");
    expect(ids(feedKey("boardsections", "10002"))).toEqual(["50100", "50003", "50004", "50005"]);
    expect(store.$board.get().section_count).toBe(4);
  });

  it("a refused section delete keeps the section", async () => {
    const { store, ids } = setup({ deleteSection: async () => Promise.reject(new Error("offline")) });
    await store.deleteSection("50004");
    expect(ids(feedKey("boardsections", "10002"))).toEqual(["50003", "50004", "50005"]);
    expect(store.$board.get().section_count).toBe(3);
  });

  it("an ownership transfer request sets the pending collaborator; cancel clears it", async () => {
    const { store } = setup({ requestTransfer: async () => ({}), cancelTransfer: async () => ({}) });
    await store.requestTransfer({ user_id: "7", username: "sam" });
    expect(store.$board.get().pending_ownership_transfer).toEqual({ user_id: "7", username: "sam" });
    await store.cancelTransfer();
    expect(store.$board.get().pending_ownership_transfer).toBeNull();
  });
});
