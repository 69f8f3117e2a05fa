// spec 001 §3 savedInfo, as the repin answer carries it and the save island keeps it: one
// definition for the server and the island. boardId is null for a quick-save to the profile.
export interface SavedInfo {
  boardId: string | null;
  sectionId: string | null;
  /** The board's name (or the profile's label for a quick-save). */
  title: string;
  type: "board" | "profile";
  url: string;
  localPinId: string;
}
