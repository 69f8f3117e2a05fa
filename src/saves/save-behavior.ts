// What a save without a board does (spec 001 §3 User.save_behavior; users.save_behavior). The
// spec names the field but not its values; this is the mapping the product uses:
//   0 (the default) — choose a board each time: a save without a board is refused (400 board_id);
//   1 — quick-save to the profile: a save without a board lands in the person's boardless pins.
// Any other stored value acts as 0, so an unknown setting never saves somewhere unexpected.
export const SAVE_BEHAVIOR = { chooseBoard: 0, profile: 1 } as const;

/** Where a save without a board goes for this setting: the profile, or nowhere (null). */
export function quickSaveTarget(saveBehavior: number): "profile" | null {
  return saveBehavior === SAVE_BEHAVIOR.profile ? "profile" : null;
}
