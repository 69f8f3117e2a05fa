// The story pin editor island (/pin-builder/story/): a 9:16 canvas per page, the page strip
// (add, remove, reorder, cover), blocks placed, scaled and turned with the pointer and the keys,
// text edited in place in the fonts GET /v3/storypins/fonts/ offers, the draft's title,
// description, board and schedule. Every edit is one step of the undo history (history.ts) and
// is autosaved a moment later through StoryPinDraftsResource, sending only what changed.
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent } from "react";
import { useStore } from "@nanostores/react";
import { ApiCallError } from "~/api/api.client.ts";
import { parseFieldProblems } from "~/boards/field-problems.ts";
import { fill } from "~/saves/strings.ts";
import { savingApi } from "~/saves/api.client.ts";
import type { PickerData } from "~/saves/picker.ts";
import { isAllowedRatio } from "~/media/aspect-ratio.ts";
import { cropUpload, listDrafts, publishDraft, readUpload, type DraftAnswer, type PublishAnswer } from "~/builder/api.client.ts";
import { boardChoices, problemMessages } from "~/builder/editor.ts";
import { mediaRefOf, previewUrl, type UploadInfo } from "~/builder/media.ts";
import type { MediaRef } from "~/builder/media-ref.ts";
import { $uploadInfo, rememberUpload } from "~/builder/store.client.ts";
import { UploadAborted, UploadRefused, uploadFile } from "~/builder/uploads.client.ts";
import { ChoiceField, Field } from "~/builder/fields.tsx";
import { fontFamily } from "./fonts.ts";
import { validateStory, type StoryBlock, type StoryDraft } from "./story-draft.ts";
import { storyUploadIds } from "./story-publish.ts";
import { canRedo, canUndo, record, redo, replacePresent, startHistory, undo, type History } from "./history.ts";
import {
  EDITOR_BLOCK_TYPES,
  MAX_BLOCKS_PER_PAGE,
  MAX_PAGES,
  addBlock,
  addPage,
  blockName,
  builderVideos,
  changeBlock,
  changePage,
  docOf,
  dragEdits,
  handleKeyEdit,
  historyShortcut,
  isTextEntry,
  keyEdit,
  movePage,
  newStoryId,
  pinIdFrom,
  publishMedia,
  removeBlock,
  removePage,
  rotateDragEdits,
  scaleDragEdits,
  selectBlock,
  showPage,
  storyChanges,
  uploadProcessed,
  withFetchedPage,
  withStory,
  withText,
  type BuilderVideo,
  type MediaProgress,
  type PublishMedia,
  type StoryDoc,
} from "./editor.ts";
import { createStoryDraft, listFonts, lookupUser, readStoryDraft, readWebPage, updateStoryDraft, type FontChoice, type StoryDraftAnswer } from "./api.client.ts";
import type { StoryEditorStrings, StoryUiKey } from "./strings.ts";

export interface StoryEditorProps {
  strings: StoryEditorStrings;
  /** The draft to reopen (?draft=ID); null starts a new story. */
  draftId: string | null;
  /** PIN_CREATION_DISABLED: the story stays editable, nothing is uploaded or published. */
  disabled: boolean;
  /** The page's language tag, for dates and times. */
  language: string;
}

const BUILDER_PATH = "/pin-builder/";
/** The autosave waits this long after the last edit. */
const AUTOSAVE_DELAY_MS = 800;
/** The close-up's canvas width the text sizes are measured on (story-draft.ts TextStyle.size). */
const CANVAS_POINTS = 564;
const TEXT_TYPES: ReadonlySet<string> = new Set(["heading", "paragraph", "link", "ingredient", "supply", "music"]);
const ALIGNMENTS = ["start", "center", "end"] as const;

type Ui = Record<StoryUiKey, string>;
type SaveState = { state: "idle" } | { state: "saving" } | { state: "saved" } | { state: "failed"; message: string } | { state: "invalid" };
type Result = { kind: "published"; url: string } | { kind: "scheduled"; at: number };
type Errors = Readonly<Record<string, string>>;

