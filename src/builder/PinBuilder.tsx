// The pin builder island (/pin-builder/): the upload view with the person's drafts and scheduled
// pins, the single pin editor, and batch edit for several drafts. State lives in nanostores
// (store.client.ts); the words come from the page (strings.ts).
import { useEffect, useMemo, useState } from "react";
import { useStore } from "@nanostores/react";
import { fill } from "~/saves/strings.ts";
import { savingApi } from "~/saves/api.client.ts";
import type { PickerData } from "~/saves/picker.ts";
import type { BuilderStrings } from "./strings.ts";
import { toggleSelected } from "./batch.ts";
import { deleteDraft, type PublishAnswer } from "./api.client.ts";
import { $drafts, $draftsBookmark, forgetDraft, importUpload, loadDrafts, loadUploadInfo, type UploadMessages } from "./store.client.ts";
import { UploadView } from "./UploadView.tsx";
import { DraftList } from "./DraftList.tsx";
import { DraftEditor } from "./DraftEditor.tsx";
import { BatchEdit } from "./BatchEdit.tsx";
import { ScheduledPins } from "./ScheduledPins.tsx";
import { Feedback } from "./FeedbackDialog.tsx";
import { FromWebsite } from "./FromWebsite.tsx";

export interface PinBuilderProps {
  strings: BuilderStrings;
  /** PIN_CREATION_DISABLED: drafts stay editable, nothing is uploaded or published. */
  disabled: boolean;
  maxUploadMegabytes: number;
  /** The page's language tag, for dates and times. */
  language: string;
}

/** The story pin editor's page (src/pages/pin-builder/story/). */
const STORY_EDITOR_PATH = "/pin-builder/story/";

type View = { kind: "drafts" } | { kind: "editor"; id: string } | { kind: "batch"; ids: string[] };
type Result = { kind: "published"; title: string; url: string } | { kind: "scheduled"; title: string; at: number };
type Load = "loading" | "ready" | "failed";

