// The person's drafts: a card each with its preview, its upload progress while an item is on its
// way, a checkbox for batch edit, and Edit and Delete. A reload lists them again from storage.
import { useId } from "react";
import { useStore } from "@nanostores/react";
import { fill } from "~/saves/strings.ts";
import type { UiKey } from "./strings.ts";
import { previewUrl } from "./media.ts";
import { draftProgress, percentOf } from "./upload-status.ts";
import type { DraftAnswer } from "./api.client.ts";
import { $uploadInfo, $uploads } from "./store.client.ts";
import { CropOffer } from "./CropOffer.tsx";

type Ui = Record<UiKey, string>;

export const draftTitle = (ui: Ui, draft: { title: string }) => draft.title.trim() || ui.untitled;

interface DraftListProps {
  ui: Ui;
  drafts: DraftAnswer[];
  selected: string[];
  onToggle: (id: string) => void;
  onOpen: (id: string) => void;
  onDelete: (id: string) => void;
}

export function DraftList({ ui, drafts, selected, onToggle, onOpen, onDelete }: DraftListProps) {
  const id = useId();
  const uploads = useStore($uploads);
  const info = useStore($uploadInfo);
  return (
    <ul className="builder-drafts" aria-label={ui.draftsHeading}>
      {drafts.map((draft) => {
        const title = draftTitle(ui, draft);
        const first = draft.items[0]?.media ?? null;
        const src = first ? previewUrl(info[first.ref]) : null;
        const progress = draftProgress(uploads, draft.id);
        const checkbox = `${id}-${draft.id}`;
        return (
          <li key={draft.id} className="builder-draft" data-testid="draft-card" data-draft-id={draft.id}>
            <div className="builder-draft-media">
              {src ? <img src={src} alt="" /> : <span className="builder-card-video" aria-hidden="true" />}
              {draft.type === "carousel" && <span className="builder-badge">{fill(ui.carouselBadge, { count: draft.items.length })}</span>}
            </div>
            <div className="builder-draft-body">
              <input id={checkbox} type="checkbox" checked={selected.includes(draft.id)} onChange={() => onToggle(draft.id)} />
              <label htmlFor={checkbox}>
                <span className="visually-hidden">{fill(ui.selectDraft, { title })}</span>
                <span aria-hidden="true">
                  <bdi>{title}</bdi>
                </span>
              </label>
            </div>
            {progress.uploading && <progress max={progress.total || 1} value={progress.loaded} aria-label={`${ui.draftProgressLabel}: ${title}`} title={fill(ui.percent, { percent: percentOf(progress.loaded, progress.total) })} />}
            {first && <CropOffer ui={ui} draft={draft} index={0} />}
            <div className="builder-draft-actions">
              <button type="button" className="button builder-small" onClick={() => onOpen(draft.id)} aria-label={fill(ui.editDraft, { title })}>
                {ui.edit}
              </button>
              <button type="button" className="button builder-small" onClick={() => onDelete(draft.id)} aria-label={fill(ui.deleteDraftOf, { title })}>
                {ui.deleteDraft}
              </button>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
