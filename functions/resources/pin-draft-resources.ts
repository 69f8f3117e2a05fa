// PinDraftResource (get, create, update, delete) and PinDraftsResource (the viewer's drafts,
// paged): the pin builder's saved state (spec 001 §3 "Pin draft"). Options use the draft's own
// field names. Only the owner reaches a draft: another person's answers 404, exactly as a
// missing one. Every change is checked whole before anything is written: a 400 names each bad
// field and stores nothing.
import { z } from "zod";
import { requireFullViewer, requireWriteAllowed } from "~/accounts/guards.server.ts";
import { idOption } from "~/boards/options.ts";
import { applyChanges, draftChangesSchema, linkHost, newDraft, validateDraft, type DraftChanges, type PinDraft } from "~/builder/drafts.ts";
import {
  DRAFTS_PAGE_SIZE,
  MAX_DRAFTS_PER_PERSON,
  blockedHostsAmong,
  boardChoiceProblems,
  createDraft,
  deleteDraft,
  findDraft,
  listDrafts,
  replaceDraft,
  type DraftAnswer,
  type StoredDraft,
} from "~/builder/drafts.server.ts";
import { DomainError, badRequest, notFound } from "~/domain/errors.ts";
import { defineHandler, type ResourceDefinition } from "./define.ts";
import { bookmarkKeyset, feedAnswer, keysetBookmark, pageSize } from "./paging.ts";

const draftNotFound = () => notFound("builder:api.draftNotFound");
/** Two saves of one draft at once: the later re-reads and applies on top, a few times at most. */
const UPDATE_TRIES = 3;

/** The links a change sets: only these are looked up against the blocked hosts (stored ones passed when they were saved). */
function changedLinkHosts(changes: DraftChanges): string[] {
  const links = [changes.websiteLink, ...(changes.items ?? []).map((item) => item.link), ...(changes.pinTags ?? []).map((tag) => tag.link)];
  return links.flatMap((link) => (link ? [linkHost(link)].filter((host): host is string => host !== null) : []));
}

/**
 * Every problem with the draft a change makes, or nothing: the pure field rules, the blocked
 * hosts of the links it sets, and the board and section when it chooses them.
 */
async function problemsOf(db: D1Database, viewerId: number, changes: DraftChanges, draft: PinDraft) {
  const blocked = await blockedHostsAmong(db, changedLinkHosts(changes));
  const problems = validateDraft(draft, blocked);
  const choosing = changes.boardId !== undefined || changes.sectionId !== undefined;
  const boardChecked = problems.some((problem) => problem.field === "sectionId");
  if (choosing && !boardChecked) problems.push(...(await boardChoiceProblems(db, viewerId, draft.boardId, draft.sectionId)));
  return problems;
}

/**
 * An autosave: reads the draft, makes its change (null when nothing changed, or throws its 400)
 * and stores it only if no other save came between; otherwise re-reads and re-applies, a few
 * times at most, then 409. A draft `read` cannot find is 404.
 */
export async function saveOnTop(
  db: D1Database,
  viewerId: number,
  id: number,
  read: () => Promise<StoredDraft | null>,
  change: (stored: DraftAnswer, now: number) => Promise<PinDraft | null>,
): Promise<DraftAnswer> {
  for (let attempt = 0; attempt < UPDATE_TRIES; attempt++) {
    const stored = await read();
    if (!stored) throw draftNotFound();
    const now = Date.now();
    const changed = await change(stored.draft, now);
    if (changed === null) return stored.draft;
    const saved = await replaceDraft(db, viewerId, id, stored.version, changed, now);
    if (saved) return saved;
  }
  throw new DomainError("conflict", { message: "builder:api.draftChanged" });
}

const sameDraft = (a: PinDraft, b: PinDraft) => JSON.stringify({ ...a, lastEditedTime: null, lastSavedTime: null }) === JSON.stringify({ ...b, lastEditedTime: null, lastSavedTime: null });

export const pinDraftResource: ResourceDefinition = {
  get: defineHandler({
    options: z.strictObject({ id: idOption }),
    async handle(c, options) {
      const viewerId = requireFullViewer(c.var.ctx).user.id;
      const stored = await findDraft(c.env.DB, viewerId, options.id);
      if (!stored) throw draftNotFound();
      return stored.draft;
    },
  }),
  create: defineHandler({
    options: draftChangesSchema,
    async handle(c, options) {
      const viewerId = requireWriteAllowed(c.var.ctx).user.id;
      const draft = applyChanges(newDraft(), options);
      const problems = await problemsOf(c.env.DB, viewerId, options, draft);
      if (problems.length > 0) throw badRequest(problems);
      const created = await createDraft(c.env.DB, viewerId, draft, Date.now());
      if (!created) throw new DomainError("conflict", { message: "builder:api.tooManyDrafts", values: { maximum: MAX_DRAFTS_PER_PERSON } });
      return created;
    },
  }),
  update: defineHandler({
    options: z.strictObject({ id: idOption, ...draftChangesSchema.shape }),
    async handle(c, options) {
      const viewerId = requireWriteAllowed(c.var.ctx).user.id;
      const { id, ...changes } = options;
      if (Object.values(changes).every((value) => value === undefined)) throw badRequest([{ field: "options", reason: "boards:validation.nothingToChange" }]);
      const db = c.env.DB;
      return saveOnTop(db, viewerId, id, () => findDraft(db, viewerId, id), async (stored, now) => {
        const changed = applyChanges(stored, changes);
        const problems = await problemsOf(db, viewerId, changes, changed);
        if (problems.length > 0) throw badRequest(problems);
        return sameDraft(changed, stored) ? null : { ...changed, lastEditedTime: now };
      });
    },
  }),
  delete: defineHandler({
    options: z.strictObject({ id: idOption }),
    async handle(c, options) {
      const viewerId = requireWriteAllowed(c.var.ctx).user.id;
      if (!(await deleteDraft(c.env.DB, viewerId, options.id))) throw draftNotFound();
      return { id: String(options.id) };
    },
  }),
};

export const pinDraftsResource: ResourceDefinition = {
  get: defineHandler({
    options: z.strictObject({ bookmark: keysetBookmark.optional(), page_size: pageSize.optional() }),
    async handle(c, options) {
      const viewerId = requireFullViewer(c.var.ctx).user.id;
      const before = bookmarkKeyset(options.bookmark)?.id ?? null;
      return feedAnswer(await listDrafts(c.env.DB, viewerId, before, options.page_size ?? DRAFTS_PAGE_SIZE));
    },
  }),
};
