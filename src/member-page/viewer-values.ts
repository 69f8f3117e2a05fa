// Per-viewer island props of a member page (member-page.server.ts). One render of a pin
// page is shared by the signed-in people who have nothing of their own on it; what differs
// between them (who they are, their save behaviour, their reaction, the topics they follow)
// reaches each island through a JSON block the server fills in for every request. An island
// rendered for such a page carries `viewerSlot` (marks.ts), and takes its slot's values over
// its props.
//
// Browser code: islands import it, so it imports nothing of the server (nor React: the server's
// member-page module imports it too). Each island is wrapped once (perViewer) and sees only its
// props, the slot's values already over them. The server renders each island's HTML from the
// same merged props (member-page.server.ts), so the first client render matches the server's
// and hydration changes nothing.
import type { ReactNode } from "react";
import { readJsonBlock } from "~/islands/json-block.ts";

export const VIEWER_SLOTS_ID = "pinloom-viewer-slots";

/** The islands whose props differ between people, by the name of their slot. */
export type ViewerSlot = "account" | "save" | "comments" | "reactions" | "topics";

export interface ViewerSlotProps {
  /** Set only on a member page: this island's per-viewer props are in the page's slot block. */
  viewerSlot?: ViewerSlot | undefined;
}

let slots: Readonly<Record<string, unknown>> | null = null;

function readSlots(): Readonly<Record<string, unknown>> {
  if (slots) return slots;
  const parsed = readJsonBlock(document, VIEWER_SLOTS_ID);
  slots = parsed && typeof parsed === "object" ? (parsed as Record<string, unknown>) : {};
  return slots;
}

/**
 * `Island`, taking its slot's values over its props on a member page. On the server (no
 * document) the props are passed as given: the member template's stand-ins, or the merged
 * props member-page.server.ts renders with. The island is called, not nested: it stays the
 * same component in React's tree (its hooks, its useId), wrapped or not.
 */
export function perViewer<P extends object>(Island: (props: P) => ReactNode): { (props: P & ViewerSlotProps): ReactNode; displayName: string } {
  function PerViewer({ viewerSlot, ...given }: P & ViewerSlotProps): ReactNode {
    const values = viewerSlot && typeof document !== "undefined" ? readSlots()[viewerSlot] : undefined;
    return Island((values && typeof values === "object" ? { ...given, ...values } : given) as P);
  }
  PerViewer.displayName = Island.name;
  return PerViewer;
}
