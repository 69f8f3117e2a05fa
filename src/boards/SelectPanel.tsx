// Select mode on a board feed: a checkbox per pin, "select all" with exclusions, and the bulk
// actions the viewer's role allows (Move, Copy, New section from selection, Delete). Each pin
// also has Move up / Move down / Move to top buttons, so the board's order can be changed
// from the keyboard.
import { useStore } from "@nanostores/react";
import { useEffect, useId, useRef, useState } from "react";
import { allows, type BoardRole } from "./policy.ts";
import type { BoardStore, PinItem } from "./board-store.ts";
import { Dialog } from "~/ui/Dialog.tsx";
import { ConfirmActions } from "./ConfirmActions.tsx";
import { SectionTitleForm } from "./SectionsPanel.tsx";
import { isSelected, selectedCount } from "./selection.ts";
import { counted, fill, type OrganizeStrings } from "./strings.ts";
import { TargetDialog } from "./TargetDialog.tsx";

interface Props {
  store: BoardStore;
  strings: OrganizeStrings;
  role: BoardRole;
  onDone: () => void;
}

export function SelectPanel({ store, strings, role, onDone }: Props) {
  const s = strings.text;
  const lists = useStore(store.$lists);
  const selection = useStore(store.$selection);
  const board = useStore(store.$board);
  const busy = useStore(store.$busy);
  const headingId = useId();
  const [dialog, setDialog] = useState<"move" | "copy" | "section" | "delete" | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  // Entering select mode moves focus to it, so a keyboard or screen-reader user lands where the pins now are.
  useEffect(() => heading.current?.focus(), []);
  void lists;
  const pins = store.pins();
  const feed = store.$lists.get()[`boardfeed:${board.id}`];
  const count = selectedCount(selection, Math.max(board.pin_count, pins.length));
  const canReorder = allows(role, "reorder_pins");
  const canRemove = allows(role, "remove_pin");
  const name = (pin: PinItem) => pin.title || s["select.untitled"];

  const refocus = (pinId: string) => requestAnimationFrame(() => document.getElementById(`organize-pick-${pinId}`)?.focus());

  return (
    <section className="organize-select" aria-labelledby={headingId}>
      <div className="organize-select-bar">
        <h2 id={headingId} ref={heading} tabIndex={-1}>
          {s["select.heading"]}
        </h2>
        <p className="organize-select-help">{s["select.instructions"]}</p>
        <p className="organize-select-count" role="status" aria-live="polite">
          {counted(strings, "select.count", count)}
        </p>
        <div className="organize-toolbar" role="toolbar" aria-label={s["select.heading"]}>
          <button type="button" className="button" onClick={() => store.selectAll()}>
            {s["select.all"]}
          </button>
          <button type="button" className="button" onClick={() => store.clearSelection()}>
            {s["select.none"]}
          </button>
          {canRemove && (
            <button type="button" className="button" disabled={count === 0 || busy} onClick={() => setDialog("move")}>
              {s["select.move"]}
            </button>
          )}
          <button type="button" className="button" disabled={count === 0 || busy} onClick={() => setDialog("copy")}>
            {s["select.copy"]}
          </button>
          {allows(role, "create_section") && (
            <button type="button" className="button" disabled={count === 0 || busy} onClick={() => setDialog("section")}>
              {s["select.makeSection"]}
            </button>
          )}
          {canRemove && (
            <button type="button" className="button" disabled={count === 0 || busy} onClick={() => setDialog("delete")}>
              {s["select.delete"]}
            </button>
          )}
          <button type="button" className="button primary" onClick={onDone}>
            {s["select.done"]}
          </button>
        </div>
      </div>
      <ul className="organize-pick-list">
        {pins.map((pin, index) => (
          <li key={pin.id} className="organize-pick">
            <label className="organize-pick-label">
              <input
                id={`organize-pick-${pin.id}`}
                type="checkbox"
                aria-label={fill(s["select.pin"], { title: name(pin) })}
                checked={isSelected(selection, pin.id)}
                onChange={() => store.toggle(pin.id)}
              />
              {pin.imageUrl ? <img src={pin.imageUrl} alt="" width="72" height="72" loading="lazy" decoding="async" /> : <span className="organize-pick-empty" aria-hidden="true" />}
              <span className="organize-pick-title" dir="auto" aria-hidden="true">
                {name(pin)}
              </span>
            </label>
            {canReorder && (
              <span className="organize-pick-tools">
                <button type="button" className="button" aria-label={fill(s["select.moveTop"], { title: name(pin) })} disabled={index === 0 || busy} onClick={() => void store.movePin(pin.id, "top").then(() => refocus(pin.id))}>
                  <span aria-hidden="true">⤒</span>
                </button>
                <button type="button" className="button" aria-label={fill(s["select.moveUp"], { title: name(pin) })} disabled={index === 0 || busy} onClick={() => void store.movePin(pin.id, "up").then(() => refocus(pin.id))}>
                  <span aria-hidden="true">↑</span>
                </button>
                <button
                  type="button"
                  className="button"
                  aria-label={fill(s["select.moveDown"], { title: name(pin) })}
                  disabled={index === pins.length - 1 || busy}
                  onClick={() => void store.movePin(pin.id, "down").then(() => refocus(pin.id))}
                >
                  <span aria-hidden="true">↓</span>
                </button>
              </span>
            )}
          </li>
        ))}
      </ul>
      {feed && !feed.ended && feed.bookmark !== null && (
        <button type="button" className="button" disabled={feed.fetching} aria-busy={feed.fetching || undefined} onClick={() => void store.loadMore()}>
          {s["select.more"]}
        </button>
      )}
      {feed?.error && <p role="alert">{s["select.loadFailed"]}</p>}

      {(dialog === "move" || dialog === "copy") && (
        <TargetDialog
          strings={strings}
          kind={dialog}
          currentBoardId={board.id}
          currentSections={board.sections}
          onClose={() => setDialog(null)}
          onChoose={async (target) => {
            setDialog(null);
            await store.sendSelection(dialog, target);
          }}
        />
      )}
      <Dialog className="organize-dialog" open={dialog === "section"} title={s["select.makeSection"]} closeLabel={s.close} onClose={() => setDialog(null)}>
        <SectionTitleForm
          strings={strings}
          label={s["sections.titleLabel"]}
          submitLabel={s["sections.add"]}
          initial=""
          onSubmit={async (title) => {
            const made = await store.sectionFromSelection(title);
            if (made) setDialog(null);
            return made !== null;
          }}
          onCancel={() => setDialog(null)}
        />
      </Dialog>
      <Dialog className="organize-dialog" open={dialog === "delete"} title={s["bulkDelete.title"]} closeLabel={s.close} role="alertdialog" onClose={() => setDialog(null)}>
        <p>{counted(strings, "bulkDelete.body", count)}</p>
        <ConfirmActions
          cancelLabel={s.cancel}
          confirmLabel={s["select.delete"]}
          onCancel={() => setDialog(null)}
          onConfirm={() => {
              setDialog(null);
              void store.deleteSelection();
            }}
        />
      </Dialog>
    </section>
  );
}
