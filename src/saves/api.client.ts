// The save island's calls, named as the API names them: BoardPickerResource.get,
// RepinResource.create/delete, BoardResource.create.
// Answers are checked for the fields the island reads, so a changed server shape fails loudly
// here rather than drawing "undefined" on a button.
import { resource, type Transport } from "~/api/api.client.ts";
import type { PickerData } from "./picker.ts";
import type { BoardRef, Privacy, RepinAnswer, SectionRef } from "./saves.ts";

export interface SavingApi {
  picker(pinId: string | null, filter?: string): Promise<PickerData>;
  repin(pinId: string, board: { boardId: string; sectionId: string | null } | null): Promise<RepinAnswer>;
  unsave(pinId: string, boardId: string | null): Promise<unknown>;
  createBoard(name: string, privacy: "public" | "secret"): Promise<BoardRef>;
}

/** How many boards the picker asks for (the server's page_size bound). */
export const PICKER_PAGE_SIZE = 50;

interface BoardJson {
  id: string;
  name: string;
  privacy: Privacy;
  url: string;
}
interface SectionJson {
  id: string;
  title: string;
}

const toBoard = (board: BoardJson): BoardRef => {
  if (typeof board?.id !== "string" || typeof board.name !== "string") throw new TypeError("board answer without id or name");
  return { id: board.id, name: board.name, privacy: board.privacy ?? "public", url: board.url ?? "" };
};
const toSection = (section: SectionJson): SectionRef => ({ id: String(section.id), title: String(section.title) });

export function savingApi(transport?: Transport): SavingApi {
  return {
    async picker(pinId, filter) {
      const options: Record<string, unknown> = { page_size: PICKER_PAGE_SIZE };
      if (pinId) options["pin_id"] = pinId;
      if (filter) options["filter"] = filter;
      const data = await resource<{ recent?: BoardJson[]; boards?: BoardJson[]; sections?: Record<string, SectionJson[]>; saved?: PickerData["saved"] }>(
        "BoardPickerResource",
        "get",
        options,
        transport,
      );
      const sections: Record<string, SectionRef[]> = {};
      for (const [boardId, list] of Object.entries(data.sections ?? {})) sections[boardId] = (list ?? []).map(toSection);
      return { recent: (data.recent ?? []).map(toBoard), boards: (data.boards ?? []).map(toBoard), sections, saved: data.saved ?? [] };
    },
    async repin(pinId, board) {
      const options: Record<string, unknown> = { pin_id: pinId };
      if (board) {
        options["board_id"] = board.boardId;
        if (board.sectionId) options["section_id"] = board.sectionId;
      }
      const answer = await resource<RepinAnswer>("RepinResource", "create", options, transport);
      if (!answer?.saved_info || typeof answer.saved_info.title !== "string") throw new TypeError("repin answer without saved_info");
      return answer;
    },
    unsave(pinId, boardId) {
      return resource("RepinResource", "delete", boardId ? { pin_id: pinId, board_id: boardId } : { pin_id: pinId }, transport);
    },
    async createBoard(name, privacy) {
      return toBoard(await resource<BoardJson>("BoardResource", "create", { name: name.trim(), privacy }, transport));
    },
  };
}
