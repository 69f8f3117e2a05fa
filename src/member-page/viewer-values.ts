// Per-viewer island props of a member page (src/server/member-page.ts). One render of a pin
// page is shared by the signed-in people who have nothing of their own on it; what differs
// between them (who they are, their save behaviour, their reaction, the topics they follow)
// reaches each island through a JSON block the server fills in for every request. An island
// rendered for such a page carries `viewerSlot`, and takes its slot's values over its props.
//
// The server renders each island's HTML from the same merged props (member-page.ts), so the
// first client render matches the server's and hydration changes nothing.

import { readJsonBlock } from "../islands/json-block.ts";

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
 * An island's props with its slot's values over them. On the server (no document) the props
 * are returned as given: the member template's stand-ins, or the merged props member-page.ts
 * renders with.
 */
export function withViewerSlot<P extends ViewerSlotProps>(props: P): P {
  if (!props.viewerSlot || typeof document === "undefined") return props;
  const values = readSlots()[props.viewerSlot];
  return values && typeof values === "object" ? { ...props, ...(values as Partial<P>) } : props;
}
