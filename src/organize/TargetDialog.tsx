// Where to move or copy the selected pins: one of the viewer's writable boards
// (BoardPickerResource) and optionally one of its sections. The current board is offered too,
// so pins can go into one of its sections.
import { useEffect, useId, useState, type FormEvent } from "react";
import { organizeApi, type BoardJson, type SectionJson } from "./api.ts";
import type { MoveTarget } from "./board-store.ts";
import type { SectionCount } from "./board-state.ts";
import { Dialog } from "./Dialog.tsx";
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

  useEffect(() => {
    let live = true;
    organizeApi.picker().then(
      (answer) => {
        if (!live) return;
        const sections = { ...answer.sections, [currentBoardId]: currentSections.map((section) => ({ id: section.id, title: section.title })) };
        setChoices({ boards: answer.boards, sections });
        const first = answer.boards.find((board) => board.id !== currentBoardId) ?? answer.boards[0];
        setBoardId(first?.id ?? "");
      },
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [currentBoardId, currentSections]);

  const sections = choices?.sections[boardId] ?? [];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!boardId) return;
    void onChoose({ boardId, sectionId: sectionId || null });
  };

  return (
    <Dialog open title={kind === "move" ? s["target.moveTitle"] : s["target.copyTitle"]} closeLabel={s.close} onClose={onClose}>
      {failed ? (
        <p role="alert">{s["target.loadFailed"]}</p>
      ) : !choices ? (
        <p role="status">{s["target.loading"]}</p>
      ) : (
        <form className="organize-form" onSubmit={submit}>
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
            <select id={`${id}-section`} value={sectionId} onChange={(event) => setSectionId(event.currentTarget.value)}>
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
            <button type="submit" className="button primary" disabled={!boardId || (kind === "move" && boardId === currentBoardId && !sectionId)}>
              {kind === "move" ? s["select.move"] : s["select.copy"]}
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
