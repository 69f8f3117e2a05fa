// The builder's upload view (spec 001 §2): a drop zone and a file picker taking several images
// and videos at once, and a card per file with its own progress bar, a Cancel while it is on
// its way and the server's message when it is refused.
import { useId, useRef, useState, type DragEvent } from "react";
import { useStore } from "@nanostores/react";
import { fill } from "~/saves/strings.ts";
import type { UiKey } from "./strings.ts";
import { percentOf, type UploadStatus } from "./upload-status.ts";
import { $pending, $uploads, cancelUpload, dismissUpload, startUploads, type PendingFile, type UploadMessages } from "./store.client.ts";

type Ui = Record<UiKey, string>;

export const ACCEPTED_TYPES = "image/jpeg,image/png,image/webp,image/gif,video/mp4,video/webm";

interface UploadViewProps {
  ui: Ui;
  maxMegabytes: number;
  messages: UploadMessages;
  disabled: boolean;
}

export function UploadView({ ui, maxMegabytes, messages, disabled }: UploadViewProps) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const pending = useStore($pending).filter((file) => file.draftKey.startsWith("local-"));
  const take = (files: FileList | null) => {
    if (files && files.length > 0) startUploads([...files], messages);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    if (!disabled) take(event.dataTransfer.files);
  };
  return (
    <section className="builder-upload" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{ui.uploadHeading}</h2>
      <div
        className={over ? "builder-drop builder-drop-over" : "builder-drop"}
        onDragOver={(event) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        data-testid="builder-drop"
      >
        <p className="builder-drop-title">{ui.dropZone}</p>
        <p className="builder-hint" id={`${id}-hint`}>
          {fill(ui.dropHint, { maximum: maxMegabytes })}
        </p>
        <input
          ref={input}
          id={`${id}-files`}
          className="visually-hidden builder-file-input"
          type="file"
          multiple
          accept={ACCEPTED_TYPES}
          aria-describedby={`${id}-hint`}
          disabled={disabled}
          onChange={(event) => {
            take(event.currentTarget.files);
            event.currentTarget.value = "";
          }}
        />
        <label htmlFor={`${id}-files`} className="button primary builder-pick">
          {ui.chooseFiles}
        </label>
      </div>
      {pending.length > 0 && <UploadCards ui={ui} files={pending} label={ui.uploadsLabel} />}
    </section>
  );
}

/** Cards of files on their way (or refused): the builder's upload view and the editor's item strip. */
export function UploadCards({ ui, files, label }: { ui: Ui; files: PendingFile[]; label: string }) {
  const uploads = useStore($uploads);
  return (
    <ul className="builder-cards" aria-label={label}>
      {files.map((file) => {
        const status = uploads[file.draftKey]?.[file.itemId];
        return status ? <UploadCard key={`${file.draftKey}/${file.itemId}`} ui={ui} file={file} status={status} /> : null;
      })}
    </ul>
  );
}

function UploadCard({ ui, file, status }: { ui: Ui; file: PendingFile; status: UploadStatus }) {
  const percent = percentOf(status.loaded, status.total);
  const label = fill(ui.progressLabel, { name: file.name });
  return (
    <li className={`builder-card builder-card-${status.phase}`} data-testid="upload-card">
      {file.preview ? <img className="builder-card-preview" src={file.preview} alt="" /> : <span className="builder-card-preview builder-card-video" aria-hidden="true" />}
      <div className="builder-card-body">
        <p className="builder-card-name">
          <bdi>{file.name}</bdi>
        </p>
        {status.phase === "uploading" && (
          <>
            <progress max={status.total || 1} value={status.loaded} aria-label={label} />
            <span className="builder-percent" aria-hidden="true">
              {fill(ui.percent, { percent })}
            </span>
            <button type="button" className="button builder-small" onClick={() => cancelUpload(file.draftKey, file.itemId)} aria-label={fill(ui.cancelUpload, { name: file.name })}>
              {ui.cancel}
            </button>
          </>
        )}
        {status.phase === "uploaded" && <p role="status">{ui.uploaded}</p>}
        {status.phase === "failed" && (
          <p className="builder-error" role="alert">
            {fill(ui.failed, { name: file.name })}: {status.message}
          </p>
        )}
        {status.phase === "cancelled" && <p role="status">{ui.cancelled}</p>}
        {file.note && <p className="builder-error">{file.note}</p>}
        {(status.phase === "failed" || status.phase === "cancelled" || file.note) && (
          <button type="button" className="button builder-small" onClick={() => dismissUpload(file.draftKey, file.itemId)}>
            {ui.dismiss}
          </button>
        )}
      </div>
    </li>
  );
}
