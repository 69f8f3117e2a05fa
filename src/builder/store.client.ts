// The builder's shared state (nanostores): the person's drafts, the upload status map, the
// files still on their way (cards without a draft yet) and what the builder knows of each
// upload (its preview). The actions tie the XMLHttpRequest upload to the pure map of
// upload-status.ts and the draft transitions of drafts.ts, then store the result through the API.
import { atom, map } from "nanostores";
import { ApiCallError } from "~/api/api.client.ts";
import { addItem, newItem, type PinDraft } from "./drafts.ts";
import { isMediaFile, mediaRefOf, FILES_PER_DROP, type UploadInfo } from "./media.ts";
import { forgetUpload, moveDraftKey, startUpload, uploadCancelled, uploadDone, uploadFailed, uploadProgress, type UploadStatusMap } from "./upload-status.ts";
import { UploadAborted, UploadRefused, posterFrame, uploadFile, uploadPoster } from "./uploads.client.ts";
import { createDraft, listDrafts, readUpload, updateDraft, type DraftAnswer } from "./api.client.ts";

export const $drafts = atom<DraftAnswer[]>([]);
export const $draftsBookmark = atom<string | null>(null);
export const $uploads = atom<UploadStatusMap>({});
export const $uploadInfo = map<Record<string, UploadInfo>>({});

/** A file on its way: its card, keyed by the draft it will make (a local key) or join (the draft's id). */
export interface PendingFile {
  draftKey: string;
  itemId: string;
  name: string;
  kind: "image" | "video";
  /** An object URL of the file itself, for the card's preview before the server's cut exists. */
  preview: string | null;
  /** A problem after the upload itself (the video's cover frame), shown on the card. */
  note: string | null;
}
export const $pending = atom<PendingFile[]>([]);

const inFlight = new Map<string, () => void>();
const flightKey = (draftKey: string, itemId: string) => `${draftKey}/${itemId}`;
let localCount = 0;

export interface UploadMessages {
  network: string;
  poster: string;
}

/** A fresh item id: letters, digits and dashes, as the draft's item schema takes. */
const newItemId = (): string => crypto.randomUUID();

const errorMessage = (error: unknown, fallback: string) => (error instanceof ApiCallError || error instanceof UploadRefused ? error.message : fallback);

function replaceDraft(answer: DraftAnswer): void {
  $drafts.set($drafts.get().map((draft) => (draft.id === answer.id ? answer : draft)));
}

export function rememberDraft(answer: DraftAnswer): void {
  if ($drafts.get().some((draft) => draft.id === answer.id)) replaceDraft(answer);
  else $drafts.set([answer, ...$drafts.get()]);
}

export function forgetDraft(id: string): void {
  $drafts.set($drafts.get().filter((draft) => draft.id !== id));
}

function setPending(draftKey: string, itemId: string, change: Partial<PendingFile> | null): void {
  const list = $pending.get();
  const at = list.findIndex((file) => file.draftKey === draftKey && file.itemId === itemId);
  if (at < 0) return;
  if (change === null) {
    const gone = list[at]!;
    if (gone.preview) URL.revokeObjectURL(gone.preview);
    $pending.set(list.filter((_, index) => index !== at));
  } else $pending.set(list.map((file, index) => (index === at ? { ...file, ...change } : file)));
}

/** The first page of drafts (or the next one), newest first. */
export async function loadDrafts(more: boolean): Promise<void> {
  const page = await listDrafts(more ? $draftsBookmark.get() : null);
  const known = more ? $drafts.get() : [];
  const ids = new Set(known.map((draft) => draft.id));
  $drafts.set([...known, ...page.drafts.filter((draft) => !ids.has(draft.id))]);
  $draftsBookmark.set(page.bookmark);
}

/** Uploads asked for once already (a failed read is not retried until the page reloads). */
const requestedUploads = new Set<string>();

/** Reads the uploads the drafts show that the builder has not seen yet (their previews). */
export async function loadUploadInfo(drafts: readonly PinDraft[]): Promise<void> {
  const known = $uploadInfo.get();
  const wanted = new Set(drafts.flatMap((draft) => draft.items.flatMap((item) => (item.media?.source === "uploaded" && !known[item.media.ref] && !requestedUploads.has(item.media.ref) ? [item.media.ref] : []))));
  for (const id of wanted) requestedUploads.add(id);
  await Promise.all(
    [...wanted].map((id) =>
      readUpload(id).then(
        (info) => $uploadInfo.setKey(id, info),
        () => undefined,
      ),
    ),
  );
}

