// Where to move or copy the selected pins: one of the viewer's writable boards
// (BoardPickerResource: recent boards first, then by name, narrowed by a filter box, since a
// page holds 50) and optionally one of its sections. The current board is offered too, so pins
// can go into one of its sections.
import { useEffect, useId, useState, type FormEvent } from "react";
import { organizeApi, type BoardJson, type SectionJson } from "./api.client.ts";
import type { MoveTarget } from "./board-store.ts";
import type { SectionCount } from "./board-state.ts";
import { Dialog } from "~/ui/Dialog.tsx";
import type { OrganizeStrings } from "./strings.ts";

interface Props {
  strings: OrganizeStrings;
  kind: "move" | "copy";
  currentBoardId: string;
  currentSections: SectionCount[];
  onChoose: (target: MoveTarget) => Promise<void>;
  onClose: () => void;
}

type Choices = { boards: Array<Pick<BoardJson, "id" | "name">>; sections: Record<string, Array<Pick<SectionJson, "id" | "title">>> };

export function TargetDialog({ strings, kind, currentBoardId, currentSections, onChoose, onClose }: Props) {
  const s = strings.text;
  const id = useId();
  const [choices, setChoices] = useState<Choices | null>(null);
  const [failed, setFailed] = useState(false);
  const [boardId, setBoardId] = useState("");
  const [sectionId, setSectionId] = useState("");
  const [filter, setFilter] = useState("");

  useEffect(() => {
    let live = true;
    // Typing narrows the list; wait for a pause before asking (spec 000 §9's 200 ms debounce).
    const timer = setTimeout(() => {
      organizeApi.picker(filter).then(
        (answer) => {
          if (!live) return;
          const sections = { ...answer.sections, [currentBoardId]: currentSections.map((section) => ({ id: section.id, title: section.title })) };
          const seen = new Set<string>();
          const boards = [...answer.recent, ...answer.boards].filter((board) => !seen.has(board.id) && Boolean(seen.add(board.id)));
          setChoices({ boards, sections });
          setFailed(false);
          // Keep the chosen board while it is still listed; otherwise the first other board.
          const first = boards.find((board) => board.id !== currentBoardId) ?? boards[0];
          setBoardId((chosen) => (boards.some((board) => board.id === chosen) ? chosen : (first?.id ?? "")));
        },
        () => live && setFailed(true),
      );
    }, filter ? 200 : 0);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [filter, currentBoardId, currentSections]);

  const sections = choices?.sections[boardId] ?? [];
  // A section chosen under a board that is no longer chosen does not count.
  const chosenSection = sections.some((section) => section.id === sectionId) ? sectionId : "";
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!boardId) return;
    void onChoose({ boardId, sectionId: chosenSection || null });
  };

  return (
    <Dialog className="organize-dialog" open title={kind === "move" ? s["target.moveTitle"] : s["target.copyTitle"]} closeLabel={s.close} onClose={onClose}>
      {failed ? (
        <p role="alert">{s["target.loadFailed"]}</p>
      ) : !choices ? (
        <p role="status">{s["target.loading"]}</p>
      ) : (
        <form className="organize-form" onSubmit={submit}>
          <div className="organize-field">
            <label htmlFor={`${id}-filter`}>{s["target.filter"]}</label>
            <input id={`${id}-filter`} type="search" dir="auto" autoComplete="off" maxLength={50} value={filter} onChange={(event) => setFilter(event.currentTarget.value)} />
          </div>
          <div className="organize-field">
            <label htmlFor={`${id}-board`}>{s["target.board"]}</label>
            <select
              id={`${id}-board`}
              value={boardId}
              onChange={(event) => {
                setBoardId(event.currentTarget.value);
                setSectionId("");
              }}
            >
              {choices.boards.map((board) => (
                <option key={board.id} value={board.id}>
                  {board.name}
                </option>
              ))}
            </select>
          </div>
          <div className="organize-field">
            <label htmlFor={`${id}-section`}>{s["target.section"]}</label>
            <select id={`${id}-section`} value={chosenSection} onChange={(event) => setSectionId(event.currentTarget.value)}>
              <option value="">{s["target.noSection"]}</option>
              {sections.map((section) => (
                <option key={section.id} value={section.id}>
                  {section.title}
                </option>
              ))}
            </select>
          </div>
          <div className="organize-actions">
            <button type="button" className="button" onClick={onClose}>
              {s.cancel}
            </button>
            <button type="submit" className="button primary" disabled={!boardId || (kind === "move" && boardId === currentBoardId && !chosenSection)}>
              {kind === "move" ? s["select.move"] : s["select.copy"]}
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
