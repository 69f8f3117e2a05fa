// A published story's stickers as one reader sees them now: a mention names its person (and
// links to their profile) only while that person may be named, a product sticker its pin only
// while the reader may open it. What the story stored at publishing time is never trusted for
// this: people delete their accounts, block and are blocked, and pins go secret after a story
// is published. A sticker whose target cannot be shown keeps its place, marked `is_removed`,
// and loses the id it named, so nothing about the target leaks through it.

/** A mentioned person as a sticker shows them. */
export interface StickerPerson {
  id: string;
  username: string;
  full_name: string;
}

/** What the reader may be shown: the mentioned people by id, and the product pins' ids. */
export interface StickerTargets {
  people: ReadonlyMap<string, StickerPerson>;
  pins: ReadonlySet<string>;
}

type Block = Record<string, unknown> & { type: string };

const idOf = (value: unknown): string | null => (typeof value === "string" && /^\d{1,18}$/.test(value) ? value : typeof value === "number" && Number.isSafeInteger(value) ? String(value) : null);

/** One block with its sticker resolved; other blocks are answered as they are. */
export function resolveSticker<B extends Block>(block: B, targets: StickerTargets): B {
  if (block.type === "mention_sticker") {
    const id = idOf(block.user_id);
    const person = id === null ? undefined : targets.people.get(id);
    return person ? { ...block, user_id: person.id, user: { ...person }, is_removed: false } : { ...block, user_id: null, user: null, is_removed: true };
  }
  if (block.type === "product_sticker") {
    const id = idOf(block.pin_id);
    return id !== null && targets.pins.has(id) ? { ...block, pin_id: id, is_removed: false } : { ...block, pin_id: null, is_removed: true };
  }
  return block;
}

/** Every page's blocks with their stickers resolved. */
export function resolveStickers<P extends { blocks: Block[] }>(pages: readonly P[], targets: StickerTargets): P[] {
  return pages.map((page) => ({ ...page, blocks: page.blocks.map((block) => resolveSticker(block, targets)) }));
}
