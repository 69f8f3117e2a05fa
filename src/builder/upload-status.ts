// The builder's upload status map (spec 001 §2 "upload status map per draft and per item"): for
// each draft (a server id, or a local key until its draft exists) and each of its items, where
// the item's file is on its way to storage. Pure, so the island and its tests share the rules;
// the island keeps the map in a nanostore and feeds it the XMLHttpRequest's events.

type UploadPhase = "uploading" | "uploaded" | "failed" | "cancelled";

export interface UploadStatus {
  phase: UploadPhase;
  /** Bytes sent so far and in all (the file's size until the request reports its own total). */
  loaded: number;
  total: number;
  /** The server's message for a refused file, shown on its card. */
  message: string | null;
  /** The upload's id once stored. */
  uploadId: string | null;
}

export type UploadStatusMap = Readonly<Record<string, Readonly<Record<string, UploadStatus>>>>;

function put(map: UploadStatusMap, draftKey: string, itemId: string, status: UploadStatus): UploadStatusMap {
  return { ...map, [draftKey]: { ...map[draftKey], [itemId]: status } };
}

function update(map: UploadStatusMap, draftKey: string, itemId: string, change: (status: UploadStatus) => UploadStatus | null): UploadStatusMap {
  const current = map[draftKey]?.[itemId];
  if (!current) return map;
  const next = change(current);
  return next === null ? map : put(map, draftKey, itemId, next);
}

/** A file starts on its way: nothing sent yet of `total` bytes. */
export function startUpload(map: UploadStatusMap, draftKey: string, itemId: string, total: number): UploadStatusMap {
  return put(map, draftKey, itemId, { phase: "uploading", loaded: 0, total: Math.max(0, total), message: null, uploadId: null });
}

/** Progress as the request reports it; never backwards, never past the total, only while uploading. */
export function uploadProgress(map: UploadStatusMap, draftKey: string, itemId: string, loaded: number, total: number): UploadStatusMap {
  return update(map, draftKey, itemId, (status) => {
    if (status.phase !== "uploading") return null;
    const whole = total > 0 ? total : status.total;
    return { ...status, total: whole, loaded: Math.min(whole, Math.max(status.loaded, loaded)) };
  });
}

/** Stored: the bar is full and the item knows its upload. */
export function uploadDone(map: UploadStatusMap, draftKey: string, itemId: string, uploadId: string): UploadStatusMap {
  return update(map, draftKey, itemId, (status) => (status.phase === "uploading" ? { ...status, phase: "uploaded", loaded: status.total, uploadId } : null));
}

/** Refused or lost (the file, or the draft it was to make): the message stays on the card. */
export function uploadFailed(map: UploadStatusMap, draftKey: string, itemId: string, message: string): UploadStatusMap {
  return update(map, draftKey, itemId, (status) => (status.phase === "uploading" || status.phase === "uploaded" ? { ...status, phase: "failed", message } : null));
}

/** The person cancelled it: a later answer of the aborted request changes nothing. */
export function uploadCancelled(map: UploadStatusMap, draftKey: string, itemId: string): UploadStatusMap {
  return update(map, draftKey, itemId, (status) => (status.phase === "uploading" ? { ...status, phase: "cancelled" } : null));
}

/** Forgets one item's status (its card was dismissed, or the item removed). */
export function forgetUpload(map: UploadStatusMap, draftKey: string, itemId: string): UploadStatusMap {
  const items = map[draftKey];
  if (!items || !(itemId in items)) return map;
  const { [itemId]: _gone, ...rest } = items;
  if (Object.keys(rest).length > 0) return { ...map, [draftKey]: rest };
  const { [draftKey]: _draft, ...others } = map;
  return others;
}

/** A local key's statuses under the draft's server id, once the draft is created. */
export function moveDraftKey(map: UploadStatusMap, from: string, to: string): UploadStatusMap {
  const items = map[from];
  if (!items || from === to) return map;
  const { [from]: _moved, ...others } = map;
  return { ...others, [to]: { ...others[to], ...items } };
}

/** One draft's progress: every item's bytes together, uploading while any item still is. */
export function draftProgress(map: UploadStatusMap, draftKey: string): { uploading: boolean; loaded: number; total: number } {
  const items = Object.values(map[draftKey] ?? {});
  const live = items.filter((status) => status.phase === "uploading" || status.phase === "uploaded");
  return {
    uploading: items.some((status) => status.phase === "uploading"),
    loaded: live.reduce((sum, status) => sum + status.loaded, 0),
    total: live.reduce((sum, status) => sum + status.total, 0),
  };
}

/** A whole percentage for a label: 0 when nothing is known yet. */
export function percentOf(loaded: number, total: number): number {
  if (!(total > 0)) return 0;
  return Math.floor((Math.min(loaded, total) / total) * 100);
}
