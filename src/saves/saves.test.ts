import { describe, expect, it } from "vitest";
import { UNSAVED, nextPinSave, provisionalSavedInfo, type PinSave, type RepinAnswer, type SaveEvent, type SaveTarget } from "./saves.ts";

const dinners = { id: "10002", name: "Weeknight dinners", privacy: "public" as const, url: "/demo/weeknight-dinners/" };
const party = { id: "10001", name: "Surprise party for Maya", privacy: "secret" as const, url: "/demo/surprise-party-for-maya/" };
const toBoard: SaveTarget = { kind: "board", board: dinners, section: null };
const toSection: SaveTarget = { kind: "board", board: dinners, section: { id: "50003", title: "Pasta" } };
const toProfile: SaveTarget = { kind: "profile", title: "Your profile", url: "/demo/_saved/" };

const answer = (target: SaveTarget, pinId = "7"): RepinAnswer => ({
  pin_id: pinId,
  saved_info: provisionalSavedInfo(pinId, target),
  board: target.kind === "board" ? { id: target.board.id, name: target.board.name, privacy: target.board.privacy } : null,
});

const run = (events: SaveEvent[], from: PinSave = UNSAVED) => events.reduce(nextPinSave, from);

describe("savedInfo (spec 001 §3, §4 saving and repinning)", () => {
  it.each<[string, SaveTarget, { boardId: string | null; sectionId: string | null; type: "board" | "profile"; title: string }]>([
    ["a board", toBoard, { boardId: "10002", sectionId: null, type: "board", title: "Weeknight dinners" }],
    ["a section", toSection, { boardId: "10002", sectionId: "50003", type: "board", title: "Weeknight dinners" }],
    ["the profile (quick-save)", toProfile, { boardId: null, sectionId: null, type: "profile", title: "Your profile" }],
  ])("saving to %s shows savedInfo at once, before the server answers", (_name, target, expected) => {
    const state = run([{ type: "save", pinId: "7", target }]);
    expect(state.savedInfo).toMatchObject({ ...expected, localPinId: "7" });
    expect(state.pending).toBe("save");
    expect(state.undoAction).toBeNull();
  });

  it("a repin records the target board's name and privacy on the pin", () => {
    const state = run([{ type: "save", pinId: "7", target: { kind: "board", board: party, section: null } }]);
    expect(state.board).toEqual({ id: "10001", name: "Surprise party for Maya", privacy: "secret" });
  });

  it("the server's savedInfo replaces the provisional one and offers Undo of exactly that save", () => {
    const server = { ...answer(toSection), saved_info: { ...answer(toSection).saved_info, url: "/demo/weeknight-dinners/pasta/" } };
    const state = run([{ type: "save", pinId: "7", target: toSection }, { type: "saved", answer: server, undoText: "Saved to Pasta in Weeknight dinners" }]);
    expect(state.savedInfo?.url).toBe("/demo/weeknight-dinners/pasta/");
    expect(state.undoAction).toEqual({ pinId: "7", boardId: "10002" });
    expect(state.undoText).toBe("Saved to Pasta in Weeknight dinners");
    expect(state.pending).toBeNull();
    expect(state.before).toBeNull();
  });

  it("undo of a profile quick-save names no board", () => {
    const state = run([{ type: "save", pinId: "7", target: toProfile }, { type: "saved", answer: answer(toProfile), undoText: "Saved to your profile" }]);
    expect(state.undoAction).toEqual({ pinId: "7", boardId: null });
  });

  it("a refused save goes back to exactly what was shown before", () => {
    const savedBefore = run([{ type: "save", pinId: "7", target: toProfile }, { type: "saved", answer: answer(toProfile), undoText: "x" }]);
    const after = run([{ type: "save", pinId: "7", target: toBoard }, { type: "failed" }], savedBefore);
    expect(after).toEqual(savedBefore);
    expect(run([{ type: "save", pinId: "7", target: toBoard }, { type: "failed" }])).toEqual(UNSAVED);
  });

  it("unsaving removes savedInfo and the repin record; a refusal puts them back", () => {
    const saved = run([{ type: "save", pinId: "7", target: toBoard }, { type: "saved", answer: answer(toBoard), undoText: "x" }]);
    const removing = nextPinSave(saved, { type: "unsave", boardId: "10002" });
    expect(removing.savedInfo).toBeNull();
    expect(removing.board).toBeNull();
    expect(removing.undoAction).toBeNull();
    expect(nextPinSave(removing, { type: "unsaved" })).toMatchObject({ savedInfo: null, pending: null, before: null });
    expect(nextPinSave(removing, { type: "failed" })).toEqual(saved);
  });

  it.each<[string, string | null, boolean]>([
    ["the board it shows", "10002", true],
    ["another board", "10003", false],
    ["the profile", null, false],
  ])("unsaving from %s clears what is shown: %s", (_name, boardId, clears) => {
    const saved = run([{ type: "save", pinId: "7", target: toBoard }, { type: "saved", answer: answer(toBoard), undoText: "x" }]);
    expect(nextPinSave(saved, { type: "unsave", boardId }).savedInfo === null).toBe(clears);
  });

  it.each<[string, SaveEvent]>([
    ["a late 'saved' with no save in flight", { type: "saved", answer: answer(toBoard), undoText: "x" }],
    ["'unsaved' with no unsave in flight", { type: "unsaved" }],
    ["'failed' with nothing in flight", { type: "failed" }],
    ["undo expiring when there is no undo", { type: "undoExpired" }],
  ])("%s changes nothing", (_name, event) => {
    expect(nextPinSave(UNSAVED, event)).toBe(UNSAVED);
  });

  it("when the toast goes, Undo is no longer offered but the save stays", () => {
    const saved = run([{ type: "save", pinId: "7", target: toBoard }, { type: "saved", answer: answer(toBoard), undoText: "x" }]);
    const expired = nextPinSave(saved, { type: "undoExpired" });
    expect(expired.undoAction).toBeNull();
    expect(expired.savedInfo).toEqual(saved.savedInfo);
  });
});