export default function PinBuilder({ strings, disabled, maxUploadMegabytes, language }: PinBuilderProps) {
  const ui = strings.ui;
  const drafts = useStore($drafts);
  const bookmark = useStore($draftsBookmark);
  const [load, setLoad] = useState<Load>("loading");
  const [attempt, setAttempt] = useState(0);
  const [view, setView] = useState<View>({ kind: "drafts" });
  const [selected, setSelected] = useState<string[]>([]);
  const [boards, setBoards] = useState<PickerData | null>(null);
  const [boardsFailed, setBoardsFailed] = useState(false);
  const [result, setResult] = useState<Result | null>(null);
  const [scheduledRefresh, setScheduledRefresh] = useState(0);
  const [actionError, setActionError] = useState<string | null>(null);
  const messages: UploadMessages = useMemo(() => ({ network: ui.networkError, poster: ui.posterFailed }), [ui]);
  const timeZone = useMemo(() => (typeof Intl === "undefined" ? "UTC" : Intl.DateTimeFormat().resolvedOptions().timeZone), []);
  const formatTime = useMemo(() => {
    const format = new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "short" });
    return (ms: number) => format.format(new Date(ms));
  }, [language]);

  useEffect(() => {
    let live = true;
    loadDrafts(false).then(
      () => live && setLoad("ready"),
      () => live && setLoad("failed"),
    );
    return () => {
      live = false;
    };
  }, [attempt]);
  useEffect(() => void loadUploadInfo(drafts), [drafts]);
  useEffect(() => {
    savingApi()
      .picker(null)
      .then(setBoards, () => setBoardsFailed(true));
  }, []);

  const open = (id: string) => {
    // A story draft opens in the story editor, its own page.
    if (drafts.find((draft) => draft.id === id)?.type === "story") return location.assign(`${STORY_EDITOR_PATH}?draft=${encodeURIComponent(id)}`);
    setResult(null);
    setView({ kind: "editor", id });
  };
  const remove = async (id: string) => {
    setActionError(null);
    try {
      await deleteDraft(id);
      forgetDraft(id);
      setSelected((before) => before.filter((each) => each !== id));
    } catch (error) {
      setActionError(error instanceof Error ? error.message : String(error));
    }
  };
  const published = (answer: PublishAnswer, title: string) => {
    setView({ kind: "drafts" });
    setSelected((before) => before.filter((each) => each !== answer.draft_id));
    if (answer.status === "succeeded") setResult({ kind: "published", title, url: answer.pin.url });
    else {
      setResult({ kind: "scheduled", title, at: answer.scheduled_pin.scheduled_ts });
      setScheduledRefresh((count) => count + 1);
    }
  };

  const editing = view.kind === "editor" ? drafts.find((draft) => draft.id === view.id) : undefined;
  const batch = view.kind === "batch" ? drafts.filter((draft) => view.ids.includes(draft.id)) : [];

  return (
    <div className="pin-builder">
      {disabled && (
        <p className="builder-banner" role="status">
          {ui.disabled}
        </p>
      )}
      <div className="builder-top">
        <a className="button builder-small" href={STORY_EDITOR_PATH}>
          {ui.createStory}
        </a>
        <Feedback ui={ui} />
      </div>
      {result && (
        <div className="builder-result" role="status" data-testid="publish-result">
          {result.kind === "published" ? (
            <p>
              {ui.statusSucceeded} <a href={result.url}>{ui.seePin}</a>
            </p>
          ) : (
            <p>{fill(ui.scheduledFor, { time: formatTime(result.at) })}</p>
          )}
        </div>
      )}
      {view.kind === "editor" && editing ? (
        <DraftEditor
          key={editing.id}
          strings={strings}
          draft={editing}
          boards={boards}
          boardsFailed={boardsFailed}
          disabled={disabled}
          messages={messages}
          timeZone={timeZone}
          formatTime={formatTime}
          onBack={() => setView({ kind: "drafts" })}
          onPublished={published}
        />
      ) : view.kind === "batch" && batch.length > 0 ? (
        <BatchEdit strings={strings} drafts={batch} boards={boards} onDone={() => setView({ kind: "drafts" })} />
      ) : (
        <>
          <UploadView ui={ui} maxMegabytes={maxUploadMegabytes} messages={messages} disabled={disabled} />
          <FromWebsite strings={strings.fromWebsite} onImported={(upload, link) => void importUpload(upload, link).then((draft) => open(draft.id))} />
          <section className="builder-drafts-section" aria-labelledby="builder-drafts-heading">
            <div className="builder-drafts-head">
              <h2 id="builder-drafts-heading">{ui.draftsHeading}</h2>
              {selected.length > 0 && (
                <div className="builder-selection">
                  <span role="status">{fill(ui.selectedCount, { count: selected.length })}</span>
                  <button type="button" className="button primary builder-small" disabled={selected.length < 2} onClick={() => setView({ kind: "batch", ids: selected })}>
                    {ui.batchEditSelected}
                  </button>
                  <button type="button" className="button builder-small" onClick={() => setSelected([])}>
                    {ui.clearSelection}
                  </button>
                </div>
              )}
            </div>
            {load === "loading" && drafts.length === 0 && <p>{ui.loading}</p>}
            {load === "failed" && (
              <p className="builder-error">
                {ui.loadFailed}{" "}
                <button type="button" className="button builder-small" onClick={() => {
                    setLoad("loading");
                    setAttempt((count) => count + 1);
                  }}>
                  {ui.retry}
                </button>
              </p>
            )}
            {load === "ready" && drafts.length === 0 && <p>{ui.noDrafts}</p>}
            {actionError && (
              <p className="builder-error" role="alert">
                {actionError}
              </p>
            )}
            <DraftList
              ui={ui}
              drafts={drafts}
              selected={selected}
              onToggle={(id) => setSelected((before) => toggleSelected(before, id, drafts.map((draft) => draft.id)))}
              onOpen={open}
              onDelete={(id) => void remove(id)}
            />
            {bookmark && (
              <button type="button" className="button" onClick={() => void loadDrafts(true)}>
                {ui.moreDrafts}
              </button>
            )}
          </section>
          <ScheduledPins ui={ui} formatTime={formatTime} refresh={scheduledRefresh} />
        </>
      )}
    </div>
  );
}
