// The board page's client state: the board's counts and flags (board-state.ts), its feed lists
// (feed-lists.ts) and the select-mode selection, as nanostores atoms with the actions that
// change them. Each action applies its transition at once, asks the server, and on refusal
// puts the state back and says so in a toast (optimistic UI). The server
// answers for itself what the viewer may do; the islands only hide what the role cannot use.
import { atom } from "nanostores";
import { ApiCallError } from "~/api/api.client.ts";
import { organizeApi, type SectionJson } from "./api.client.ts";
import { boardReducer, type BoardEvent, type BoardState } from "./board-state.ts";
import {
  addToFront,
  feedKey,
  listFetchFailed,
  listFetchStarted,
  listFetchSucceeded,
  movePins,
  moveAll,
  neighbourAfter,
  removeEverywhere,
  reorder,
  replaceItem,
  copyPins,
  type FeedLists,
} from "./feed-lists.ts";
import { NOTHING_SELECTED, bulkTargets, selectedOf, toggle as toggleSelection, selectAll as everything, type Selection } from "./selection.ts";

export interface PinItem {
  id: string;
  type: "pin";
  story?: boolean;
  title: string;
  imageUrl: string | null;
}

export interface SectionItem {
  id: string;
  type: "section";
  title: string;
  pin_count: number;
  /** Its page's last path segment under the board (renaming a section changes it). */
  slug?: string;
}

export type OrganizeItem = PinItem | SectionItem;

/** What a refusal or a finished action tells the person; the island maps keys to its strings. */
export type Notice =
  | "failed"
  | "forbidden"
  | "notFound"
  | "saved"
  | "moved"
  | "copied"
  | "deleted"
  | "sectionCreated"
  | "archived"
  | "unarchived"
  | "transferRequested"
  | "transferCancelled";

export type OrganizeApi = typeof organizeApi;

export interface BoardStoreDeps {
  api: OrganizeApi;
  notify: (notice: Notice, count?: number) => void;
  now: () => number;
}

/** A refusal's notice: the server's 403 and 404 read differently from any other failure. */
export function refusalNotice(error: unknown): Notice {
  if (error instanceof ApiCallError) {
    if (error.httpStatus === 403) return "forbidden";
    if (error.httpStatus === 404) return "notFound";
  }
  return "failed";
}

function sectionItem(section: Pick<SectionJson, "id" | "title" | "pin_count"> & { slug?: string | undefined }): SectionItem {
  return { id: section.id, type: "section", title: section.title, pin_count: section.pin_count, ...(section.slug ? { slug: section.slug } : {}) };
}

export interface MoveTarget {
  boardId: string;
  sectionId: string | null;
}

