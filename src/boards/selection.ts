// Select mode on a board feed: picked pins, or "all" with exclusions (spec 000 §9 bulk actions;
// BoardBulkResource takes pin_ids, or all with excluded_pin_ids, ≤ 250 each).
export const BULK_MAX_IDS = 250;

export type Selection = { all: false; ids: readonly string[] } | { all: true; excluded: readonly string[] };

export const NOTHING_SELECTED: Selection = { all: false, ids: [] };

export function isSelected(selection: Selection, pinId: string): boolean {
  return selection.all ? !selection.excluded.includes(pinId) : selection.ids.includes(pinId);
}

/** Picks or unpicks one pin; under "all", unpicking adds an exclusion. Picking beyond the bound is refused (unchanged). */
export function toggle(selection: Selection, pinId: string): Selection {
  if (selection.all) {
    const excluded = selection.excluded.includes(pinId) ? selection.excluded.filter((id) => id !== pinId) : [...selection.excluded, pinId];
    return excluded.length > BULK_MAX_IDS ? selection : { all: true, excluded };
  }
  if (selection.ids.includes(pinId)) return { all: false, ids: selection.ids.filter((id) => id !== pinId) };
  return selection.ids.length >= BULK_MAX_IDS ? selection : { all: false, ids: [...selection.ids, pinId] };
}

export const selectAll = (): Selection => ({ all: true, excluded: [] });

/** How many pins the selection covers on a board of `total` pins. */
export function selectedCount(selection: Selection, total: number): number {
  return selection.all ? Math.max(0, total - selection.excluded.length) : selection.ids.length;
}

/** The bulk options the server takes for this selection. */
export function bulkTargets(selection: Selection): { pin_ids: string[] } | { all: true; excluded_pin_ids: string[] } {
  return selection.all ? { all: true, excluded_pin_ids: [...selection.excluded] } : { pin_ids: [...selection.ids] };
}

/** The loaded pins the selection covers, in feed order (what the screen moves optimistically). */
export function selectedOf<T extends { id: string }>(selection: Selection, pins: readonly T[]): T[] {
  return pins.filter((pin) => isSelected(selection, pin.id));
}
