// The board picker, a modal dialog (src/ui/Dialog.tsx; focus returns to the Save button that
// opened it, and the filter box takes focus on opening). A filter box above a
// listbox of boards, recent ones first; a board with sections expands (Right arrow, or Left in
// right-to-left pages, or its chevron) to list them as options too. Up/Down/Home/End move
// through the list (aria-activedescendant), Enter or Space saves. "Create board" switches the
// dialog to a small form that creates the board and saves to it in one go.
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { useStore } from "@nanostores/react";
import { BOARD_NAME_MAX, EMPTY_PICKER, boardNameProblem, boundFilter, moveActive, nameLength, nextBoardName, pickerRows, type PickerData, type PickerRow } from "./picker.ts";
import type { SaveTarget } from "./saves.ts";
import { $recentBoards, refusalMessage, type Saving } from "./store.ts";
import { PICKER_PAGE_SIZE } from "./api.client.ts";
import { Dialog } from "~/ui/Dialog.tsx";

/** The server filter waits this long after the last keystroke. */
const FILTER_DEBOUNCE_MS = 200;
import { fill, type SaveStrings } from "./strings.ts";

export interface BoardPickerProps {
  /** The pin being saved; null while closed. */
  pinId: string | null;
  strings: SaveStrings;
  saving: Saving;
  onClose: () => void;
  /** A line shown above the list (e.g. "You're logged in: pick a board to finish saving."). */
  notice?: string | null;
  /** Focus goes back here on close (the Save button that opened the picker). */
  returnFocus?: HTMLElement | null;
}

type Load = { state: "loading" } | { state: "ready"; data: PickerData } | { state: "failed" };

export default function BoardPicker({ pinId, strings, saving, onClose, notice = null, returnFocus = null }: BoardPickerProps) {
  const id = useId();
  const headingId = `${id}-heading`;
  // The body mounts on each opening, so every opening starts on the list, unfiltered. The list
  // and the create form each show their heading under headingId, which names the dialog.
  return (
    <Dialog open={pinId !== null} onClose={onClose} className="save-picker" labelledBy={headingId} returnFocus={returnFocus}>
      {pinId !== null && <PickerBody pinId={pinId} strings={strings} saving={saving} notice={notice} headingId={headingId} close={onClose} />}
    </Dialog>
  );
}

interface PickerBodyProps {
  pinId: string;
  strings: SaveStrings;
  saving: Saving;
  notice: string | null;
  headingId: string;
  close: () => void;
}