export function createBoardStore(initial: { board: BoardState; pins: PinItem[]; bookmark: string | null }, deps: BoardStoreDeps) {
  const boardId = initial.board.id;
  const FEED = feedKey("boardfeed", boardId);
  const SECTIONS = feedKey("boardsections", boardId);
  const $board = atom<BoardState>(initial.board);
  const start: FeedLists<OrganizeItem> = {};
  let lists = listFetchSucceeded(start, FEED, { items: initial.pins, bookmark: initial.bookmark }, true);
  lists = listFetchSucceeded(lists, SECTIONS, { items: initial.board.sections.map((section) => sectionItem(section)), bookmark: null }, true);
  const $lists = atom<FeedLists<OrganizeItem>>(lists);
  const $selection = atom<Selection>(NOTHING_SELECTED);
  const $busy = atom(false);
  /** True once the board's pins changed here: the server-rendered grid is then out of date. */
  const $dirty = atom(false);

  const pins = () => ($lists.get()[FEED]?.items ?? []) as PinItem[];
  const sections = () => ($lists.get()[SECTIONS]?.items ?? []) as SectionItem[];

  /** Applies a change, runs the call, and on refusal restores both atoms and toasts. */
  async function optimistic<T>(change: () => void, run: () => Promise<T>): Promise<T | null> {
    const board = $board.get();
    const before = $lists.get();
    change();
    $busy.set(true);
    try {
      return await run();
    } catch (error) {
      $board.set(board);
      $lists.set(before);
      deps.notify(refusalNotice(error));
      return null;
    } finally {
      $busy.set(false);
    }
  }

  const dispatch = (event: BoardEvent) => $board.set(boardReducer($board.get(), event));

  return {
    $board,
    $lists,
    $selection,
    $busy,
    $dirty,
    pins,
    sections,

    async loadMore(): Promise<void> {
      const list = $lists.get()[FEED];
      if (!list || list.fetching || list.ended || list.bookmark === null) return;
      $lists.set(listFetchStarted($lists.get(), FEED));
      try {
        const answer = await deps.api.boardFeed(boardId, list.bookmark);
        const page = Array.isArray(answer) ? { results: answer, bookmark: null } : answer;
        const items: PinItem[] = page.results.map((pin) => ({
          id: pin.id,
          type: "pin",
          ...(pin.kind === "story" ? { story: true } : {}),
          title: pin.title ?? pin.grid_title ?? "",
          imageUrl: pin.image?.url ?? null,
        }));
        $lists.set(listFetchSucceeded($lists.get(), FEED, { items, bookmark: page.bookmark }, false));
      } catch (error) {
        $lists.set(listFetchFailed($lists.get(), FEED, error instanceof ApiCallError ? error.httpStatus : null));
      }
    },

    // --- the board itself ---------------------------------------------------------------

    async setArchived(archived: boolean): Promise<boolean> {
      const answer = await optimistic(
        () => dispatch(archived ? { type: "archived", now: deps.now() } : { type: "unarchived" }),
        () => deps.api.updateBoard({ board_id: boardId, archived }),
      );
      if (!answer) return false;
      // The server's time wins over the client's clock.
      $board.set({ ...$board.get(), archived_by_me_at: answer.archived_by_me_at ?? (archived ? deps.now() : null) });
      deps.notify(archived ? "archived" : "unarchived");
      return true;
    },

    async remove(): Promise<boolean> {
      const answer = await optimistic(() => undefined, () => deps.api.deleteBoard(boardId));
      return answer !== null;
    },

    async requestTransfer(user: { user_id: string; username: string }): Promise<void> {
      const answer = await optimistic(() => dispatch({ type: "transferRequested", user }), () => deps.api.requestTransfer(boardId, user.user_id));
      if (answer) deps.notify("transferRequested");
    },

    async cancelTransfer(): Promise<void> {
      const answer = await optimistic(() => dispatch({ type: "transferCancelled" }), () => deps.api.cancelTransfer(boardId));
      if (answer) deps.notify("transferCancelled");
    },

    // --- sections -----------------------------------------------------------------------

    /** Not optimistic: a section has no id until the server gives it one. */
    async createSection(title: string): Promise<SectionItem | null> {
      const answer = await optimistic(() => undefined, () => deps.api.createSection(boardId, title.trim()));
      if (!answer) return null;
      const item = sectionItem(answer);
      dispatch({ type: "sectionAdded", section: { id: item.id, title: item.title, pin_count: item.pin_count } });
      $lists.set(addToFront($lists.get(), SECTIONS, item));
      deps.notify("sectionCreated");
      return item;
    },

    async renameSection(sectionId: string, title: string): Promise<boolean> {
      const current = sections().find((section) => section.id === sectionId);
      if (!current) return false;
      const answer = await optimistic(
        () => {
          dispatch({ type: "sectionRenamed", sectionId, title: title.trim() });
          $lists.set(replaceItem($lists.get(), { ...current, title: title.trim() }));
        },
        () => deps.api.renameSection(sectionId, title.trim()),
      );
      // A new title is a new address: the section's link follows the server's slug.
      if (answer?.slug) $lists.set(replaceItem($lists.get(), { ...current, title: title.trim(), slug: answer.slug }));
      return answer !== null;
    },

    async deleteSection(sectionId: string): Promise<boolean> {
      const answer = await optimistic(
        () => {
          dispatch({ type: "sectionDeleted", sectionId });
          $lists.set(removeEverywhere($lists.get(), "section", [sectionId]));
        },
        () => deps.api.deleteSection(sectionId),
      );
      if (answer !== null) deps.notify("deleted", 1);
      return answer !== null;
    },

    /** Moves a section one place up or down; the server takes the whole new order. */
    async moveSection(sectionId: string, direction: "up" | "down"): Promise<boolean> {
      const ids = sections().map((section) => section.id);
      const after = neighbourAfter(ids, ids.indexOf(sectionId), direction);
      if (after === undefined) return false;
      const answer = await optimistic(
        () => {
          $lists.set(reorder($lists.get(), SECTIONS, sectionId, after));
          dispatch({ type: "sectionsReordered", sectionIds: sections().map((section) => section.id) });
        },
        () => deps.api.reorderSections(boardId, sections().map((section) => section.id)),
      );
      return answer !== null;
    },

    // --- pins ---------------------------------------------------------------------------

    async movePin(pinId: string, direction: "up" | "down" | "top"): Promise<boolean> {
      const ids = pins().map((pin) => pin.id);
      const after = neighbourAfter(ids, ids.indexOf(pinId), direction);
      if (after === undefined) return false;
      const answer = await optimistic(
        () => {
          $lists.set(reorder($lists.get(), FEED, pinId, after));
          $dirty.set(true);
        },
        () => deps.api.reorderPin(boardId, pinId, after),
      );
      return answer !== null;
    },

    toggle(pinId: string) {
      $selection.set(toggleSelection($selection.get(), pinId));
    },
    selectAll() {
      $selection.set(everything());
    },
    clearSelection() {
      $selection.set(NOTHING_SELECTED);
    },

    /** Move or copy the selection to another board (or a section, of this board or another). */
    async sendSelection(kind: "move" | "copy", target: MoveTarget): Promise<number | null> {
      const selection = $selection.get();
      const chosen = selectedOf(selection, pins());
      const targetKey = target.sectionId ? feedKey("boardsectionpins", target.sectionId) : feedKey("boardfeed", target.boardId);
      const sameBoard = target.boardId === boardId;
      const count = selection.all ? Math.max(0, $board.get().pin_count - selection.excluded.length) : chosen.length;
      const single = kind === "move" && !selection.all && chosen.length === 1 ? chosen[0] : undefined;
      const answer = await optimistic(
        () => {
          if (kind === "move" && !sameBoard) {
            $lists.set(selection.all ? moveAll($lists.get(), FEED, targetKey, selection.excluded) : movePins($lists.get(), FEED, targetKey, chosen));
            dispatch({ type: "pinsRemoved", sectionId: null, count });
          } else if (kind === "move") {
            $lists.set(movePins($lists.get(), FEED, FEED, chosen));
            if (target.sectionId) $lists.set(copyPins($lists.get(), targetKey, chosen));
          } else {
            $lists.set(copyPins($lists.get(), targetKey, chosen));
            if (sameBoard) dispatch({ type: "pinsAdded", sectionId: target.sectionId, count });
          }
          $dirty.set(true);
        },
        async () => {
          // One pin moves through PinResource.update (the API's single move); more go in one bulk batch.
          if (single) {
            await deps.api.movePin(single.id, boardId, target.boardId, target.sectionId);
            return 1;
          }
          const result = await deps.api.bulk({
            board_id: boardId,
            action: kind === "move" ? "bulkMove" : "bulkCopy",
            ...bulkTargets(selection),
            target_board_id: target.boardId,
            ...(target.sectionId ? { target_section_id: target.sectionId } : {}),
          });
          return (kind === "move" ? result.moved : result.copied) ?? count;
        },
      );
      if (answer === null) return null;
      $selection.set(NOTHING_SELECTED);
      deps.notify(kind === "move" ? "moved" : "copied", answer);
      return answer;
    },

    async deleteSelection(): Promise<number | null> {
      const selection = $selection.get();
      const chosen = selectedOf(selection, pins());
      const count = selection.all ? Math.max(0, $board.get().pin_count - selection.excluded.length) : chosen.length;
      const answer = await optimistic(
        () => {
          const gone = selection.all ? pins().filter((pin) => !selection.excluded.includes(pin.id)) : chosen;
          $lists.set(removeEverywhere($lists.get(), "pin", gone.map((pin) => pin.id)));
          dispatch({ type: "pinsRemoved", sectionId: null, count });
          $dirty.set(true);
        },
        () => deps.api.bulk({ board_id: boardId, action: "bulkDelete", ...bulkTargets(selection) }),
      );
      if (answer === null) return null;
      $selection.set(NOTHING_SELECTED);
      deps.notify("deleted", answer.deleted ?? count);
      return answer.deleted ?? count;
    },

    /** bulkCreateSection: a new section (first in the list) holding the selected pins. */
    async sectionFromSelection(title: string): Promise<SectionItem | null> {
      const selection = $selection.get();
      const answer = await optimistic(() => undefined, () => deps.api.bulk({ board_id: boardId, action: "bulkCreateSection", ...bulkTargets(selection), section_title: title.trim() }));
      if (!answer?.section) return null;
      const item = sectionItem(answer.section);
      dispatch({ type: "sectionAdded", section: { id: item.id, title: item.title, pin_count: item.pin_count } });
      $lists.set(addToFront($lists.get(), SECTIONS, item));
      $selection.set(NOTHING_SELECTED);
      $dirty.set(true);
      deps.notify("sectionCreated");
      return item;
    },
  };
}

export type BoardStore = ReturnType<typeof createBoardStore>;
