import { beforeEach, describe, expect, it, vi } from "vitest";
import { ApiCallError, NetworkError } from "~/api/api.client.ts";
import type { SavingApi } from "./api.client.ts";
import { provisionalSavedInfo, type RepinAnswer, type SaveTarget } from "./saves.ts";
import { $profilePinsStale, $recentBoards, $saves, STALE_KEY, createSaving, pinSave, refusalMessage, seedSaved, type ToastRequest } from "./store.ts";
import type { SaveStrings } from "./strings.ts";

const strings = {
  savedTo: "Saved to {{board}}",
  savedToSection: "Saved to {{section}} in {{board}}",
  savedToProfile: "Saved to your profile",
  removedFrom: "Removed from {{board}}",
  undo: "Undo",
  failed: "Something went wrong",
  offline: "You're offline",
} as SaveStrings;

const dinners = { id: "10002", name: "Weeknight dinners", privacy: "public" as const, url: "/demo/weeknight-dinners/" };
const target: SaveTarget = { kind: "board", board: dinners, section: null };
const answerFor = (pinId: string, to: SaveTarget): RepinAnswer => ({ pin_id: pinId, saved_info: provisionalSavedInfo(pinId, to), board: to.kind === "board" ? { id: to.board.id, name: to.board.name, privacy: to.board.privacy } : null });

function memoryStorage() {
  const values = new Map<string, string>();
  return { getItem: (k: string) => values.get(k) ?? null, setItem: (k: string, v: string) => void values.set(k, v), removeItem: (k: string) => void values.delete(k), values };
}

function setup(overrides: Partial<SavingApi> = {}) {
  const api: SavingApi = {
    picker: vi.fn(),
    repin: vi.fn(async (pinId: string) => answerFor(pinId, target)),
    unsave: vi.fn(async () => ({})),
    createBoard: vi.fn(async (name: string) => ({ id: "20001", name, privacy: "public" as const, url: "/demo/new/" })),
    ...overrides,
  };
  const toasts: ToastRequest[] = [];
  const storage = memoryStorage();
  const saving = createSaving({ api, notify: (toast) => toasts.push(toast), storage });
  return { api, toasts, storage, saving };
}

beforeEach(() => {
  $saves.set({});
  $recentBoards.set([]);
  $profilePinsStale.set(false);
});

describe("saving, optimistic", () => {
  it("shows the pin saved before the server answers, then toasts 'Saved to {board}' with Undo", async () => {
    let release!: (answer: RepinAnswer) => void;
    const { saving, toasts, api } = setup({ repin: vi.fn(() => new Promise<RepinAnswer>((resolve) => (release = resolve))) });
    const done = saving.save("7", target, strings);
    expect(pinSave("7").savedInfo?.title).toBe("Weeknight dinners");
    expect(pinSave("7").pending).toBe("save");
    expect(toasts).toEqual([]);
    release(answerFor("7", target));
    await expect(done).resolves.toBe(true);
    expect(api.repin).toHaveBeenCalledWith("7", { boardId: "10002", sectionId: null });
    expect(toasts).toHaveLength(1);
    expect(toasts[0]).toMatchObject({ id: "save-7", message: "Saved to Weeknight dinners", action: { label: "Undo" } });
    expect(pinSave("7").undoAction).toEqual({ pinId: "7", boardId: "10002" });
  });

  it("a section save names the section and board; a profile quick-save sends no board", async () => {
    const { saving, toasts, api } = setup();
    await saving.save("7", { kind: "board", board: dinners, section: { id: "50003", title: "Pasta" } }, strings);
    expect(api.repin).toHaveBeenLastCalledWith("7", { boardId: "10002", sectionId: "50003" });
    expect(toasts.at(-1)?.message).toBe("Saved to Pasta in Weeknight dinners");
    await saving.save("8", { kind: "profile", title: "Your profile", url: "/demo/" }, strings);
    expect(api.repin).toHaveBeenLastCalledWith("8", null);
    expect(toasts.at(-1)?.message).toBe("Saved to your profile");
  });

  it("on refusal reverts and shows an error toast with the server's message", async () => {
    const refusal = new ApiCallError(403, { status: "failure", code: 3, message: "You can't save to this board." });
    const { saving, toasts } = setup({ repin: vi.fn(async () => Promise.reject(refusal)) });
    await expect(saving.save("7", target, strings)).resolves.toBe(false);
    expect(pinSave("7").savedInfo).toBeNull();
    expect(pinSave("7").pending).toBeNull();
    expect(toasts).toEqual([expect.objectContaining({ id: "save-7", message: "You can't save to this board.", tone: "error" })]);
    expect($recentBoards.get()).toEqual([]);
    expect($profilePinsStale.get()).toBe(false);
  });

  it("a second save while one is in flight is ignored (no double call)", async () => {
    const { saving, api } = setup({ repin: vi.fn(() => new Promise<RepinAnswer>(() => {})) });
    void saving.save("7", target, strings);
    await expect(saving.save("7", target, strings)).resolves.toBe(false);
    expect(api.repin).toHaveBeenCalledOnce();
  });

  it("a kept save puts the board first in recent boards and marks profile pins stale (in this tab's storage)", async () => {
    const { saving, storage } = setup();
    $recentBoards.set([{ id: "1", name: "A", privacy: "public", url: "/a/" }, dinners]);
    await saving.save("7", target, strings);
    expect($recentBoards.get().map((b) => b.id)).toEqual(["10002", "1"]);
    expect($profilePinsStale.get()).toBe(true);
    expect(storage.values.get(STALE_KEY)).toBe("1");
    saving.markStale("refresh");
    expect($profilePinsStale.get()).toBe(false);
    expect(storage.values.has(STALE_KEY)).toBe(false);
  });
});

