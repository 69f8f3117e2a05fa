// The save islands' shared state (nanostores): every pin's save state, the viewer's recent
// boards and the profile-pins-stale flag, wired to the pure transitions of saves.ts and
// recent.ts. Actions are optimistic: the pin shows saved at once, the call follows, and a
// refusal puts the snapshot back and says why in an error toast. All islands on a page share
// one copy of this module, so the close-up and the grids below it agree.
import { atom, map } from "nanostores";
import { ApiCallError, NetworkError } from "~/api/api.client.ts";
import { UNSAVED, nextPinSave, type BoardRef, type PinSave, type SaveEvent, type SaveTarget } from "./saves.ts";
import { RECENT_BOARDS_MAX, forgetRecent, nextProfilePinsStale, rememberRecent, type StaleEvent } from "./recent.ts";
import type { PickerData } from "./picker.ts";
import type { SavingApi } from "./api.client.ts";
import { fill, type SaveStrings } from "./strings.ts";
import type { Toast } from "~/shell/shell.ts";

export const $saves = map<Record<string, PinSave>>({});
export const $recentBoards = atom<BoardRef[]>([]);

/** sessionStorage key of spec 001 §3 Session.isProfilePinsStale (this tab, like the spec's session). */
export const STALE_KEY = "pinloom:isProfilePinsStale";
export const $profilePinsStale = atom<boolean>(false);

/** How long a picker answer is reused, and how many are kept. */
const PICKER_CACHE_MS = 60_000;
const PICKER_CACHE_MAX = 20;

/** How long a save's toast (and its Undo) stays up. */
const SAVE_TOAST_MS = 7000;

/** A toast the store asks for: the shell's own shape. */
export type ToastRequest = Toast;

export interface SavingDeps {
  api: SavingApi;
  /** Shows a toast (the page's shell renders it). */
  notify: (toast: ToastRequest) => void;
  storage?: Pick<Storage, "getItem" | "setItem" | "removeItem"> | null;
}

export const pinSave = (pinId: string): PinSave => $saves.get()[pinId] ?? UNSAVED;

function send(pinId: string, event: SaveEvent): PinSave {
  const next = nextPinSave(pinSave(pinId), event);
  $saves.setKey(pinId, next);
  return next;
}

/** The words of a refusal: the server's message (and its field detail), else a generic one. */
export function refusalMessage(error: unknown, strings: Pick<SaveStrings, "failed" | "offline">): string {
  if (error instanceof NetworkError) return strings.offline;
  if (error instanceof ApiCallError && error.code !== null && error.message) return error.detail ? `${error.message} ${error.detail}` : error.message;
  return strings.failed;
}

