// Batch edit (spec 001 §2 "batch-edit" view): title, description, link and board for several
// drafts at once. Only the fields changed here are sent to each draft; each draft's refusal is
// listed by its title, and the drafts that took the change keep it.
import { useId, useState } from "react";
import { ApiCallError } from "~/api/api.client.ts";
import { parseFieldProblems } from "~/boards/field-problems.ts";
import { fill } from "~/saves/strings.ts";
import type { PickerData } from "~/saves/picker.ts";
import type { BuilderStrings } from "./strings.ts";
import { DRAFT_LIMITS } from "./drafts.ts";
import { batchChanges, batchStart, dirtyFields, type BatchValues } from "./batch.ts";
import { updateDraft, type DraftAnswer } from "./api.client.ts";
import { rememberDraft } from "./store.client.ts";
import { ChoiceField, Field } from "./fields.tsx";
import { boardChoices } from "./editor.ts";
import { draftTitle } from "./DraftList.tsx";

interface BatchEditProps {
  strings: BuilderStrings;
  drafts: DraftAnswer[];
  boards: PickerData | null;
  onDone: () => void;
}

type Outcome = { state: "idle" } | { state: "saving" } | { state: "done"; saved: number; failures: Array<{ id: string; title: string; message: string; fields: Record<string, string> }> };

export function BatchEdit({ strings, drafts, boards, onDone }: BatchEditProps) {
  const ui = strings.ui;
  const id = useId();
  // The drafts as the form opened: what "dirty" is measured against.
  const [start] = useState(() => batchStart(drafts));
  const [values, setValues] = useState<BatchValues>(start);
  const [outcome, setOutcome] = useState<Outcome>({ state: "idle" });
  const [nothing, setNothing] = useState(false);
  const set = <F extends keyof BatchValues>(field: F, value: BatchValues[F]) => {
    setNothing(false);
    setValues((before) => ({ ...before, [field]: value }));
  };
  const fieldError = (field: string) => {
    if (outcome.state !== "done") return null;
    const failed = outcome.failures.find((failure) => failure.fields[field]);
    return failed ? fill(ui.batchDraftFailed, { title: failed.title, message: failed.fields[field]! }) : null;
  };

  const apply = async () => {
    if (dirtyFields(start, values).length === 0) {
      setNothing(true);
      return;
    }
    const changes = batchChanges(start, values);
    setOutcome({ state: "saving" });
    const results = await Promise.all(
      drafts.map(async (draft) => {
        try {
          rememberDraft(await updateDraft(draft.id, changes));
          return null;
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          return { id: draft.id, title: draftTitle(ui, draft), message, fields: error instanceof ApiCallError ? parseFieldProblems(error.detail) : {} };
        }
      }),
    );
    const failures = results.filter((result) => result !== null);
    setOutcome({ state: "done", saved: drafts.length - failures.length, failures });
  };

  const fieldId = (name: string) => `${id}-${name}`;
  return (
    <section className="builder-batch" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{fill(ui.batchHeading, { count: drafts.length })}</h2>
      <p className="builder-hint">{ui.batchHelp}</p>
      <ul className="builder-batch-drafts">
        {drafts.map((draft) => (
          <li key={draft.id}>
            <bdi>{draftTitle(ui, draft)}</bdi>
          </li>
        ))}
      </ul>
      <Field id={fieldId("title")} label={ui.titleLabel} error={fieldError("title")} counter={{ length: values.title.length, maximum: DRAFT_LIMITS.title, template: ui.counter }}>
        {(describedBy, invalid) => <input id={fieldId("title")} type="text" value={values.title} aria-describedby={describedBy} aria-invalid={invalid} onChange={(event) => set("title", event.target.value)} />}
      </Field>
      <Field id={fieldId("description")} label={ui.descriptionLabel} error={fieldError("description")} counter={{ length: values.description.length, maximum: DRAFT_LIMITS.description, template: ui.counter }}>
        {(describedBy, invalid) => <textarea id={fieldId("description")} rows={3} value={values.description} aria-describedby={describedBy} aria-invalid={invalid} onChange={(event) => set("description", event.target.value)} />}
      </Field>
      <Field id={fieldId("link")} label={ui.linkLabel} error={fieldError("websiteLink")}>
        {(describedBy, invalid) => <input id={fieldId("link")} type="url" dir="ltr" value={values.websiteLink} placeholder={ui.linkPlaceholder} aria-describedby={describedBy} aria-invalid={invalid} onChange={(event) => set("websiteLink", event.target.value.trim())} />}
      </Field>
      <ChoiceField id={fieldId("board")} label={ui.boardLabel} error={fieldError("boardId")} value={values.boardId} empty={start.boardId === null ? ui.batchKeepBoard : ui.chooseBoard} choices={boardChoices(boards)} onChange={(value) => set("boardId", value)} />
      <div className="builder-actions">
        <button type="button" className="button primary" disabled={outcome.state === "saving"} onClick={() => void apply()}>
          {outcome.state === "saving" ? ui.batchSaving : ui.batchSave}
        </button>
        <button type="button" className="button" onClick={onDone}>
          {ui.backToDrafts}
        </button>
      </div>
      <div role="status" data-testid="batch-status">
        {nothing && <p>{ui.batchNothing}</p>}
        {outcome.state === "done" && outcome.saved > 0 && <p>{fill(ui.batchSaved, { count: outcome.saved })}</p>}
      </div>
      {outcome.state === "done" && outcome.failures.length > 0 && (
        <ul className="builder-error" role="alert">
          {outcome.failures.map((failure) => (
            <li key={failure.id}>{fill(ui.batchDraftFailed, { title: failure.title, message: Object.values(failure.fields).join("; ") || failure.message })}</li>
          ))}
        </ul>
      )}
    </section>
  );
}
