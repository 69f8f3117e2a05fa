// What a member template (src/server/member-page.ts) carries besides its HTML: comments that
// mark where each request's own parts go, and the props its per-viewer islands were given.
// Outside a member render every helper here is a no-op, so personal pages stay as they were.
import type { RequestContext } from "../context/request-context.ts";
import type { ViewerSlot } from "../islands/viewer-slot.ts";

/** Where the client context and the viewer's slot values go (one mark, in the head). */
export const CONTEXT_MARK = "<!--pinloom-member:context-->";

/** The islands whose server HTML is rendered per request: their marks wrap the whole island. */
export const RENDERED_SLOTS = ["account", "reactions", "topics"] as const satisfies readonly ViewerSlot[];
export type RenderedSlot = (typeof RENDERED_SLOTS)[number];

export const openMark = (slot: RenderedSlot) => `<!--pinloom-member:${slot}-->`;
export const closeMark = (slot: RenderedSlot) => `<!--/pinloom-member:${slot}-->`;

type MemberContext = Pick<RequestContext, "renderMode" | "memberIslands">;

const isMember = (ctx: MemberContext) => ctx.renderMode === "member";

export function slotOpen(ctx: MemberContext, slot: RenderedSlot): string {
  return isMember(ctx) ? openMark(slot) : "";
}

export function slotClose(ctx: MemberContext, slot: RenderedSlot): string {
  return isMember(ctx) ? closeMark(slot) : "";
}

export function contextMark(ctx: MemberContext): string {
  return isMember(ctx) ? CONTEXT_MARK : "";
}

/** `{ viewerSlot }` for an island of a member render; nothing otherwise. */
export function viewerSlotOf(ctx: MemberContext, slot: ViewerSlot): { viewerSlot?: ViewerSlot } {
  return isMember(ctx) ? { viewerSlot: slot } : {};
}

/** Keeps an island's props with the template, so member-page.ts can render it again per request. */
export function recordMemberIsland(ctx: MemberContext, slot: RenderedSlot, props: object): void {
  if (isMember(ctx)) ctx.memberIslands?.set(slot, props);
}
