// StoryPinDraftsResource: the story editor's drafts (spec 001 §3 "Story pin item", "Story pin
// block"). A story draft is a pin draft of type story carrying `story` (src/stories/story-draft.ts),
// stored with the others in pin_drafts and listed by PinDraftsResource too. get answers one by id,
// or the person's story drafts paged; create, update (the autosave, version-checked) and delete.
// Only the owner reaches a draft: another person's answers 404, exactly as a missing one. Every
// change is checked whole before anything is written: a 400 names each bad field and stores nothing.
import { z } from "zod";
import { requireFullViewer, requireWriteAllowed } from "~/accounts/guards.server.ts";
import { idOption } from "~/boards/options.ts";
import { applyChanges, draftChangesSchema, linkHost, linkProblem, markEdited, newDraft, validateDraft, type PinDraft } from "~/builder/drafts.ts";
import { DRAFTS_PAGE_SIZE, MAX_DRAFTS_PER_PERSON, blockedHostsAmong, boardChoiceProblems, createDraft, deleteDraft, findDraft, listDrafts, type DraftAnswer } from "~/builder/drafts.server.ts";
import { DomainError, badRequest, notFound, type FieldProblem } from "~/domain/errors.ts";
import { markRemovedStickers, newStory, normalStory, stickerTarget, storyDraftSchema, storyLinkFields, validateStory, withAutoText, type StoryDraft } from "~/stories/story-draft.ts";
import { storyUploads, visibleStickerTargets } from "~/stories/story-drafts.server.ts";
import { pageMediaProblem } from "~/stories/story-publish.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";
import { saveOnTop } from "./pin-draft-resources.ts";
import { bookmarkKeyset, feedAnswer, keysetBookmark, pageSize } from "./paging.ts";

const draftNotFound = () => notFound("builder:api.draftNotFound");

/** What a create or update may set: the pin draft's own fields a story uses, and the story. */
const storyChangesSchema = draftChangesSchema.omit({ type: true, items: true, pinTags: true, pinItemIndex: true }).extend({ story: storyDraftSchema.optional() });
type StoryChanges = z.output<typeof storyChangesSchema>;

/** A story draft as answered: a draft made elsewhere as type story without pages opens with one blank page. */
const storyAnswer = (draft: DraftAnswer): DraftAnswer => ({ ...draft, story: draft.story ?? newStory() });

/** The viewer's story draft of that id; another person's, a missing one and a non-story draft are all 404. */
async function findStoryDraft(db: D1Database, viewerId: number, id: number) {
  const stored = await findDraft(db, viewerId, id);
  if (!stored || stored.draft.type !== "story") throw draftNotFound();
  return stored;
}

/** Sticker targets a story names that were already on the same block when it was last saved. */
function savedTargets(story: StoryDraft | null): Set<string> {
  const targets = (story?.pages ?? []).flatMap((page) => page.blocks.map((block) => `${block.id}>${stickerTarget(block)}`));
  return new Set(targets);
}

/**
 * The draft a change makes, or every problem with it. The sticker removal rule: a sticker saved
 * before whose target the author can no longer see is marked removed; a sticker newly aimed at a
 * person or pin the author cannot see is refused.
 */
