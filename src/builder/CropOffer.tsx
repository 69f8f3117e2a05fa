// The crop offer (spec 001 §5): an image whose shape is not 2:3, 3:4 or 1:1 is offered a cut to
// the nearest of them. The server re-cuts the upload (centred) and the item keeps its media
// reference with the new size.
import { useState } from "react";
import { ApiCallError } from "~/api/api.client.ts";
import { fill } from "~/saves/strings.ts";
import type { UiKey } from "./strings.ts";
import { cropRatioFor } from "./editor.ts";
import { cropUpload, updateDraft, type DraftAnswer } from "./api.client.ts";
import { itemsChange, rememberDraft, rememberUpload } from "./store.client.ts";

export function CropOffer({ ui, draft, index }: { ui: Record<UiKey, string>; draft: DraftAnswer; index: number }) {
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const media = draft.items[index]?.media ?? null;
  const ratio = cropRatioFor(media);
  if (!media || !ratio) return null;
  const crop = async () => {
    setState({ busy: true, error: null });
    try {
      const info = await cropUpload(media.ref, ratio);
      rememberUpload(info);
      const items = draft.items.map((item, at) => (at === index && item.media ? { ...item, media: { ...item.media, width: info.width, height: info.height } } : item));
      rememberDraft(await updateDraft(draft.id, itemsChange({ ...draft, items })));
      setState({ busy: false, error: null });
    } catch (error) {
      setState({ busy: false, error: error instanceof ApiCallError ? `${ui.cropFailed} ${error.message}` : ui.cropFailed });
    }
  };
  return (
    <div className="builder-crop">
      <p>{fill(ui.cropOffer, { width: media.width ?? 0, height: media.height ?? 0 })}</p>
      <button type="button" className="button builder-small" onClick={() => void crop()} disabled={state.busy}>
        {state.busy ? ui.cropping : fill(ui.cropTo, { ratio })}
      </button>
      {state.error && (
        <p className="builder-error" role="alert">
          {state.error}
        </p>
      )}
    </div>
  );
}
