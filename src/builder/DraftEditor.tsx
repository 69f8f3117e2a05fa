// The single pin editor (spec 001 §2 "editor" view): every field of the draft that applies, each
// with its own error slot; autosave a moment after the last change, sending only the changed
// fields; the items of a carousel (add, remove, reorder, select); publish now or on a schedule.
// Local edits live beside the stored draft (`edits`), so an item arriving from an upload or a
// crop is never overwritten by an older copy of the draft.
import { useEffect, useId, useMemo, useRef, useState } from "react";
import { useStore } from "@nanostores/react";
import { ApiCallError } from "~/api/api.client.ts";
import { parseFieldProblems } from "~/boards/field-problems.ts";
import { fill } from "~/saves/strings.ts";
import type { PickerData } from "~/saves/picker.ts";
import type { BuilderStrings } from "./strings.ts";
import { DRAFT_LIMITS, removeItem, validateDraft, type PinDraft } from "./drafts.ts";
import { draftDiff, hasChanges } from "./autosave.ts";
import { previewUrl } from "./media.ts";
import { boardChoices, moveItem, problemMessages, type PublishState } from "./editor.ts";
import { publishDraft, updateDraft, type DraftAnswer, type PublishAnswer } from "./api.client.ts";
import { $pending, $uploadInfo, forgetDraft, itemsChange, rememberDraft, startUploads, type UploadMessages } from "./store.client.ts";
import { ChoiceField, Field } from "./fields.tsx";
import { CropOffer } from "./CropOffer.tsx";
import { UploadCards, ACCEPTED_TYPES } from "./UploadView.tsx";
import TagEditor from "./TagEditor.tsx";

/** The autosave waits this long after the last keystroke. */
const AUTOSAVE_DELAY_MS = 800;
const NO_BLOCKED_HOSTS: ReadonlySet<string> = new Set();

interface DraftEditorProps {
  strings: BuilderStrings;
  draft: DraftAnswer;
  boards: PickerData | null;
  boardsFailed: boolean;
  disabled: boolean;
  messages: UploadMessages;
  timeZone: string;
  formatTime: (ms: number) => string;
  onBack: () => void;
  onPublished: (answer: PublishAnswer, title: string) => void;
}

type SaveState = { state: "idle" } | { state: "saving" } | { state: "saved" } | { state: "failed"; message: string } | { state: "invalid" };

