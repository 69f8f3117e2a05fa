// The story editor's calls, named as the API names them: StoryPinDraftsResource (open, create,
// autosave), the fonts the editor offers, a link block's page read, and a person looked up by
// username for a mention.
// Answers are checked for the fields the island reads.
import { call, resource } from "~/api/api.client.ts";
import type { DraftChanges } from "~/builder/drafts.ts";
import type { DraftAnswer } from "~/builder/api.client.ts";
import type { StoryDraft } from "./story-draft.ts";
import type { FetchedPage } from "./editor.ts";

export type StoryDraftAnswer = DraftAnswer & { story: StoryDraft };
export type StoryChanges = DraftChanges & { story?: StoryDraft };

function toStoryDraft(value: unknown): StoryDraftAnswer {
  const draft = value as Partial<StoryDraftAnswer> | null;
  if (!draft || typeof draft.id !== "string" || !draft.story || !Array.isArray(draft.story.pages)) throw new TypeError("story draft answer without id or pages");
  return draft as StoryDraftAnswer;
}

export const readStoryDraft = async (id: string): Promise<StoryDraftAnswer> => toStoryDraft(await resource("StoryPinDraftsResource", "get", { id }));
export const createStoryDraft = async (changes: StoryChanges = {}): Promise<StoryDraftAnswer> => toStoryDraft(await resource("StoryPinDraftsResource", "create", changes));
export const updateStoryDraft = async (id: string, changes: StoryChanges): Promise<StoryDraftAnswer> => toStoryDraft(await resource("StoryPinDraftsResource", "update", { id, ...changes }));

export interface FontChoice {
  id: string;
  name: string;
  family: string;
}

export async function listFonts(): Promise<FontChoice[]> {
  const answer = await call<{ fonts?: unknown[] }>("/v3/storypins/fonts/");
  return (answer?.fonts ?? []).filter((font): font is FontChoice => typeof (font as FontChoice)?.id === "string" && typeof (font as FontChoice).name === "string" && typeof (font as FontChoice).family === "string");
}

/** A web page's title, canonical address and images, read by the builder's bounded, cached page fetch. */
export async function readWebPage(url: string): Promise<FetchedPage> {
  const answer = await resource<Partial<FetchedPage> | null>("FindPinImagesResource", "get", { url, source: "pin_create" });
  return { title: typeof answer?.title === "string" ? answer.title : "", link: typeof answer?.link === "string" ? answer.link : "", items: Array.isArray(answer?.items) ? answer.items.filter((item) => typeof item?.src === "string") : [] };
}

export async function lookupUser(username: string): Promise<{ id: string; username: string; full_name: string }> {
  const answer = await resource<{ id?: unknown; username?: unknown; full_name?: unknown }>("UserLookupResource", "get", { username });
  if (typeof answer?.id !== "string" || typeof answer.username !== "string") throw new TypeError("user answer without id");
  return { id: answer.id, username: answer.username, full_name: typeof answer.full_name === "string" ? answer.full_name : answer.username };
}