async function changedDraft(db: D1Database, viewerId: number, before: PinDraft, changes: StoryChanges): Promise<{ draft: PinDraft } | { problems: FieldProblem[] }> {
  const { story: incoming, ...fields } = changes;
  const base = applyChanges(before, fields);
  const story = normalStory(incoming ?? before.story ?? newStory());
  const links = storyLinkFields(story);
  const [visible, uploads, blocked] = await Promise.all([
    visibleStickerTargets(db, viewerId, story),
    storyUploads(db, viewerId, story),
    blockedHostsAmong(db, [...links.map((each) => each.link), base.websiteLink].flatMap((link) => [linkHost(link)].filter((host): host is string => host !== null))),
  ]);
  const problems = [...validateDraft(base, blocked), ...validateStory(story)];
  const saved = savedTargets(before.story);
  story.pages.forEach((page, p) => {
    const reason = pageMediaProblem(page.media, uploads);
    if (reason) problems.push({ field: `story.pages.${p}.media`, reason });
    page.blocks.forEach((block, b) => {
      const at = (name: string) => `story.pages.${p}.blocks.${b}.${name}`;
      const media = block.media;
      if (media?.source === "uploaded" && uploads.get(media.ref)?.kind !== media.type) problems.push({ field: at("media"), reason: "builder:validation.mediaNotReady" });
      const target = stickerTarget(block);
      if (target !== null && !visible.has(target) && !saved.has(`${block.id}>${target}`)) {
        problems.push({ field: at(block.type === "mention_sticker" ? "userId" : "pinId"), reason: "builder:story.stickerUnavailable" });
      }
    });
  });
  for (const { field, link } of links) {
    const reason = linkProblem(link, blocked);
    if (reason) problems.push({ field, reason });
  }
  const choosing = changes.boardId !== undefined || changes.sectionId !== undefined;
  if (choosing && !problems.some((problem) => problem.field === "sectionId")) problems.push(...(await boardChoiceProblems(db, viewerId, base.boardId, base.sectionId)));
  if (problems.length > 0) return { problems };
  const texts = withAutoText({ title: base.title, description: base.description, story: markRemovedStickers(story, visible) }, { title: changes.title !== undefined, description: changes.description !== undefined });
  return { draft: { ...base, ...texts, type: "story" } };
}

const sameDraft = (a: PinDraft, b: PinDraft) =>
  JSON.stringify({ ...a, status: null, lastEditedTime: null, lastSavedTime: null }) === JSON.stringify({ ...b, status: null, lastEditedTime: null, lastSavedTime: null });

export const storyPinDraftsResource: ResourceDefinition = {
  get: defineHandler({
    options: z.strictObject({ id: idOption.optional(), bookmark: keysetBookmark.optional(), page_size: pageSize.optional() }),
    async handle(c, options) {
      const viewerId = requireFullViewer(c.var.ctx).user.id;
      if (options.id !== undefined) return storyAnswer((await findStoryDraft(c.env.DB, viewerId, options.id)).draft);
      const before = bookmarkKeyset(options.bookmark)?.id ?? null;
      const page = await listDrafts(c.env.DB, viewerId, before, options.page_size ?? DRAFTS_PAGE_SIZE, "story");
      return feedAnswer({ ...page, items: page.items.map(storyAnswer) });
    },
  }),
  create: defineHandler({
    options: storyChangesSchema,
    async handle(c, options) {
      const viewerId = requireWriteAllowed(c.var.ctx).user.id;
      const made = await changedDraft(c.env.DB, viewerId, { ...newDraft(), type: "story", story: newStory() }, options);
      if ("problems" in made) throw badRequest(made.problems);
      const created = await createDraft(c.env.DB, viewerId, made.draft, Date.now());
      if (!created) throw new DomainError("conflict", { message: "builder:api.tooManyDrafts", values: { maximum: MAX_DRAFTS_PER_PERSON } });
      return storyAnswer(created);
    },
  }),
  update: defineHandler({
    options: z.strictObject({ id: idOption, ...storyChangesSchema.shape }),
    async handle(c, options) {
      const viewerId = requireWriteAllowed(c.var.ctx).user.id;
      const { id, ...changes } = options;
      if (Object.values(changes).every((value) => value === undefined)) throw badRequest([{ field: "options", reason: "boards:validation.nothingToChange" }]);
      const db = c.env.DB;
      const saved = await saveOnTop(db, viewerId, id, () => findStoryDraft(db, viewerId, id), async (stored, now) => {
        const made = await changedDraft(db, viewerId, stored, changes);
        if ("problems" in made) throw badRequest(made.problems);
        if (sameDraft(made.draft, stored)) return null;
        // The status rule: an edit marks the draft edited unless it is on its way (markEdited's protected set).
        return changes.status === undefined ? markEdited(made.draft, now) : { ...made.draft, lastEditedTime: now };
      });
      return storyAnswer(saved);
    },
  }),
  delete: defineHandler({
    options: z.strictObject({ id: idOption }),
    async handle(c, options) {
      const viewerId = requireWriteAllowed(c.var.ctx).user.id;
      await findStoryDraft(c.env.DB, viewerId, options.id);
      if (!(await deleteDraft(c.env.DB, viewerId, options.id))) throw draftNotFound();
      return { id: String(options.id) };
    },
  }),
};