describe("undo and unsave (RepinResource.delete)", () => {
  it("Undo unsaves exactly the save the toast named, once", async () => {
    const { saving, toasts, api } = setup();
    await saving.save("7", target, strings);
    toasts[0]!.action!.run();
    await vi.waitFor(() => expect(pinSave("7").pending).toBeNull());
    expect(api.unsave).toHaveBeenCalledWith("7", "10002");
    expect(pinSave("7").savedInfo).toBeNull();
    expect(toasts.at(-1)?.message).toBe("Removed from Weeknight dinners");
    await expect(saving.undo("7", strings)).resolves.toBe(false);
    expect(api.unsave).toHaveBeenCalledOnce();
  });

  it("a refused unsave shows the pin saved again, with the error", async () => {
    const { saving, toasts } = setup({ unsave: vi.fn(async () => Promise.reject(new NetworkError(new TypeError("offline")))) });
    await saving.save("7", target, strings);
    await expect(saving.unsave("7", "10002", "Weeknight dinners", strings)).resolves.toBe(false);
    expect(pinSave("7").savedInfo?.boardId).toBe("10002");
    expect(toasts.at(-1)).toMatchObject({ message: "You're offline", tone: "error" });
  });
});

describe("create board inline", () => {
  it("creates the board, then saves to it in one go; both mark profile pins stale", async () => {
    const { saving, api, toasts } = setup({ repin: vi.fn(async (pinId: string) => answerFor(pinId, { kind: "board", board: { id: "20001", name: "Places to go", privacy: "secret", url: "/demo/new/" }, section: null })) });
    const { board, saved } = await saving.createBoardAndSave("7", "Places to go", "secret", strings);
    expect(pinSave("7").savedInfo?.title).toBe("Places to go");
    await expect(saved).resolves.toBe(true);
    expect(api.createBoard).toHaveBeenCalledWith("Places to go", "secret");
    expect(api.repin).toHaveBeenCalledWith("7", { boardId: board.id, sectionId: null });
    expect(toasts.at(-1)?.message).toBe("Saved to Places to go");
    expect($profilePinsStale.get()).toBe(true);
  });

  it("a refused board (e.g. 51 characters) throws and saves nothing", async () => {
    const refusal = new ApiCallError(400, { status: "failure", code: 1, message: "Invalid parameters", message_detail: "name: too long" });
    const { saving, api } = setup({ createBoard: vi.fn(async () => Promise.reject(refusal)) });
    await expect(saving.createBoardAndSave("7", "x".repeat(51), "public", strings)).rejects.toBe(refusal);
    expect(api.repin).not.toHaveBeenCalled();
    expect(pinSave("7").savedInfo).toBeNull();
  });
});

describe("refusal messages and seeding", () => {
  it.each<[string, unknown, string]>([
    ["the server's message", new ApiCallError(404, { status: "failure", code: 4, message: "Board not found" }), "Board not found"],
    ["message and field detail", new ApiCallError(400, { status: "failure", code: 1, message: "Invalid", message_detail: "board_id: required" }), "Invalid board_id: required"],
    ["an answer that was not ours", new ApiCallError(502, null), "Something went wrong"],
    ["offline", new NetworkError(null), "You're offline"],
    ["anything else", new Error("boom"), "Something went wrong"],
  ])("%s", (_name, error, message) => {
    expect(refusalMessage(error, strings)).toBe(message);
  });

  it("seeding from the server's saved list does not override a save in flight", () => {
    seedSaved("7", { boardId: "4", sectionId: null, title: "Holiday gift list", type: "board", url: "/demo/4/", localPinId: "7" });
    expect(pinSave("7").savedInfo?.title).toBe("Holiday gift list");
    $saves.setKey("8", { ...pinSave("8"), pending: "save" });
    seedSaved("8", { boardId: "4", sectionId: null, title: "Holiday gift list", type: "board", url: "/demo/4/", localPinId: "8" });
    expect(pinSave("8").savedInfo).toBeNull();
  });
});

describe("picker answers", () => {
  const answer = {
    recent: [dinners],
    boards: [dinners],
    sections: {},
    saved: [{ boardId: "10002", sectionId: null, title: "Weeknight dinners", type: "board" as const, url: "/demo/weeknight-dinners/", localPinId: "7" }],
  };

  it("are reused for a minute, then asked again; a save drops them", async () => {
    const picker = vi.fn(async () => answer);
    const { saving } = setup({ picker });
    await saving.loadPicker("7", "", 0);
    await saving.loadPicker("7", "", 59_999);
    expect(picker).toHaveBeenCalledTimes(1);
    await saving.loadPicker("7", "", 60_000);
    expect(picker).toHaveBeenCalledTimes(2);
    await saving.save("7", target, strings);
    await saving.loadPicker("7", "", 60_001);
    expect(picker).toHaveBeenCalledTimes(3);
  });

  it("seed the recent boards and what the pin is already saved to", async () => {
    const { saving } = setup({ picker: vi.fn(async () => answer) });
    await saving.loadPicker("7");
    await Promise.resolve();
    expect($recentBoards.get()).toEqual([dinners]);
    expect(pinSave("7").savedInfo?.boardId).toBe("10002");
  });

  it("a failed answer is not kept", async () => {
    const picker = vi.fn().mockRejectedValueOnce(new NetworkError(null)).mockResolvedValueOnce(answer);
    const { saving } = setup({ picker });
    await expect(saving.loadPicker("7", "", 0)).rejects.toBeInstanceOf(NetworkError);
    await expect(saving.loadPicker("7", "", 1)).resolves.toBe(answer);
  });
});