function PickerBody({ pinId, strings, saving, notice, headingId, close }: PickerBodyProps) {
  const listRef = useRef<HTMLDivElement>(null);
  const id = useId();
  const [mode, setMode] = useState<"list" | "create">("list");
  const [load, setLoad] = useState<Load>({ state: "loading" });
  const [attempt, setAttempt] = useState(0);
  const [filter, setFilter] = useState("");
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [active, setActive] = useState(-1);
  const recent = useStore($recentBoards);
  const rtl = typeof document !== "undefined" && document.documentElement.dir === "rtl";

  // Fresh (or briefly cached) boards for this opening; Retry asks again.
  useEffect(() => {
    let live = true;
    saving.loadPicker(pinId).then(
      (data) => live && setLoad({ state: "ready", data }),
      () => live && setLoad({ state: "failed" }),
    );
    return () => {
      live = false;
    };
  }, [pinId, saving, attempt]);

  // The first answer holds up to PICKER_PAGE_SIZE boards. When it is full, a filter also asks
  // the server (200 ms after the last keystroke), whose name filter sees every board.
  const [remote, setRemote] = useState<{ filter: string; data: PickerData } | null>(null);
  const full = load.state === "ready" && load.data.boards.length >= PICKER_PAGE_SIZE;
  useEffect(() => {
    const wanted = filter.trim();
    if (!full || wanted === "") return;
    const timer = setTimeout(() => {
      saving.loadPicker(pinId, wanted).then(
        (data) => setRemote({ filter, data }),
        () => undefined,
      );
    }, FILTER_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [full, filter, pinId, saving]);

  // Recent boards: the server's list, moved on by saves made since it answered.
  const data = useMemo(() => {
    if (load.state !== "ready") return EMPTY_PICKER;
    const base = remote && remote.filter === filter ? remote.data : load.data;
    return { ...base, recent: recent.length ? recent : base.recent };
  }, [load, remote, filter, recent]);
  const rows = useMemo(() => pickerRows(data, filter, expanded), [data, filter, expanded]);
  const activeRow = active >= 0 && active < rows.length ? rows[active]! : null;
  const optionId = (row: PickerRow) => `${id}-${row.key}`;
  const activeId = activeRow ? optionId(activeRow) : null;

  // The keyboard's active option scrolls into view; the pointer's never does: a list that
  // scrolled under a hovering pointer would move the option away between press and release.
  const pointerMoved = useRef(false);
  useEffect(() => {
    if (pointerMoved.current) {
      pointerMoved.current = false;
      return;
    }
    if (activeId) document.getElementById(activeId)?.scrollIntoView({ block: "nearest" });
  }, [activeId]);

  function choose(row: PickerRow): void {
    const target: SaveTarget = row.kind === "board" ? { kind: "board", board: row.board, section: null } : { kind: "board", board: row.board, section: row.section };
    close();
    void saving.save(pinId, target, strings);
  }

  function toggle(boardId: string, open?: boolean): void {
    const next = new Set(expanded);
    if (open ?? !next.has(boardId)) next.add(boardId);
    else next.delete(boardId);
    setExpanded(next);
  }

  function onListKey(event: KeyboardEvent<HTMLDivElement>): void {
    const key = event.key;
    if (key === "ArrowDown" || key === "ArrowUp" || key === "Home" || key === "End") {
      event.preventDefault();
      setActive(moveActive(active, key, rows.length));
      return;
    }
    if (!activeRow) return;
    const expandKey = rtl ? "ArrowLeft" : "ArrowRight";
    const collapseKey = rtl ? "ArrowRight" : "ArrowLeft";
    if (key === "Enter" || key === " ") {
      event.preventDefault();
      choose(activeRow);
    } else if (key === expandKey && activeRow.kind === "board" && activeRow.sectionCount > 0) {
      event.preventDefault();
      toggle(activeRow.board.id, true);
    } else if (key === collapseKey) {
      event.preventDefault();
      const boardId = activeRow.board.id;
      toggle(boardId, false);
      if (activeRow.kind === "section") setActive(rows.findIndex((row) => row.kind === "board" && row.board.id === boardId));
    }
  }

  function onFilterKey(event: KeyboardEvent<HTMLInputElement>): void {
    if (event.key === "ArrowDown" && rows.length > 0) {
      event.preventDefault();
      setActive(active < 0 ? 0 : active);
      listRef.current?.focus();
    } else if (event.key === "Enter" && rows.length > 0) {
      // Enter in the filter saves to the first match: type a few letters, press Enter.
      event.preventDefault();
      choose(rows[Math.max(active, 0)]!);
    }
  }

  if (mode === "create") {
    return <CreateBoardForm pinId={pinId} strings={strings} saving={saving} headingId={headingId} onBack={() => setMode("list")} onDone={close} />;
  }

  const groups: { key: "recent" | "all"; label: string; rows: PickerRow[] }[] = [];
  for (const row of rows) {
    const group = row.kind === "board" ? row.group : groups.at(-1)?.key ?? "all";
    if (groups.at(-1)?.key !== group) groups.push({ key: group, label: group === "recent" ? strings.recent : strings.allBoards, rows: [] });
    groups.at(-1)!.rows.push(row);
  }
  const hintId = `${id}-sections-hint`;

  return (
    <div className="save-picker-body">
      <div className="save-picker-head">
        <h2 id={headingId}>{strings.pickerTitle}</h2>
        <button type="button" className="save-picker-close" onClick={close} aria-label={strings.close}>
          <span aria-hidden="true">×</span>
        </button>
      </div>
      {notice && (
        <p className="save-picker-notice" role="status">
          {notice}
        </p>
      )}
      <input
        type="search"
        className="save-picker-filter"
        aria-label={strings.filterLabel}
        placeholder={strings.filterPlaceholder}
        aria-controls={`${id}-list`}
        value={filter}
        autoFocus
        data-autofocus
        onChange={(event) => {
          setFilter(boundFilter(event.target.value));
          setActive(-1);
        }}
        onKeyDown={onFilterKey}
      />
      <p id={hintId} hidden>
        {strings.sectionsHint}
      </p>
      {load.state === "loading" && (
        <p className="save-picker-status" role="status">
          {strings.loading}
        </p>
      )}
      {load.state === "failed" && (
        <p className="save-picker-status" role="alert">
          {strings.loadFailed}{" "}
          <button
            type="button"
            className="button"
            onClick={() => {
              setLoad({ state: "loading" });
              setAttempt(attempt + 1);
            }}
          >
            {strings.retry}
          </button>
        </p>
      )}
      {load.state === "ready" && rows.length === 0 && (
        <p className="save-picker-status" role="status">
          {strings.noMatches}
        </p>
      )}
      <div
        ref={listRef}
        id={`${id}-list`}
        role="listbox"
        className="save-picker-list"
        aria-labelledby={headingId}
        tabIndex={rows.length > 0 ? 0 : -1}
        aria-activedescendant={activeId ?? undefined}
        onKeyDown={onListKey}
        onFocus={() => active < 0 && rows.length > 0 && setActive(0)}
        hidden={rows.length === 0}
      >
        {groups.map((group) => (
          // A stable key: a group that re-rendered under the pointer (recent boards arriving) must
          // not remount between mousedown and mouseup, or the click is lost.
          <div role="group" key={group.key} aria-labelledby={`${id}-group-${group.key}`} className="save-picker-group">
            <div role="presentation" id={`${id}-group-${group.key}`} className="save-picker-group-label">
              {group.label}
            </div>
            {group.rows.map((row) => {
              const index = rows.indexOf(row);
              const isBoard = row.kind === "board";
              return (
                <div
                  key={row.key}
                  id={optionId(row)}
                  role="option"
                  aria-selected={index === active}
                  aria-label={isBoard ? undefined : fill(strings.sectionOf, { section: row.section.title, board: row.board.name })}
                  aria-describedby={isBoard && row.sectionCount > 0 ? hintId : undefined}
                  className={`save-picker-option${isBoard ? "" : " save-picker-section"}${index === active ? " is-active" : ""}`}
                  onClick={() => choose(row)}
                  onMouseMove={() => {
                    if (index === active) return;
                    pointerMoved.current = true;
                    setActive(index);
                  }}
                >
                  <span className="save-picker-name" dir="auto">
                    {isBoard ? row.board.name : row.section.title}
                  </span>
                  {isBoard && row.board.privacy === "secret" && <span className="save-picker-badge">{strings.secret}</span>}
                  {row.saved && <span className="save-picker-badge">{strings.savedBadge}</span>}
                  {isBoard && row.sectionCount > 0 && (
                    <span
                      className={`save-picker-chevron${row.expanded ? " is-open" : ""}`}
                      aria-hidden="true"
                      data-expand={row.board.id}
                      onClick={(event) => {
                        event.stopPropagation();
                        toggle(row.board.id);
                      }}
                    >
                      ›
                    </span>
                  )}
                </div>
              );
            })}
          </div>
        ))}
      </div>
      <button type="button" className="button save-picker-create" onClick={() => setMode("create")}>
        {strings.createBoard}
      </button>
    </div>
  );
}

interface CreateBoardFormProps {
  pinId: string;
  strings: SaveStrings;
  saving: Saving;
  headingId: string;
  onBack: () => void;
  onDone: () => void;
}

function CreateBoardForm({ pinId, strings, saving, headingId, onBack, onDone }: CreateBoardFormProps) {
  const id = useId();
  const [name, setName] = useState("");
  const [secret, setSecret] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const tooLong = fill(strings.nameTooLong, { max: BOARD_NAME_MAX });

  async function submit(): Promise<void> {
    if (busy) return;
    const problem = boardNameProblem(name);
    if (problem) {
      setError(problem === "empty" ? strings.nameEmpty : tooLong);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await saving.createBoardAndSave(pinId, name, secret ? "secret" : "public", strings);
      onDone();
    } catch (refusal) {
      setError(refusalMessage(refusal, strings));
      setBusy(false);
    }
  }

  return (
    <form
      className="save-picker-body save-create"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <h2 id={headingId}>{strings.createTitle}</h2>
      <label htmlFor={`${id}-name`}>{strings.nameLabel}</label>
      <input
        id={`${id}-name`}
        className="save-create-name"
        dir="auto"
        autoComplete="off"
        autoFocus
        value={name}
        placeholder={strings.namePlaceholder}
        aria-invalid={error !== null}
        aria-describedby={`${id}-counter ${id}-error`}
        onChange={(event) => {
          const next = nextBoardName(event.target.value);
          setName(next.value);
          setError(next.refused ? tooLong : null);
        }}
      />
      <p id={`${id}-counter`} className="save-create-counter">
        {fill(strings.counter, { length: nameLength(name), max: BOARD_NAME_MAX })}
      </p>
      <p id={`${id}-error`} className="save-create-error" role="alert">
        {error ?? ""}
      </p>
      <label className="save-create-secret">
        <input type="checkbox" role="switch" checked={secret} aria-describedby={`${id}-secret-help`} onChange={(event) => setSecret(event.target.checked)} />
        <span>{strings.secretLabel}</span>
      </label>
      <p id={`${id}-secret-help`} className="save-create-help">
        {strings.secretHelp}
      </p>
      <div className="save-create-actions">
        <button type="button" className="button" onClick={() => !busy && onBack()} aria-disabled={busy}>
          {strings.back}
        </button>
        <button type="submit" className="button primary" aria-disabled={busy} aria-busy={busy}>
          {busy ? strings.creating : strings.create}
        </button>
      </div>
    </form>
  );
}
