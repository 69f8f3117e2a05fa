// A board's sections for the people who may manage them: create (new ones go first), rename,
// delete (its pins stay on the board) and reorder with Move up / Move down buttons, so the
// order can be changed from the keyboard, not only by dragging.
import { useStore } from "@nanostores/react";
import { useId, useState, type FormEvent } from "react";
import { allows, type BoardRole } from "./policy.ts";
import { SECTION_TITLE_MAX, limitInput, sectionTitleProblem } from "./board-form.ts";
import type { BoardStore, SectionItem } from "./board-store.ts";
import { Dialog } from "~/ui/Dialog.tsx";
import { ConfirmActions } from "./ConfirmActions.tsx";
import { counted, fill, type OrganizeStrings } from "./strings.ts";

interface Props {
  store: BoardStore;
  strings: OrganizeStrings;
  role: BoardRole;
  /** The board's page: each section's title links to its own page below it. */
  boardUrl: string;
}

/** The section title field shared by "new section" and "rename". */
export function SectionTitleForm({ strings, label, submitLabel, initial, onSubmit, onCancel }: {
  strings: OrganizeStrings;
  label: string;
  submitLabel: string;
  initial: string;
  onSubmit: (title: string) => Promise<boolean>;
  onCancel?: () => void;
}) {
  const s = strings.text;
  const id = useId();
  const [title, setTitle] = useState(initial);
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const tooLong = fill(s["sections.titleTooLong"], { max: SECTION_TITLE_MAX });

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problem = sectionTitleProblem(title);
    if (problem) {
      setError(problem === "required" ? s["sections.titleRequired"] : tooLong);
      return;
    }
    setBusy(true);
    const done = await onSubmit(title.trim());
    setBusy(false);
    if (done) setTitle("");
  }

  return (
    <form className="organize-inline-form" onSubmit={(event) => void submit(event)} noValidate>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="text"
        dir="auto"
        autoComplete="off"
        value={title}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-error`}
        onChange={(event) => {
          const kept = limitInput(title, event.currentTarget.value, SECTION_TITLE_MAX);
          setTitle(kept.value);
          setError(kept.refused ? tooLong : "");
        }}
      />
      <button type="submit" className="button primary" disabled={busy}>
        {submitLabel}
      </button>
      {onCancel && (
        <button type="button" className="button" onClick={onCancel}>
          {s.cancel}
        </button>
      )}
      <span id={`${id}-error`} className="organize-error" role="alert">
        {error}
      </span>
    </form>
  );
}

export function SectionsPanel({ store, strings, role, boardUrl }: Props) {
  const s = strings.text;
  const lists = useStore(store.$lists);
  const busy = useStore(store.$busy);
  const sections = store.sections();
  const [renaming, setRenaming] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<SectionItem | null>(null);
  const headingId = useId();
  void lists;

  const focusMoved = (sectionId: string, direction: "up" | "down") =>
    requestAnimationFrame(() => document.querySelector<HTMLButtonElement>(`[data-section-move="${sectionId}-${direction}"]:not([disabled])`)?.focus());

  return (
    <section className="organize-sections" aria-labelledby={headingId}>
      <h2 id={headingId}>{s["sections.heading"]}</h2>
      {sections.length === 0 && <p>{s["sections.empty"]}</p>}
      <ol className="organize-section-list">
        {sections.map((section, index) => (
          <li key={section.id} className="organize-section-row">
            {renaming === section.id ? (
              <SectionTitleForm
                strings={strings}
                label={fill(s["sections.renameLabel"], { title: section.title })}
                submitLabel={s["sections.save"]}
                initial={section.title}
                onSubmit={async (title) => {
                  const done = await store.renameSection(section.id, title);
                  if (done) setRenaming(null);
                  return done;
                }}
                onCancel={() => setRenaming(null)}
              />
            ) : (
              <>
                {section.slug ? (
                  <a className="organize-section-title" href={`${boardUrl}${section.slug}/`} dir="auto">
                    {section.title}
                  </a>
                ) : (
                  <span className="organize-section-title" dir="auto">
                    {section.title}
                  </span>
                )}
                <span className="organize-section-count">{counted(strings, "sections.pinCount", section.pin_count)}</span>
                <span className="organize-section-tools">
                  {allows(role, "reorder_sections") && (
                    <>
                      <button
                        type="button"
                        className="button"
                        data-section-move={`${section.id}-up`}
                        aria-label={fill(s["sections.moveUp"], { title: section.title })}
                        disabled={index === 0 || busy}
                        onClick={() => void store.moveSection(section.id, "up").then((moved) => moved && focusMoved(section.id, "up"))}
                      >
                        <span aria-hidden="true">↑</span>
                      </button>
                      <button
                        type="button"
                        className="button"
                        data-section-move={`${section.id}-down`}
                        aria-label={fill(s["sections.moveDown"], { title: section.title })}
                        disabled={index === sections.length - 1 || busy}
                        onClick={() => void store.moveSection(section.id, "down").then((moved) => moved && focusMoved(section.id, "down"))}
                      >
                        <span aria-hidden="true">↓</span>
                      </button>
                    </>
                  )}
                  {allows(role, "rename_section") && (
                    <button type="button" className="button" onClick={() => setRenaming(section.id)}>
                      {s["sections.rename"]}
                    </button>
                  )}
                  {allows(role, "delete_section") && (
                    <button type="button" className="button" onClick={() => setDeleting(section)}>
                      {s["sections.delete"]}
                    </button>
                  )}
                </span>
              </>
            )}
          </li>
        ))}
      </ol>
      {allows(role, "create_section") && (
        <SectionTitleForm strings={strings} label={s["sections.new"]} submitLabel={s["sections.add"]} initial="" onSubmit={async (title) => (await store.createSection(title)) !== null} />
      )}
      <Dialog className="organize-dialog" open={deleting !== null} title={s["sections.delete"]} closeLabel={s.close} role="alertdialog" onClose={() => setDeleting(null)}>
        {deleting && (
          <>
            <p>{fill(s["sections.deleteConfirm"], { title: deleting.title })}</p>
            <ConfirmActions
              cancelLabel={s.cancel}
              confirmLabel={s["sections.delete"]}
              onCancel={() => setDeleting(null)}
              onConfirm={() => {
                  const id = deleting.id;
                  setDeleting(null);
                  void store.deleteSection(id);
                }}
            />
          </>
        )}
      </Dialog>
    </section>
  );
}