/**
 * Uploads each file (at most FILES_PER_DROP, images and videos only) with its own progress.
 * Without a target each stored file starts a draft of its own; with one, it joins that draft
 * as a new item (the second makes it a carousel).
 */
export function startUploads(files: readonly File[], messages: UploadMessages, target: string | null = null): void {
  for (const file of files.filter(isMediaFile).slice(0, FILES_PER_DROP)) void uploadOne(file, messages, target);
}

async function uploadOne(file: File, messages: UploadMessages, target: string | null): Promise<void> {
  const draftKey = target ?? `local-${++localCount}`;
  const itemId = newItemId();
  const kind = file.type.startsWith("video/") ? "video" : "image";
  $pending.set([...$pending.get(), { draftKey, itemId, name: file.name, kind, preview: kind === "image" ? URL.createObjectURL(file) : null, note: null }]);
  $uploads.set(startUpload($uploads.get(), draftKey, itemId, file.size));
  const call = uploadFile(file, { onProgress: (loaded, total) => $uploads.set(uploadProgress($uploads.get(), draftKey, itemId, loaded, total)) }, messages.network);
  inFlight.set(flightKey(draftKey, itemId), call.abort);
  let info: UploadInfo;
  try {
    info = await call.promise;
  } catch (error) {
    if (error instanceof UploadAborted) $uploads.set(uploadCancelled($uploads.get(), draftKey, itemId));
    else $uploads.set(uploadFailed($uploads.get(), draftKey, itemId, errorMessage(error, messages.network)));
    return;
  } finally {
    inFlight.delete(flightKey(draftKey, itemId));
  }
  $uploads.set(uploadDone($uploads.get(), draftKey, itemId, info.id));
  $uploadInfo.setKey(info.id, info);
  if (kind === "video") {
    try {
      info = await uploadPoster(info.id, await posterFrame(file), messages.network);
      $uploadInfo.setKey(info.id, info);
    } catch {
      setPending(draftKey, itemId, { note: messages.poster });
    }
  }
  try {
    const item = newItem(itemId, mediaRefOf(info));
    const current = target ? $drafts.get().find((draft) => draft.id === target) : undefined;
    const answer = current ? await updateDraft(current.id, itemsChange(addItem(current, item, Date.now()))) : await createDraft({ items: [item] });
    rememberDraft(answer);
    $uploads.set(moveDraftKey($uploads.get(), draftKey, answer.id));
    if ($pending.get().find((each) => each.draftKey === draftKey && each.itemId === itemId)?.note === null) setPending(draftKey, itemId, null);
    else setPending(draftKey, itemId, { draftKey: answer.id });
  } catch (error) {
    $uploads.set(uploadFailed($uploads.get(), draftKey, itemId, errorMessage(error, messages.network)));
  }
}

/** The fields an item transition changes, for an update. */
/** An item transition's change: the items, the selection, and the tags (items name theirs by id). */
export const itemsChange = (draft: PinDraft) => ({ items: draft.items, pinItemIndex: draft.pinItemIndex, pinTags: draft.pinTags });

/** Stops an upload in flight. */
export function cancelUpload(draftKey: string, itemId: string): void {
  inFlight.get(flightKey(draftKey, itemId))?.();
}

/** Takes a finished, failed or cancelled file's card away. */
export function dismissUpload(draftKey: string, itemId: string): void {
  $uploads.set(forgetUpload($uploads.get(), draftKey, itemId));
  setPending(draftKey, itemId, null);
}

/** The upload's new answer (after a crop, say) replaces the known one. */
export const rememberUpload = (info: UploadInfo): void => $uploadInfo.setKey(info.id, info);

/** An image found on a website and stored as an upload becomes a draft leading to that page. */
export async function importUpload(info: UploadInfo, link: string): Promise<DraftAnswer> {
  rememberUpload(info);
  const answer = await createDraft({ items: [newItem(newItemId(), mediaRefOf(info))], websiteLink: link });
  rememberDraft(answer);
  return answer;
}