/** The picture a page or block shows: the close-up's 736x, else any cut. */
const pictureUrl = (info: UploadInfo | undefined): string | null => info?.images?.["736x"]?.url ?? previewUrl(info);

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export default function StoryEditor({ strings, draftId, disabled, language }: StoryEditorProps) {
  const ui = strings.ui;
  const id = useId();
  const [load, setLoad] = useState<"loading" | "ready" | "failed">("loading");
  const [attempt, setAttempt] = useState(0);
  const [saved, setSaved] = useState<StoryDraftAnswer | null>(null);
  const [history, setHistory] = useState<History<StoryDoc> | null>(null);
  const [save, setSave] = useState<SaveState>({ state: "idle" });
  const [serverErrors, setServerErrors] = useState<Errors>({});
  const [fonts, setFonts] = useState<FontChoice[]>([]);
  const [boards, setBoards] = useState<PickerData | null>(null);
  const [boardsFailed, setBoardsFailed] = useState(false);
  const [publishing, setPublishing] = useState(false);
  const [publishError, setPublishError] = useState<string | null>(null);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [musicNote, setMusicNote] = useState(false);
  const [result, setResult] = useState<Result | null>(null);
  const info = useStore($uploadInfo);
  const timeZone = useMemo(() => (typeof Intl === "undefined" ? "UTC" : Intl.DateTimeFormat().resolvedOptions().timeZone), []);
  const formatTime = useMemo(() => {
    const format = new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "short" });
    return (ms: number) => format.format(new Date(ms));
  }, [language]);
  // The autosave timer and the buttons read the latest state, not the render that set them up.
  const latest = useRef({ saved, history, done: false });
  useEffect(() => {
    latest.current = { saved, history, done: result !== null };
  });

  useEffect(() => {
    let live = true;
    const opening = draftId ? readStoryDraft(draftId) : createStoryDraft();
    opening.then(
      (answer) => {
        if (!live) return;
        if (!draftId) history_replaceDraftParam(answer.id);
        setSaved(answer);
        setHistory(startHistory(docOf(answer)));
        setLoad("ready");
      },
      () => live && setLoad("failed"),
    );
    return () => {
      live = false;
    };
  }, [draftId, attempt]);
  // Ctrl/Cmd+Z undoes and Ctrl/Cmd+Shift+Z (or Ctrl+Y) redoes, anywhere on the page except in a text
  // field, where the browser's own undo of the typing applies. Nothing once the story is published.
  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      const action = historyShortcut(event);
      if (!action || event.defaultPrevented || latest.current.done || isTextEntry(event.target as HTMLElement | null)) return;
      event.preventDefault();
      setHistory((before) => (before ? (action === "undo" ? undo(before) : redo(before)) : before));
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
  useEffect(() => {
    listFonts().then(setFonts, () => setFonts([]));
    savingApi()
      .picker(null)
      .then(setBoards, () => setBoardsFailed(true));
  }, []);

  const doc = history?.present ?? null;
  // The pictures a reopened story shows: each upload read once.
  const uploadIds = useMemo(() => (doc ? storyUploadIds(doc.story) : []), [doc]);
  useEffect(() => {
    for (const upload of uploadIds) if (!$uploadInfo.get()[upload]) readUpload(upload).then(rememberUpload, () => undefined);
  }, [uploadIds]);

  const clientErrors = useMemo(() => (doc ? problemMessages(validateStory(doc.story), strings.validation) : {}), [doc, strings.validation]);
  const errors: Errors = { ...serverErrors, ...clientErrors };

  /** Saves what differs from the stored draft; resolves false when it could not. */
  const saveNow = async (): Promise<boolean> => {
    const { saved: stored, history: current } = latest.current;
    if (!stored || !current) return false;
    const sent = current.present;
    const changes = storyChanges(stored, sent, timeZone);
    if (Object.keys(changes).length === 0) return true;
    if (validateStory(sent.story).length > 0) {
      setSave({ state: "invalid" });
      return false;
    }
    setSave({ state: "saving" });
    try {
      const answer = await updateStoryDraft(stored.id, changes);
      setSaved(answer);
      latest.current.saved = answer;
      // The server's copy replaces the edit it answers (stickers marked removed, say), unless the person edited again meanwhile.
      setHistory((before) => (before && before.present === sent ? replacePresent(before, docOf(answer)) : before));
      setServerErrors({});
      setSave({ state: "saved" });
      return true;
    } catch (error) {
      setServerErrors(error instanceof ApiCallError ? parseFieldProblems(error.detail) : {});
      setSave({ state: "failed", message: messageOf(error) });
      return false;
    }
  };

  useEffect(() => {
    if (!doc || !saved || Object.keys(storyChanges(saved, doc, timeZone)).length === 0) return;
    const timer = setTimeout(() => void saveNow(), AUTOSAVE_DELAY_MS);
    return () => clearTimeout(timer);
    // saveNow reads the latest state through the ref.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [doc]);

  if (load === "failed")
    return (
      <p className="builder-error" role="alert">
        {ui.loadFailed}{" "}
        <button type="button" className="button builder-small" onClick={() => (setLoad("loading"), setAttempt((count) => count + 1))}>
          {ui.retry}
        </button>
      </p>
    );
  if (!doc || !saved || !history) return <p role="status">{ui.loading}</p>;

  /** One undoable edit. */
  const commit = (next: StoryDoc) => setHistory((before) => (before ? record(before, next) : before));
  const commitStory = (change: (story: StoryDraft) => StoryDraft) =>
    setHistory((before) => {
      if (!before) return before;
      const story = change(before.present.story);
      // A change that changes nothing (selecting the selected block) is no undo step.
      return story === before.present.story ? before : record(before, withStory(before.present, story));
    });
  /** A change shown at once with no undo step of its own: a selection, or a drag recorded as one step when it ends. */
  const preview = (change: (story: StoryDraft) => StoryDraft) => setHistory((before) => (before ? replacePresent(before, withStory(before.present, change(before.present.story))) : before));
  const clearError = (field: string) => setServerErrors(({ [field]: _cleared, ...rest }) => rest);

  const runPublish = async () => {
    setPublishError(null);
    setPublishing(true);
    try {
      if (!(await saveNow())) return;
      // Each media item's progress (spec "publishProgress"): its upload read back and checked
      // processed, one after another. The server's publish decides, and names any that is not.
      const items = publishMedia(latest.current.history?.present.story ?? doc.story);
      const mark = (ref: string, state: MediaProgress) => setProgress((before) => (before ? { ...before, states: { ...before.states, [ref]: state } } : before));
      setProgress({ items, states: Object.fromEntries(items.map((item) => [item.ref, "waiting" as const])) });
      for (const item of items) {
        mark(item.ref, "processing");
        const ready = await readUpload(item.ref).then(
          (upload) => (rememberUpload(upload), uploadProcessed(upload, item.kind)),
          () => false,
        );
        mark(item.ref, ready ? "ready" : "failed");
      }
      const answer: PublishAnswer = await publishDraft(saved.id);
      setResult(answer.status === "succeeded" ? { kind: "published", url: answer.pin.url } : { kind: "scheduled", at: answer.scheduled_pin.scheduled_ts });
    } catch (error) {
      if (error instanceof ApiCallError) setServerErrors(parseFieldProblems(error.detail));
      setPublishError(fill(ui.publishFailed, { message: messageOf(error) }));
    } finally {
      setPublishing(false);
    }
  };

  if (result)
    return (
      <div className="builder-result" role="status" data-testid="publish-result">
        <p>
          {result.kind === "published" ? (
            <>
              {ui.published} <a href={result.url}>{ui.seePin}</a>
            </>
          ) : (
            fill(ui.scheduledFor, { time: formatTime(result.at) })
          )}
        </p>
        <p>
          <a href={BUILDER_PATH}>{ui.backToBuilder}</a>
        </p>
      </div>
    );

  const story = doc.story;
  const pageIndex = story.selectedPageIndex;
  const page = story.pages[pageIndex]!;
  const selected = page.blocks.find((block) => block.id === page.selectedBlockId) ?? null;
  const selectedIndex = selected ? page.blocks.indexOf(selected) : -1;
  const fieldId = (name: string) => `${id}-${name}`;
  const boardSections = doc.boardId ? (boards?.sections[doc.boardId] ?? []) : [];
  const today = new Date().toLocaleDateString("en-CA");
  const general = save.state === "failed" && Object.keys(serverErrors).length === 0 ? fill(ui.saveFailed, { message: save.message }) : null;
  const shown = new Set([
    "title",
    "description",
    "boardId",
    "sectionId",
    "scheduledDate",
    "scheduledTime",
    `story.pages.${pageIndex}.media`,
    "story.pages",
    ...(selectedIndex >= 0 ? ["text", "fontId", "media", "linkBlock.srcUrl", "userId", "pinId"].map((name) => `story.pages.${pageIndex}.blocks.${selectedIndex}.${name}`) : []),
  ]);
  const elsewhere = Object.entries(errors).filter(([field]) => !shown.has(field));
  const blockError = (name: string) => (selectedIndex >= 0 ? errors[`story.pages.${pageIndex}.blocks.${selectedIndex}.${name}`] : undefined);

  return (
    <div className="story-editor">
      {disabled && (
        <p className="builder-banner" role="status">
          {ui.disabled}
        </p>
      )}
      <div className="builder-editor-head">
        <a
          className="button builder-small"
          href={BUILDER_PATH}
          onClick={(event) => {
            // The last edit is saved before the page goes, not cut off by it.
            event.preventDefault();
            void saveNow().then(() => location.assign(BUILDER_PATH));
          }}
        >
          {ui.backToBuilder}
        </a>
        <div className="story-history">
          <button type="button" className="button builder-small" disabled={!canUndo(history)} onClick={() => setHistory(undo(history))}>
            {ui.undo}
          </button>
          <button type="button" className="button builder-small" disabled={!canRedo(history)} onClick={() => setHistory(redo(history))}>
            {ui.redo}
          </button>
        </div>
        <p className="builder-save-status" role="status" data-testid="save-status">
          {save.state === "saving" ? ui.saving : save.state === "invalid" ? ui.fixErrors : (general ?? (saved.lastSavedTime ? fill(ui.saved, { time: formatTime(saved.lastSavedTime) }) : ui.notSaved))}
        </p>
      </div>

      <PageStrip ui={ui} story={story} info={info} onStory={commitStory} onShow={preview} />

      <div className="story-editor-grid">
        <div className="story-stage">
          <Canvas ui={ui} strings={strings} story={story} info={info} fonts={fonts} helpId={fieldId("canvas-help")} onStory={commitStory} onPreview={preview} onCommitFrom={(start) => setHistory((before) => (before ? record({ ...before, present: start }, before.present) : before))} current={doc} />
          <p className="builder-hint" id={fieldId("canvas-help")}>
            {ui.canvasHelp}
          </p>
        </div>

        <div className="story-panel">
          <section className="story-section" aria-labelledby={fieldId("page-heading")}>
            <h2 id={fieldId("page-heading")}>
              {ui.pageSettings} · {fill(ui.pageButton, { number: pageIndex + 1 })}
            </h2>
            <Field id={fieldId("background")} label={ui.backgroundLabel} error={null}>
              {() => <input id={fieldId("background")} type="color" value={page.backgroundColor} onChange={(event) => commitStory((before) => changePage(before, pageIndex, { backgroundColor: event.target.value }))} />}
            </Field>
            <MediaControl
              key={`page-${page.id}`}
              ui={ui}
              label={ui.pageMediaLabel}
              pick={page.media ? ui.replacePageMedia : ui.uploadPageMedia}
              media={page.media}
              info={info}
              disabled={disabled}
              story9x16
              error={errors[`story.pages.${pageIndex}.media`]}
              onMedia={(media) => {
                clearError(`story.pages.${pageIndex}.media`);
                commitStory((before) => changePage(before, pageIndex, { media }));
              }}
              remove={ui.removePageMedia}
            />
            <label className="story-check">
              <input type="radio" name={fieldId("cover")} checked={story.coverPageIndex === pageIndex} onChange={() => commitStory((before) => ({ ...before, coverPageIndex: pageIndex }))} /> {ui.makeCover}
            </label>
          </section>

          <section className="story-section" aria-labelledby={fieldId("blocks-heading")}>
            <h2 id={fieldId("blocks-heading")}>{ui.addBlockLabel}</h2>
            <div className="story-add-blocks">
              {EDITOR_BLOCK_TYPES.map((type) => (
                <button key={type} type="button" className="button builder-small" disabled={page.blocks.length >= MAX_BLOCKS_PER_PAGE} onClick={() => commitStory((before) => addBlock(before, newStoryId("block"), type))}>
                  + {strings.blockTypes[type]}
                </button>
              ))}
              {/* Music needs a licensed source whose attribution is known; there is none, so the picker says so rather than offering any. */}
              <button type="button" className="button builder-small" aria-expanded={musicNote} aria-controls={fieldId("music-note")} onClick={() => setMusicNote((open) => !open)}>
                + {strings.blockTypes.music}
              </button>
            </div>
            <p className="builder-hint" id={fieldId("music-note")} role="status" data-testid="music-note">
              {musicNote ? ui.musicNone : ""}
            </p>
          </section>

          <section className="story-section" aria-labelledby={fieldId("block-heading")} data-testid="block-settings">
            <h2 id={fieldId("block-heading")}>{ui.blockSettings}</h2>
            {selected ? (
              <BlockSettings
                key={selected.id}
                ui={ui}
                strings={strings}
                block={selected}
                fonts={fonts}
                info={info}
                disabled={disabled}
                fieldId={fieldId}
                error={blockError}
                onChange={(change) => commitStory((before) => changeBlock(before, selected.id, change))}
                onRemove={() => commitStory((before) => removeBlock(before, selected.id))}
              />
            ) : (
              <p className="builder-hint">{ui.noBlockSelected}</p>
            )}
          </section>

          <section className="story-section" aria-label={ui.publishLabel}>
            <Field id={fieldId("title")} label={ui.titleLabel} {...(story.isTitleEdited ? {} : { help: ui.autoTitle })} error={errors["title"]}>
              {(describedBy, invalid) => (
                <input id={fieldId("title")} type="text" value={doc.title} aria-describedby={describedBy} aria-invalid={invalid} onChange={(event) => (clearError("title"), commit(withText(doc, "title", event.target.value)))} />
              )}
            </Field>
            <Field id={fieldId("description")} label={ui.descriptionLabel} {...(story.isDescriptionEdited ? {} : { help: ui.autoDescription })} error={errors["description"]}>
              {(describedBy, invalid) => (
                <textarea id={fieldId("description")} rows={3} value={doc.description} aria-describedby={describedBy} aria-invalid={invalid} onChange={(event) => (clearError("description"), commit(withText(doc, "description", event.target.value)))} />
              )}
            </Field>
            <ChoiceField
              id={fieldId("board")}
              label={ui.boardLabel}
              error={errors["boardId"] ?? (boardsFailed ? ui.boardsFailed : null)}
              value={doc.boardId}
              empty={ui.chooseBoard}
              choices={boardChoices(boards)}
              onChange={(value) => (clearError("boardId"), commit({ ...doc, boardId: value, sectionId: null }))}
            />
            {boardSections.length > 0 && (
              <ChoiceField id={fieldId("section")} label={ui.sectionLabel} error={errors["sectionId"]} value={doc.sectionId} empty={ui.noSection} choices={boardSections.map((section) => ({ id: section.id, name: section.title }))} onChange={(value) => commit({ ...doc, sectionId: value })} />
            )}
            <fieldset className="builder-publish-option">
              <legend>{ui.publishLabel}</legend>
              <label>
                <input type="radio" name={fieldId("when")} checked={doc.publishOption === "publish-immediately"} onChange={() => commit({ ...doc, publishOption: "publish-immediately" })} /> {ui.publishNow}
              </label>
              <label>
                <input type="radio" name={fieldId("when")} checked={doc.publishOption === "schedule"} onChange={() => commit({ ...doc, publishOption: "schedule" })} /> {ui.publishLater}
              </label>
              {doc.publishOption === "schedule" && (
                <div className="builder-schedule">
                  <Field id={fieldId("date")} label={ui.dateLabel} error={errors["scheduledDate"]}>
                    {(describedBy, invalid) => <input id={fieldId("date")} type="date" min={today} value={doc.scheduledDate ?? ""} aria-describedby={describedBy} aria-invalid={invalid} onChange={(event) => commit({ ...doc, scheduledDate: event.target.value || null })} />}
                  </Field>
                  <Field id={fieldId("time")} label={ui.timeLabel} error={errors["scheduledTime"]}>
                    {(describedBy, invalid) => <input id={fieldId("time")} type="time" value={doc.scheduledTime ?? ""} aria-describedby={describedBy} aria-invalid={invalid} onChange={(event) => commit({ ...doc, scheduledTime: event.target.value || null })} />}
                  </Field>
                  <p className="builder-hint">{fill(ui.timeZoneNote, { zone: timeZone })}</p>
                </div>
              )}
            </fieldset>
            {elsewhere.length > 0 && (
              <div className="builder-error" role="alert" data-testid="story-problems">
                <p>{ui.otherProblems}</p>
                <ul>
                  {elsewhere.map(([field, message]) => (
                    <li key={field}>{problemPlace(field, ui)}{message}</li>
                  ))}
                </ul>
              </div>
            )}
            <div className="builder-publish">
              <button type="button" className="button primary" disabled={disabled || publishing} onClick={() => void runPublish()}>
                {doc.publishOption === "schedule" ? ui.schedule : ui.publish}
              </button>
              <p role="status" data-testid="publish-status">
                {publishing ? ui.statusPublishing : ""}
              </p>
              {progress && progress.items.length > 0 && <PublishProgress ui={ui} strings={strings} progress={progress} />}
              {publishError && (
                <p className="builder-error" role="alert">
                  {publishError}
                </p>
              )}
            </div>
          </section>
        </div>
      </div>
    </div>
  );
}

interface Progress {
  items: PublishMedia[];
  states: Readonly<Record<string, MediaProgress>>;
}

/** Each media item's publishing progress: where it is in the story and whether it is processed, with a bar for all of them. */
function PublishProgress({ ui, strings, progress }: { ui: Ui; strings: StoryEditorStrings; progress: Progress }) {
  const done = progress.items.filter((item) => progress.states[item.ref] === "ready").length;
  const summary = fill(ui.progressSummary, { done, total: progress.items.length });
  const stateText: Record<MediaProgress, string> = { waiting: ui.progressWaiting, processing: ui.progressProcessing, ready: ui.progressReady, failed: ui.progressFailed };
  return (
    <div className="story-progress" data-testid="publish-progress">
      <progress max={progress.items.length} value={done} aria-label={summary} />
      <p aria-live="polite">{summary}</p>
      <ul>
        {progress.items.map((item) => {
          const state = progress.states[item.ref] ?? "waiting";
          const place = item.blockType === null ? fill(ui.progressPage, { number: item.page + 1 }) : fill(ui.progressBlock, { number: item.page + 1, type: strings.blockTypes[item.blockType] });
          return (
            <li key={item.ref} data-state={state} data-testid="publish-progress-item">
              {place}: {stateText[state]}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** Where a problem not beside its control is: "Page 2 · " before the message, when a page is named. */
function problemPlace(field: string, ui: Ui): string {
  const page = /^story\.pages\.(\d+)\./.exec(field);
  return page ? `${fill(ui.pageButton, { number: Number(page[1]) + 1 })} · ` : "";
}

/** Puts the new draft's id in the address, so a reload reopens it rather than starting another. */
function history_replaceDraftParam(draftId: string): void {
  const url = new URL(location.href);
  url.searchParams.set("draft", draftId);
  window.history.replaceState(null, "", url);
}

type StoryChange = (change: (story: StoryDraft) => StoryDraft) => void;
/** What a pointer drag on the canvas does: the block moves, or one of its handles scales or turns it. */
type DragMode = "move" | "scale" | "rotate";

/** The pages in order: show one (no undo step: it changes what is seen, not the story), add, reorder, remove. */
function PageStrip({ ui, story, info, onStory, onShow }: { ui: Ui; story: StoryDraft; info: Record<string, UploadInfo>; onStory: StoryChange; onShow: StoryChange }) {
  const count = story.pages.length;
  return (
    <nav className="story-strip" aria-label={ui.pagesLabel}>
      <ol>
        {story.pages.map((page, at) => {
          const number = at + 1;
          const current = at === story.selectedPageIndex;
          const src = page.media ? pictureUrl(info[page.media.ref]) : null;
          return (
            <li key={page.id} className={current ? "story-strip-thumb story-strip-current" : "story-strip-thumb"} data-testid="story-page">
              <button type="button" className="story-strip-show" aria-current={current ? "page" : undefined} onClick={() => onShow((before) => showPage(before, at))} style={{ backgroundColor: page.backgroundColor }}>
                {src && <img src={src} alt="" />}
                <span className="story-strip-number">{fill(ui.pageButton, { number })}</span>
                {story.coverPageIndex === at && <span className="builder-badge">{ui.coverMark}</span>}
              </button>
              <div className="builder-item-actions">
                {at > 0 && (
                  <button type="button" className="builder-icon" aria-label={fill(ui.movePageBack, { number })} onClick={() => onStory((before) => movePage(before, at, at - 1))}>
                    <span className="builder-arrow" aria-hidden="true">‹</span>
                  </button>
                )}
                {at < count - 1 && (
                  <button type="button" className="builder-icon" aria-label={fill(ui.movePageForward, { number })} onClick={() => onStory((before) => movePage(before, at, at + 1))}>
                    <span className="builder-arrow" aria-hidden="true">›</span>
                  </button>
                )}
                {count > 1 && (
                  <button type="button" className="builder-icon" aria-label={fill(ui.removePage, { number })} onClick={() => onStory((before) => removePage(before, at))}>
                    <span aria-hidden="true">×</span>
                  </button>
                )}
              </div>
            </li>
          );
        })}
      </ol>
      <button type="button" className="button builder-small" disabled={count >= MAX_PAGES} onClick={() => onStory((before) => addPage(before, newStoryId("page")))}>
        + {ui.addPage}
      </button>
    </nav>
  );
}

interface CanvasProps {
  ui: Ui;
  strings: StoryEditorStrings;
  story: StoryDraft;
  current: StoryDoc;
  info: Record<string, UploadInfo>;
  fonts: readonly FontChoice[];
  helpId: string;
  onStory: (change: (story: StoryDraft) => StoryDraft) => void;
  onPreview: (change: (story: StoryDraft) => StoryDraft) => void;
  /** Records the present as one step after `start` (the end of a drag). */
  onCommitFrom: (start: StoryDoc) => void;
}

function Canvas({ ui, strings, story, current, info, fonts, helpId, onStory, onPreview, onCommitFrom }: CanvasProps) {
  const canvas = useRef<HTMLDivElement>(null);
  const drag = useRef<{ pointerId: number; mode: DragMode; x: number; y: number; start: StoryDoc; blockId: string; moved: boolean } | null>(null);
  const page = story.pages[story.selectedPageIndex]!;
  const src = page.media ? pictureUrl(info[page.media.ref]) : null;
  const familyOf = (fontId: string) => fonts.find((font) => font.id === fontId)?.family ?? fontFamily(fontId);

  /** A pointer pressed on a block (moves it) or on one of its handles (scales or turns it). */
  const onPointerDown = (block: StoryBlock, mode: DragMode) => (event: PointerEvent<HTMLButtonElement>) => {
    if (event.button !== 0) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    // A handle's press must not also start the block's move underneath it.
    event.stopPropagation();
    drag.current = { pointerId: event.pointerId, mode, x: event.clientX, y: event.clientY, start: current, blockId: block.id, moved: false };
    onPreview((before) => selectBlock(before, block.id));
  };
  const onPointerMove = (event: PointerEvent<HTMLButtonElement>) => {
    const active = drag.current;
    const box = canvas.current?.getBoundingClientRect();
    if (!active || active.pointerId !== event.pointerId || !box) return;
    const startBlock = active.start.story.pages.flatMap((each) => each.blocks).find((block) => block.id === active.blockId);
    if (!startBlock) return;
    active.moved = true;
    const from = { x: active.x, y: active.y };
    const to = { x: event.clientX, y: event.clientY };
    // The block's centre on the screen: its edits place the centre as fractions of the canvas.
    const centre = { x: box.left + startBlock.edits.left * box.width, y: box.top + startBlock.edits.top * box.height };
    const edits =
      active.mode === "scale"
        ? scaleDragEdits(startBlock.edits, centre, from, to)
        : active.mode === "rotate"
          ? rotateDragEdits(startBlock.edits, centre, from, to)
          : dragEdits(startBlock.edits, to.x - from.x, to.y - from.y, box.width, box.height);
    onPreview((before) => changeBlock(before, active.blockId, (block) => ({ ...block, edits })));
  };
  const onPointerEnd = (event: PointerEvent<HTMLButtonElement>) => {
    const active = drag.current;
    if (!active || active.pointerId !== event.pointerId) return;
    drag.current = null;
    if (active.moved) onCommitFrom(active.start);
  };
  const onKeyDown = (block: StoryBlock, handle: "scale" | "rotate" | null) => (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const edit = handle ? handleKeyEdit(handle, event.key, event.shiftKey) : keyEdit(event.key, event.shiftKey);
    if (!edit) return;
    event.preventDefault();
    onStory((before) => changeBlock(selectBlock(before, block.id), block.id, (each) => ({ ...each, edits: edit(each.edits) })));
  };
  const pointerHandlers = (block: StoryBlock, mode: DragMode) => ({
    onPointerDown: onPointerDown(block, mode),
    onPointerMove,
    onPointerUp: onPointerEnd,
    onPointerCancel: onPointerEnd,
  });

  return (
    <div
      ref={canvas}
      className="story-canvas"
      role="group"
      aria-label={fill(ui.canvasLabel, { number: story.selectedPageIndex + 1, count: story.pages.length })}
      style={{ backgroundColor: page.backgroundColor }}
      data-testid="story-canvas"
      onPointerDown={(event) => {
        if (event.target === event.currentTarget) onPreview((before) => selectBlock(before, null));
      }}
    >
      {src && <img className="story-canvas-media" src={src} alt="" />}
      {page.blocks.map((block, at) => {
        const selected = block.id === page.selectedBlockId;
        const editing = selected && TEXT_TYPES.has(block.type);
        const { left, top, scale, transform } = block.edits;
        const name = blockName(block, at + 1, strings.blockTypes, ui.blockName);
        const textStyle = {
          fontFamily: familyOf(block.fontId),
          fontSize: `${(block.style.size / CANVAS_POINTS) * 100}cqi`,
          color: block.style.color,
          letterSpacing: `${(block.style.letterSpacing / CANVAS_POINTS) * 100}cqi`,
          lineHeight: block.style.lineHeight,
          textAlign: ALIGNMENTS[block.style.alignment],
        } as const;
        return (
          <div
            key={block.id}
            className={selected ? "story-block story-block-selected" : "story-block"}
            data-testid="story-block"
            data-block-type={block.type}
            style={{ left: `${left * 100}%`, top: `${top * 100}%`, transform: `translate(-50%, -50%) rotate(${transform.rotate}deg) scale(${scale * transform.scaleX}, ${scale * transform.scaleY})` }}
          >
            <button
              type="button"
              className={editing ? "story-block-handle story-block-grip" : "story-block-handle"}
              aria-label={name}
              aria-pressed={selected}
              aria-describedby={helpId}
              {...pointerHandlers(block, "move")}
              onKeyDown={onKeyDown(block, null)}
              onClick={() => onPreview((before) => selectBlock(before, block.id))}
            >
              {editing ? <span aria-hidden="true">✥</span> : <BlockFace ui={ui} strings={strings} block={block} info={info} textStyle={textStyle} />}
            </button>
            {selected && (
              <>
                {/* The handles keep their size on the screen whatever the block's scale: each sits in an
                    anchor that undoes the block's scale (its turn they share, so the turn handle stays above the block). */}
                <span className="story-handle-anchor story-handle-corner" style={{ transform: `scale(${1 / (scale * transform.scaleX)}, ${1 / (scale * transform.scaleY)})` }}>
                  <button type="button" className="story-handle" aria-label={fill(ui.resizeHandle, { name })} aria-describedby={helpId} data-testid="scale-handle" {...pointerHandlers(block, "scale")} onKeyDown={onKeyDown(block, "scale")}>
                    <span className="story-handle-dot story-handle-square" aria-hidden="true" />
                  </button>
                </span>
                <span className="story-handle-anchor story-handle-top" style={{ transform: `scale(${1 / (scale * transform.scaleX)}, ${1 / (scale * transform.scaleY)})` }}>
                  <button type="button" className="story-handle story-handle-turn" aria-label={fill(ui.rotateHandle, { name })} aria-describedby={helpId} data-testid="rotate-handle" {...pointerHandlers(block, "rotate")} onKeyDown={onKeyDown(block, "rotate")}>
                    <span className="story-handle-dot" aria-hidden="true">↻</span>
                  </button>
                </span>
              </>
            )}
            {editing && (
              <textarea
                className={block.type === "heading" ? "story-block-text story-heading-face" : "story-block-text"}
                dir="auto"
                aria-label={`${strings.blockTypes[block.type]} · ${ui.textLabel}`}
                value={block.type === "link" ? (block.linkBlock?.text ?? block.text) : block.text}
                placeholder={ui.emptyBlock}
                rows={Math.max(1, block.text.split("\n").length)}
                style={textStyle}
                onChange={(event) => {
                  const text = event.target.value;
                  onStory((before) => changeBlock(before, block.id, (each) => (each.type === "link" && each.linkBlock ? { ...each, text, linkBlock: { ...each.linkBlock, text } } : { ...each, text })));
                }}
              />
            )}
          </div>
        );
      })}
    </div>
  );
}

function BlockFace({ ui, strings, block, info, textStyle }: { ui: Ui; strings: StoryEditorStrings; block: StoryBlock; info: Record<string, UploadInfo>; textStyle: Record<string, unknown> }) {
  if (block.type === "image") {
    const src = block.media ? previewUrl(info[block.media.ref]) : null;
    return src ? <img className="story-block-picture" src={src} alt="" /> : <span className="story-sticker">{strings.blockTypes.image}</span>;
  }
  if (block.type === "video") {
    const src = block.media ? previewUrl(info[block.media.ref]) : null;
    return src ? <img className="story-block-picture" src={src} alt="" /> : <span className="story-sticker">{strings.blockTypes.video}</span>;
  }
  if (block.type === "product_sticker" || block.type === "mention_sticker") {
    return <span className={block.isRemoved ? "story-sticker story-sticker-removed" : "story-sticker"}>{block.isRemoved ? ui.stickerRemoved : strings.blockTypes[block.type]}</span>;
  }
  const text = block.type === "link" ? block.linkBlock?.text || block.text || block.linkBlock?.srcUrl || "" : block.text;
  return (
    <span className={block.type === "link" ? "story-block-face story-sticker" : block.type === "heading" ? "story-block-face story-heading-face" : "story-block-face"} style={textStyle} dir="auto">
      {text || ui.emptyBlock}
    </span>
  );
}

interface BlockSettingsProps {
  ui: Ui;
  strings: StoryEditorStrings;
  block: StoryBlock;
  fonts: readonly FontChoice[];
  info: Record<string, UploadInfo>;
  disabled: boolean;
  fieldId: (name: string) => string;
  error: (name: string) => string | undefined;
  onChange: (change: (block: StoryBlock) => StoryBlock) => void;
  onRemove: () => void;
}

function BlockSettings({ ui, strings, block, fonts, info, disabled, fieldId, error, onChange, onRemove }: BlockSettingsProps) {
  const [product, setProduct] = useState(block.pinId ?? "");
  const [username, setUsername] = useState("");
  const [mention, setMention] = useState<{ found: string | null; failed: boolean }>({ found: null, failed: false });
  const [reading, setReading] = useState<{ busy: boolean; failed: string | null }>({ busy: false, failed: null });
  const texty = TEXT_TYPES.has(block.type);
  const readPage = async () => {
    const url = block.linkBlock?.srcUrl ?? "";
    if (url === "") return;
    setReading({ busy: true, failed: null });
    try {
      const found = await readWebPage(url);
      onChange((each) => (each.linkBlock?.srcUrl === url ? withFetchedPage(each, found) : each));
      setReading({ busy: false, failed: null });
    } catch (failure) {
      setReading({ busy: false, failed: fill(ui.fetchLinkFailed, { message: messageOf(failure) }) });
    }
  };
  const findPerson = async () => {
    try {
      const person = await lookupUser(username.trim().replace(/^@/, ""));
      setMention({ found: person.full_name || person.username, failed: false });
      onChange((each) => ({ ...each, userId: person.id }));
    } catch {
      setMention({ found: null, failed: true });
    }
  };
  return (
    <div className="story-block-settings">
      <p className="story-block-type">{strings.blockTypes[block.type]}</p>
      {texty && (
        <>
          <Field id={fieldId("font")} label={ui.fontLabel} error={error("fontId")}>
            {(describedBy, invalid) => (
              <select id={fieldId("font")} value={block.fontId} aria-describedby={describedBy} aria-invalid={invalid} onChange={(event) => onChange((each) => ({ ...each, fontId: event.target.value }))}>
                {(fonts.some((font) => font.id === block.fontId) ? fonts : [{ id: block.fontId, name: block.fontId, family: "" }, ...fonts]).map((font) => (
                  <option key={font.id} value={font.id}>
                    {font.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field id={fieldId("text-colour")} label={ui.textColorLabel} error={null}>
            {() => <input id={fieldId("text-colour")} type="color" value={block.style.color} onChange={(event) => onChange((each) => ({ ...each, style: { ...each.style, color: event.target.value } }))} />}
          </Field>
          <fieldset className="story-align">
            <legend>{ui.alignLabel}</legend>
            {([ui.alignStart, ui.alignCentre, ui.alignEnd] as const).map((label, alignment) => (
              <label key={label}>
                <input type="radio" name={fieldId("align")} checked={block.style.alignment === alignment} onChange={() => onChange((each) => ({ ...each, style: { ...each.style, alignment: alignment as 0 | 1 | 2 } }))} /> {label}
              </label>
            ))}
          </fieldset>
          {error("text") && (
            <p className="builder-error" role="alert">
              {error("text")}
            </p>
          )}
        </>
      )}
      {block.type === "link" && (
        <Field id={fieldId("link-url")} label={ui.linkUrlLabel} error={error("linkBlock.srcUrl")}>
          {(describedBy, invalid) => (
            <input
              id={fieldId("link-url")}
              type="url"
              inputMode="url"
              dir="ltr"
              value={block.linkBlock?.srcUrl ?? ""}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              onChange={(event) => {
                const srcUrl = event.target.value.trim();
                onChange((each) => ({ ...each, linkBlock: { text: each.text, canonicalUrl: null, imageSignature: null, imageUrl: null, isFetching: false, ...each.linkBlock, srcUrl } }));
              }}
            />
          )}
        </Field>
      )}
      {block.type === "link" && (
        <div className="story-inline">
          <button type="button" className="button builder-small" disabled={reading.busy || !block.linkBlock?.srcUrl} onClick={() => void readPage()}>
            {reading.busy ? ui.fetchingLink : ui.fetchLink}
          </button>
          <p className="builder-error" role="status">
            {reading.failed ?? ""}
          </p>
        </div>
      )}
      {block.type === "image" && (
        <MediaControl ui={ui} label={ui.blockImageLabel} pick={ui.uploadBlockImage} media={block.media} info={info} disabled={disabled} story9x16={false} error={error("media")} onMedia={(media) => onChange((each) => ({ ...each, media }))} remove={null} />
      )}
      {block.type === "video" && <VideoChoice ui={ui} fieldId={fieldId} media={block.media} error={error("media")} onMedia={(media) => onChange((each) => ({ ...each, media }))} />}
      {block.type === "product_sticker" && (
        <Field id={fieldId("product")} label={ui.productLabel} help={ui.productHelp} error={error("pinId") ?? (product.trim() !== "" && pinIdFrom(product) === null ? ui.productUnknown : null)}>
          {(describedBy, invalid) => (
            <input
              id={fieldId("product")}
              type="text"
              dir="ltr"
              value={product}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              onChange={(event) => {
                const value = event.target.value;
                setProduct(value);
                const pinId = pinIdFrom(value);
                if (pinId !== null || value.trim() === "") onChange((each) => ({ ...each, pinId }));
              }}
            />
          )}
        </Field>
      )}
      {block.type === "mention_sticker" && (
        <Field id={fieldId("mention")} label={ui.mentionLabel} error={error("userId") ?? (mention.failed ? ui.mentionNotFound : null)}>
          {(describedBy, invalid) => (
            <div className="story-inline">
              <input id={fieldId("mention")} type="text" dir="ltr" value={username} aria-describedby={describedBy} aria-invalid={invalid} onChange={(event) => setUsername(event.target.value)} />
              <button type="button" className="button builder-small" disabled={username.trim() === ""} onClick={() => void findPerson()}>
                {ui.mentionFind}
              </button>
            </div>
          )}
        </Field>
      )}
      {block.type === "mention_sticker" && (mention.found || block.userId) && <p className="builder-hint">{fill(ui.mentionFound, { name: mention.found ?? `#${block.userId}` })}</p>}
      {block.isRemoved && <p className="builder-hint">{ui.stickerRemoved}</p>}
      <button type="button" className="button builder-small" onClick={onRemove}>
        {ui.removeBlock}
      </button>
    </div>
  );
}

/** Builder draft pages read for their videos: enough for anyone's recent uploads, and bounded. */
const VIDEO_DRAFT_PAGES = 3;

/** A video block's video: one the person already uploaded in the builder (its drafts' videos), chosen from a list. */
function VideoChoice({ ui, fieldId, media, error, onMedia }: { ui: Ui; fieldId: (name: string) => string; media: MediaRef | null; error: string | undefined; onMedia: (media: MediaRef | null) => void }) {
  const [videos, setVideos] = useState<BuilderVideo[] | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    (async () => {
      const drafts: DraftAnswer[] = [];
      let bookmark: string | null = null;
      for (let page = 0; page < VIDEO_DRAFT_PAGES; page++) {
        const answer = await listDrafts(bookmark);
        drafts.push(...answer.drafts);
        bookmark = answer.bookmark;
        if (bookmark === null) break;
      }
      return builderVideos(drafts);
    })().then(
      (found) => {
        if (!live) return;
        setVideos(found);
        for (const video of found) if (!$uploadInfo.get()[video.media.ref]) readUpload(video.media.ref).then(rememberUpload, () => undefined);
      },
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, []);
  const choices = videos ?? [];
  // A chosen video no longer in the drafts (published since, say) stays listed, so the choice shows as made.
  const listed = media && !choices.some((video) => video.media.ref === media.ref) ? [{ media, title: "" }, ...choices] : choices;
  return (
    <Field id={fieldId("video")} label={ui.videoLabel} help={videos !== null && videos.length === 0 ? ui.videoNone : ui.videoHelp} error={error ?? (failed ? ui.videosFailed : null)}>
      {(describedBy, invalid) => (
        <select
          id={fieldId("video")}
          value={media?.ref ?? ""}
          aria-describedby={describedBy}
          aria-invalid={invalid}
          disabled={videos === null && !failed}
          onChange={(event) => onMedia(listed.find((video) => video.media.ref === event.target.value)?.media ?? null)}
        >
          <option value="">{ui.videoChoose}</option>
          {listed.map((video, at) => (
            <option key={video.media.ref} value={video.media.ref}>
              {video.title || fill(ui.videoUntitled, { number: at + 1 })}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

interface MediaControlProps {
  ui: Ui;
  label: string;
  pick: string;
  media: MediaRef | null;
  info: Record<string, UploadInfo>;
  disabled: boolean;
  /** A story page: its image must be 9:16, and one that is not is offered the crop. */
  story9x16: boolean;
  error: string | undefined;
  onMedia: (media: MediaRef | null) => void;
  /** The remove button's words; null offers none. */
  remove: string | null;
}

/** An image upload with its progress (the builder's upload), the 9:16 crop offer for a page, and its error slot. */
function MediaControl({ ui, label, pick, media, info, disabled, story9x16, error, onMedia, remove }: MediaControlProps) {
  const inputId = useId();
  const [upload, setUpload] = useState<{ percent: number; abort: () => void } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [cropping, setCropping] = useState(false);
  const start = (file: File | undefined) => {
    if (!file) return;
    setProblem(null);
    const call = uploadFile(file, { onProgress: (loaded, total) => setUpload((before) => (before ? { ...before, percent: total > 0 ? Math.round((loaded / total) * 100) : 0 } : before)) }, ui.networkError);
    setUpload({ percent: 0, abort: call.abort });
    call.promise.then(
      (uploaded) => {
        rememberUpload(uploaded);
        setUpload(null);
        onMedia(mediaRefOf(uploaded));
      },
      (failure) => {
        setUpload(null);
        if (!(failure instanceof UploadAborted)) setProblem(fill(ui.uploadFailed, { message: failure instanceof UploadRefused ? failure.message : ui.networkError }));
      },
    );
  };
  const crop = async () => {
    if (!media) return;
    setCropping(true);
    setProblem(null);
    try {
      const cut = await cropUpload(media.ref, "9:16");
      rememberUpload(cut);
      onMedia({ ...media, width: cut.width, height: cut.height });
    } catch (failure) {
      setProblem(failure instanceof ApiCallError ? `${ui.cropFailed} ${failure.message}` : ui.cropFailed);
    } finally {
      setCropping(false);
    }
  };
  const needsCrop = story9x16 && media?.type === "image" && media.source === "uploaded" && media.width !== null && media.height !== null && !isAllowedRatio(media.width, media.height, "story");
  const src = media ? previewUrl(info[media.ref]) : null;
  const errorId = `${inputId}-error`;
  return (
    <div className="builder-field story-media">
      <span className="story-media-label">{label}</span>
      {src && <img className="story-media-preview" src={src} alt="" />}
      <input
        id={inputId}
        className="visually-hidden builder-file-input"
        type="file"
        accept="image/jpeg,image/png,image/webp,image/gif"
        disabled={disabled || upload !== null}
        aria-describedby={error || problem ? errorId : undefined}
        onChange={(event) => {
          start(event.currentTarget.files?.[0]);
          event.currentTarget.value = "";
        }}
      />
      <label htmlFor={inputId} className="button builder-small">
        {pick}
      </label>
      {upload && (
        <div className="story-inline" data-testid="story-upload">
          <progress max={100} value={upload.percent} aria-label={fill(ui.uploading, { percent: upload.percent })} />
          <span className="builder-percent">{fill(ui.uploading, { percent: upload.percent })}</span>
          <button type="button" className="button builder-small" onClick={upload.abort}>
            {ui.cancelUpload}
          </button>
        </div>
      )}
      {needsCrop && (
        <div className="builder-crop">
          <p>{fill(ui.cropOffer, { width: media.width ?? 0, height: media.height ?? 0 })}</p>
          <button type="button" className="button builder-small" disabled={cropping} onClick={() => void crop()}>
            {cropping ? ui.cropping : ui.cropTo}
          </button>
        </div>
      )}
      {media && remove && (
        <button type="button" className="button builder-small" onClick={() => onMedia(null)}>
          {remove}
        </button>
      )}
      <p className="builder-error" id={errorId} aria-live="polite">
        {problem ?? error ?? ""}
      </p>
    </div>
  );
}