export function DraftEditor({ strings, draft, boards, boardsFailed, disabled, messages, timeZone, formatTime, onBack, onPublished }: DraftEditorProps) {
  const ui = strings.ui;
  const id = useId();
  const [edits, setEdits] = useState<Partial<PinDraft>>({});
  const [save, setSave] = useState<SaveState>({ state: "idle" });
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [publish, setPublish] = useState<PublishState>({ status: "notAttempted", message: null });
  const view: PinDraft = useMemo(() => ({ ...draft, ...edits }), [draft, edits]);
  const clientErrors = useMemo(() => problemMessages(validateDraft(view, NO_BLOCKED_HOSTS), strings.validation), [view, strings.validation]);
  const errors = { ...serverErrors, ...clientErrors };
  const info = useStore($uploadInfo);
  const pending = useStore($pending).filter((file) => file.draftKey === draft.id);
  // The autosave timer and the buttons read the latest state, not the render that set them up.
  const latest = useRef({ draft, view });
  useEffect(() => {
    latest.current = { draft, view };
  });

  /** Saves what differs from the stored draft; resolves false when it could not. */
  const saveNow = async (): Promise<boolean> => {
    const { draft: stored, view: current } = latest.current;
    const changes = draftDiff(stored, current, timeZone);
    if (!hasChanges(changes)) return true;
    if (validateDraft(current, NO_BLOCKED_HOSTS).length > 0) {
      setSave({ state: "invalid" });
      return false;
    }
    setSave({ state: "saving" });
    try {
      const answer = await updateDraft(stored.id, changes);
      rememberDraft(answer);
      // Fields typed again while the save was in flight stay as edits.
      setEdits((before) => Object.fromEntries(Object.entries(before).filter(([field, value]) => JSON.stringify(value) !== JSON.stringify(answer[field as keyof PinDraft]))));
      setServerErrors({});
      setSave({ state: "saved" });
      return true;
    } catch (error) {
      const problems = error instanceof ApiCallError ? parseFieldProblems(error.detail) : {};
      setServerErrors(problems);
      setSave({ state: "failed", message: error instanceof Error ? error.message : String(error) });
      return false;
    }
  };

  useEffect(() => {
    if (Object.keys(edits).length === 0) return;
    const timer = setTimeout(() => void saveNow(), AUTOSAVE_DELAY_MS);
    return () => clearTimeout(timer);
    // saveNow reads the latest state through the ref.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [edits]);

  const edit = <F extends keyof PinDraft>(field: F, value: PinDraft[F]) => {
    setEdits((before) => ({ ...before, [field]: value }));
    setServerErrors(({ [field]: _cleared, ...rest }) => rest);
  };

  /** An item transition (drafts.ts) is stored at once: the strip shows the stored draft. */
  const changeItems = async (next: PinDraft) => {
    rememberDraft({ ...draft, ...itemsChange(next), type: next.type });
    try {
      rememberDraft(await updateDraft(draft.id, itemsChange(next)));
    } catch (error) {
      rememberDraft(draft);
      setSave({ state: "failed", message: error instanceof Error ? error.message : String(error) });
    }
  };

  const runPublish = async () => {
    setPublish({ status: "attempted", message: null });
    if (!(await saveNow())) {
      setPublish({ status: "notAttempted", message: null });
      return;
    }
    setPublish({ status: "publishing", message: null });
    try {
      const answer = await publishDraft(draft.id);
      setPublish({ status: "succeeded", message: null });
      forgetDraft(draft.id);
      onPublished(answer, view.title);
    } catch (error) {
      if (error instanceof ApiCallError) setServerErrors(parseFieldProblems(error.detail));
      setPublish({ status: "notAttempted", message: fill(ui.publishFailed, { message: error instanceof Error ? error.message : String(error) }) });
    }
  };

  const item = view.items[view.pinItemIndex] ?? null;
  const boardSections = view.boardId ? (boards?.sections[view.boardId] ?? []) : [];
  const today = new Date().toLocaleDateString("en-CA");
  const fieldId = (name: string) => `${id}-${name}`;
  const general = save.state === "failed" && Object.keys(serverErrors).length === 0 ? fill(ui.saveFailed, { message: save.message }) : null;

  return (
    <section className="builder-editor" aria-labelledby={`${id}-heading`}>
      <div className="builder-editor-head">
        <button type="button" className="button builder-small" onClick={() => void saveNow().then(onBack)}>
          {ui.backToDrafts}
        </button>
        <h2 id={`${id}-heading`}>{ui.editorHeading}</h2>
        <p className="builder-save-status" role="status" data-testid="save-status">
          {save.state === "saving" ? ui.saving : save.state === "invalid" ? ui.fixErrors : general ?? (draft.lastSavedTime ? fill(ui.saved, { time: formatTime(draft.lastSavedTime) }) : ui.notSaved)}
        </p>
      </div>
      <div className="builder-editor-grid">
        <div className="builder-editor-media">
          <ol className="builder-items" aria-label={ui.itemsLabel}>
            {view.items.map((each, at) => {
              const number = at + 1;
              const src = each.media ? previewUrl(info[each.media.ref]) : null;
              const current = at === view.pinItemIndex;
              return (
                <li key={each.id} className={current ? "builder-item builder-item-current" : "builder-item"} data-testid="draft-item">
                  <button type="button" className="builder-item-show" aria-pressed={current} aria-label={fill(ui.showItem, { number })} onClick={() => void changeItems({ ...view, pinItemIndex: at })}>
                    {src ? <img src={src} alt="" /> : <span className="builder-card-video">{ui.videoItem}</span>}
                  </button>
                  <div className="builder-item-actions">
                    {view.items.length > 1 && at > 0 && (
                      <button type="button" className="builder-icon" aria-label={fill(ui.moveItemBack, { number })} onClick={() => void changeItems(moveItem(view, at, at - 1))}>
                        <span className="builder-arrow" aria-hidden="true">‹</span>
                      </button>
                    )}
                    {view.items.length > 1 && at < view.items.length - 1 && (
                      <button type="button" className="builder-icon" aria-label={fill(ui.moveItemForward, { number })} onClick={() => void changeItems(moveItem(view, at, at + 1))}>
                        <span className="builder-arrow" aria-hidden="true">›</span>
                      </button>
                    )}
                    <button type="button" className="builder-icon" aria-label={fill(ui.removeItem, { number })} onClick={() => void changeItems(removeItem(view, at, Date.now()))}>
                      <span aria-hidden="true">×</span>
                    </button>
                  </div>
                </li>
              );
            })}
          </ol>
          {pending.length > 0 && <UploadCards ui={ui} files={pending} label={ui.uploadsLabel} />}
          {view.items.length < DRAFT_LIMITS.items.carousel && (
            <div className="builder-add-item">
              <input
                id={fieldId("add")}
                className="visually-hidden builder-file-input"
                type="file"
                accept={ACCEPTED_TYPES}
                disabled={disabled}
                onChange={(event) => {
                  startUploads([...(event.currentTarget.files ?? [])].slice(0, 1), messages, draft.id);
                  event.currentTarget.value = "";
                }}
              />
              <label htmlFor={fieldId("add")} className="button builder-small">
                {ui.addItem}
              </label>
            </div>
          )}
          {item && (
            <div className="builder-preview">
              <p className="visually-hidden">{fill(ui.itemLabel, { number: view.pinItemIndex + 1, count: view.items.length })}</p>
              {item.media && previewUrl(info[item.media.ref]) ? (
                <img src={previewUrl(info[item.media.ref])!} alt={view.altText || fill(ui.mediaAlt, { number: view.pinItemIndex + 1 })} />
              ) : null}
              <CropOffer ui={ui} draft={draft} index={view.pinItemIndex} />
              <TagEditor
                item={item}
                tags={view.pinTags}
                strings={strings.tags}
                imageUrl={item.media ? previewUrl(info[item.media.ref]) : null}
                draftLink={view.websiteLink}
                onChange={({ item: changed, pinTags }) => void changeItems({ ...view, pinTags, items: view.items.map((each) => (each.id === changed.id ? changed : each)) })}
              />
            </div>
          )}
        </div>
        <div className="builder-editor-fields">
          <Field id={fieldId("title")} label={ui.titleLabel} error={errors["title"]} counter={{ length: view.title.length, maximum: DRAFT_LIMITS.title, template: ui.counter }}>
            {(describedBy, invalid) => (
              <input id={fieldId("title")} type="text" value={view.title} placeholder={ui.titlePlaceholder} aria-describedby={describedBy} aria-invalid={invalid} onChange={(event) => edit("title", event.target.value)} />
            )}
          </Field>
          <Field id={fieldId("description")} label={ui.descriptionLabel} error={errors["description"]} counter={{ length: view.description.length, maximum: DRAFT_LIMITS.description, template: ui.counter }}>
            {(describedBy, invalid) => (
              <textarea id={fieldId("description")} rows={4} value={view.description} placeholder={ui.descriptionPlaceholder} aria-describedby={describedBy} aria-invalid={invalid} onChange={(event) => edit("description", event.target.value)} />
            )}
          </Field>
          <Field id={fieldId("link")} label={ui.linkLabel} error={errors["websiteLink"]}>
            {(describedBy, invalid) => (
              <input id={fieldId("link")} type="url" inputMode="url" dir="ltr" value={view.websiteLink} placeholder={ui.linkPlaceholder} aria-describedby={describedBy} aria-invalid={invalid} onChange={(event) => edit("websiteLink", event.target.value.trim())} />
            )}
          </Field>
          <Field id={fieldId("alt")} label={ui.altTextLabel} help={ui.altTextHelp} error={errors["altText"]} counter={{ length: view.altText.length, maximum: DRAFT_LIMITS.altText, template: ui.counter }}>
            {(describedBy, invalid) => (
              <textarea id={fieldId("alt")} rows={2} value={view.altText} aria-describedby={describedBy} aria-invalid={invalid} onChange={(event) => edit("altText", event.target.value)} />
            )}
          </Field>
          <ChoiceField
            id={fieldId("board")}
            label={ui.boardLabel}
            error={errors["boardId"] ?? (boardsFailed ? ui.boardsFailed : null)}
            value={view.boardId}
            empty={ui.chooseBoard}
            choices={boardChoices(boards)}
            onChange={(value) => {
              edit("boardId", value);
              edit("sectionId", null);
            }}
          />
          {boardSections.length > 0 && (
            <ChoiceField
              id={fieldId("section")}
              label={ui.sectionLabel}
              error={errors["sectionId"]}
              value={view.sectionId}
              empty={ui.noSection}
              choices={boardSections.map((section) => ({ id: section.id, name: section.title }))}
              onChange={(value) => edit("sectionId", value)}
            />
          )}
          <div className="builder-checks">
            <label>
              <input type="checkbox" checked={view.isCommentsAllowed} onChange={(event) => edit("isCommentsAllowed", event.target.checked)} /> {ui.commentsAllowed}
            </label>
            <label>
              <input type="checkbox" checked={view.isShoppingRecAllowed} onChange={(event) => edit("isShoppingRecAllowed", event.target.checked)} /> {ui.shoppingAllowed}
            </label>
          </div>
          <fieldset className="builder-publish-option">
            <legend>{ui.publishLabel}</legend>
            <label>
              <input type="radio" name={fieldId("when")} checked={view.publishOption === "publish-immediately"} onChange={() => edit("publishOption", "publish-immediately")} /> {ui.publishNow}
            </label>
            <label>
              <input type="radio" name={fieldId("when")} checked={view.publishOption === "schedule"} onChange={() => edit("publishOption", "schedule")} /> {ui.publishLater}
            </label>
            {view.publishOption === "schedule" && (
              <div className="builder-schedule">
                <Field id={fieldId("date")} label={ui.dateLabel} error={errors["scheduledDate"]}>
                  {(describedBy, invalid) => <input id={fieldId("date")} type="date" min={today} value={view.scheduledDate ?? ""} aria-describedby={describedBy} aria-invalid={invalid} onChange={(event) => edit("scheduledDate", event.target.value || null)} />}
                </Field>
                <Field id={fieldId("time")} label={ui.timeLabel} error={errors["scheduledTime"]}>
                  {(describedBy, invalid) => <input id={fieldId("time")} type="time" value={view.scheduledTime ?? ""} aria-describedby={describedBy} aria-invalid={invalid} onChange={(event) => edit("scheduledTime", event.target.value || null)} />}
                </Field>
                <p className="builder-hint">{fill(ui.timeZoneNote, { zone: timeZone })}</p>
              </div>
            )}
          </fieldset>
          {(errors["items"] || errors[`items.${view.pinItemIndex}.media`]) && (
            <p className="builder-error" role="alert">
              {errors["items"] ?? errors[`items.${view.pinItemIndex}.media`]}
            </p>
          )}
          <div className="builder-publish">
            <button type="button" className="button primary" disabled={disabled || publish.status === "attempted" || publish.status === "publishing"} onClick={() => void runPublish()}>
              {view.publishOption === "schedule" ? ui.schedule : ui.publish}
            </button>
            <p role="status" data-testid="publish-status">
              {publish.status === "attempted" ? ui.statusAttempted : publish.status === "publishing" ? ui.statusPublishing : publish.status === "succeeded" ? ui.statusSucceeded : ""}
            </p>
            {publish.message && (
              <p className="builder-error" role="alert">
                {publish.message}
              </p>
            )}
          </div>
        </div>
      </div>
    </section>
  );
}
