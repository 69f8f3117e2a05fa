// The builder's calls, named as the API names them: PinDraftResource, PinDraftsResource,
// PinResource create (publishing), ScheduledPinsResource, the media upload's crop and read, and
// the events pipeline for the feedback form. Answers are checked for the fields the island reads.
import { call, resource } from "~/api/api.client.ts";
import { END_MARKER } from "~/feeds/feed.ts";
import { EVENT_TYPE, toNanoseconds } from "~/events/logger.client.ts";
import type { PinDraft } from "./drafts.ts";
import type { EditorChanges } from "./autosave.ts";
import { toUploadInfo, type UploadInfo } from "./media.ts";
import { UPLOADS_PATH } from "./uploads.client.ts";

export type DraftAnswer = PinDraft & { id: string; createdAt: number };

function toDraft(value: unknown): DraftAnswer {
  const draft = value as Partial<DraftAnswer> | null;
  if (!draft || typeof draft.id !== "string" || !Array.isArray(draft.items)) throw new TypeError("draft answer without id or items");
  return draft as DraftAnswer;
}

export async function listDrafts(bookmark: string | null): Promise<{ drafts: DraftAnswer[]; bookmark: string | null }> {
  const answer = await resource<{ results?: unknown[]; bookmark?: string }>("PinDraftsResource", "get", bookmark ? { bookmark } : {});
  const next = answer.bookmark && answer.bookmark !== END_MARKER ? answer.bookmark : null;
  return { drafts: (answer.results ?? []).map(toDraft), bookmark: next };
}

export const createDraft = async (changes: EditorChanges): Promise<DraftAnswer> => toDraft(await resource("PinDraftResource", "create", changes));
export const updateDraft = async (id: string, changes: EditorChanges): Promise<DraftAnswer> => toDraft(await resource("PinDraftResource", "update", { id, ...changes }));
export const deleteDraft = (id: string): Promise<unknown> => resource("PinDraftResource", "delete", { id });

export const readUpload = async (id: string): Promise<UploadInfo> => toUploadInfo(await call(`${UPLOADS_PATH}${encodeURIComponent(id)}/`));

/** The media part's re-cut of an upload to an allowed ratio, centred (only while not yet published). */
export const cropUpload = async (id: string, ratio: string): Promise<UploadInfo> =>
  toUploadInfo(await call(`${UPLOADS_PATH}${encodeURIComponent(id)}/crop/`, { method: "POST", body: { json: { ratio } } }));

export type PublishAnswer =
  | { status: "succeeded"; draft_id: string; pin: { id: string; url: string; type: string } }
  | { status: "scheduled"; draft_id: string; scheduled_pin: { id: string; title: string; scheduled_ts: number } };

export async function publishDraft(draftId: string): Promise<PublishAnswer> {
  const answer = await resource<PublishAnswer>("PinResource", "create", { draft_id: draftId });
  if (answer?.status === "succeeded" && typeof answer.pin?.url === "string") return answer;
  if (answer?.status === "scheduled" && typeof answer.scheduled_pin?.id === "string") return answer;
  throw new TypeError("publish answer without a pin or a scheduled pin");
}

export interface ScheduledPin {
  id: string;
  title: string;
  scheduled_ts: number;
  board: { id: string; name: string } | null;
  image_url: string | null;
}

export async function listScheduled(): Promise<ScheduledPin[]> {
  const answer = await resource<unknown>("ScheduledPinsResource", "get", {});
  const list = Array.isArray(answer) ? answer : ((answer as { results?: unknown[] } | null)?.results ?? []);
  return list.filter((pin): pin is ScheduledPin => typeof (pin as ScheduledPin)?.id === "string" && typeof (pin as ScheduledPin).scheduled_ts === "number");
}

export const cancelScheduled = (id: string): Promise<unknown> => resource("ScheduledPinsResource", "delete", { id });

/** Feedback text kept by the builder's form (a bound on one event's size). */
export const FEEDBACK_MAX = 2000;

/**
 * Sends the feedback as one event through the events pipeline (ApiCResource create, the page
 * logger's own door), which stores it in D1 once, by its clientUUID.
 */
export async function sendFeedback(text: string, now: number = Date.now()): Promise<void> {
  const event = {
    clientUUID: crypto.randomUUID(),
    event_type: EVENT_TYPE.PIN_BUILDER_FEEDBACK,
    event_data: { text: text.slice(0, FEEDBACK_MAX), path: location.pathname },
    time: toNanoseconds(now),
    appState: "active",
  };
  await resource("ApiCResource", "create", { events: [event], report_time: toNanoseconds(now) });
}