export function createSaving(deps: SavingDeps) {
  const storage = deps.storage === undefined ? sessionStorageOrNull() : deps.storage;
  const pickerCache = new Map<string, { at: number; data: Promise<PickerData> }>();
  try {
    $profilePinsStale.set(storage?.getItem(STALE_KEY) === "1");
  } catch {
    // storage blocked: the flag lives for this page only
  }

  function markStale(event: StaleEvent): void {
    if (event !== "refresh") pickerCache.clear();
    const next = nextProfilePinsStale($profilePinsStale.get(), event);
    $profilePinsStale.set(next);
    try {
      if (next) storage?.setItem(STALE_KEY, "1");
      else storage?.removeItem(STALE_KEY);
    } catch {
      // storage blocked or full: the in-page flag still holds
    }
  }

  function refused(pinId: string, error: unknown, strings: SaveStrings): void {
    send(pinId, { type: "failed" });
    deps.notify({ id: `save-${pinId}`, message: refusalMessage(error, strings), tone: "error", durationMs: SAVE_TOAST_MS });
  }

  function savedMessage(target: SaveTarget, strings: SaveStrings): string {
    if (target.kind === "profile") return strings.savedToProfile;
    return target.section ? fill(strings.savedToSection, { section: target.section.title, board: target.board.name }) : fill(strings.savedTo, { board: target.board.name });
  }

  /** Saves the pin to a board, a section or the profile; resolves true when the server kept it. */
  async function save(pinId: string, target: SaveTarget, strings: SaveStrings): Promise<boolean> {
    if (pinSave(pinId).pending) return false;
    send(pinId, { type: "save", pinId, target });
    const message = savedMessage(target, strings);
    let answer;
    try {
      answer = await deps.api.repin(pinId, target.kind === "board" ? { boardId: target.board.id, sectionId: target.section?.id ?? null } : null);
    } catch (error) {
      refused(pinId, error, strings);
      return false;
    }
    send(pinId, { type: "saved", answer, undoText: message });
    if (target.kind === "board") $recentBoards.set(rememberRecent($recentBoards.get(), target.board));
    markStale("createRepin");
    deps.notify({
      id: `save-${pinId}`,
      message,
      action: { label: strings.undo, run: () => void undo(pinId, strings) },
      durationMs: SAVE_TOAST_MS,
    });
    return true;
  }

  /** Removes the pin from a board (or the profile quick-save when boardId is null). */
  async function unsave(pinId: string, boardId: string | null, title: string, strings: SaveStrings, toast = true): Promise<boolean> {
    if (pinSave(pinId).pending) return false;
    send(pinId, { type: "unsave", boardId });
    try {
      await deps.api.unsave(pinId, boardId);
    } catch (error) {
      refused(pinId, error, strings);
      return false;
    }
    send(pinId, { type: "unsaved" });
    markStale("deletePin");
    if (toast) deps.notify({ id: `save-${pinId}`, message: fill(strings.removedFrom, { board: title }), durationMs: SAVE_TOAST_MS });
    return true;
  }

  /** Takes back the save the toast was about; a second Undo does nothing. */
  async function undo(pinId: string, strings: SaveStrings): Promise<boolean> {
    const action = pinSave(pinId).undoAction;
    const title = pinSave(pinId).savedInfo?.title ?? "";
    if (!action) return false;
    return unsave(pinId, action.boardId, title, strings);
  }

  /**
   * Creates a board and saves the pin to it in one go (spec: "create board" inline). Resolves
   * once the board exists (a refused board throws and nothing is saved); the save itself is
   * optimistic like any other and `saved` settles when the server has answered it.
   */
  async function createBoardAndSave(pinId: string, name: string, privacy: "public" | "secret", strings: SaveStrings): Promise<{ board: BoardRef; saved: Promise<boolean> }> {
    const board = await deps.api.createBoard(name, privacy);
    markStale("createBoard");
    return { board, saved: save(pinId, { kind: "board", board, section: null }, strings) };
  }

  // The picker's answer, kept briefly per pin and filter: opening the picker twice, or the
  // close-up reading what the pin is saved to and then opening it, costs one call. Any save,
  // unsave or new board drops it (the server's recent boards and saved list changed).
  function loadPicker(pinId: string | null, filter = "", now = Date.now()): Promise<PickerData> {
    const key = `${pinId ?? ""}\n${filter}`;
    const hit = pickerCache.get(key);
    if (hit && now - hit.at < PICKER_CACHE_MS) return hit.data;
    const data = deps.api.picker(pinId, filter || undefined);
    pickerCache.delete(key);
    pickerCache.set(key, { at: now, data });
    while (pickerCache.size > PICKER_CACHE_MAX) pickerCache.delete(pickerCache.keys().next().value!);
    data.then(
      (answer) => {
        if (filter === "") $recentBoards.set(answer.recent.slice(0, RECENT_BOARDS_MAX));
        const mine = pinId === null ? undefined : answer.saved.find((info) => info.localPinId === pinId) ?? answer.saved[0];
        if (pinId !== null && mine) seedSaved(pinId, mine);
      },
      () => pickerCache.delete(key),
    );
    return data;
  }
  const forgetPicker = () => pickerCache.clear();

  return {
    save,
    loadPicker,
    forgetPicker,
    unsave,
    undo,
    createBoardAndSave,
    markStale,
    expireUndo: (pinId: string) => send(pinId, { type: "undoExpired" }),
    forgetBoard: (boardId: string) => $recentBoards.set(forgetRecent($recentBoards.get(), boardId)),
  };
}

export type Saving = ReturnType<typeof createSaving>;

function sessionStorageOrNull(): Storage | null {
  try {
    return typeof sessionStorage === "undefined" ? null : sessionStorage;
  } catch {
    return null;
  }
}

/** Seeds a pin's shown state from what the server says it is saved to (first wins: the newest). */
export function seedSaved(pinId: string, saved: PinSave["savedInfo"]): void {
  const current = pinSave(pinId);
  if (current.pending || current.savedInfo) return;
  $saves.setKey(pinId, { ...UNSAVED, savedInfo: saved });
}
