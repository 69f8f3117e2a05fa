// What a member template (src/server/member-page.ts) carries besides its HTML: comments that
// mark where each request's own parts go, and the props its per-viewer islands were given.
// Outside a member render every helper here is a no-op, so personal pages stay as they were.
//
// Every mark carries the template's own random nonce: the page's content (a pin's title in a
// meta tag, a related pin's alt text) may contain anything, but never a mark it cannot guess.
import type { RequestContext } from "../context/request-context.ts";
import type { ViewerSlot } from "./viewer-values.ts";

/** The islands whose server HTML is rendered per request: their marks wrap the whole island. */
export const RENDERED_SLOTS = ["account", "save", "reactions", "topics"] as const satisfies readonly ViewerSlot[];
export type RenderedSlot = (typeof RENDERED_SLOTS)[number];

/** A member render's own state: its marks' nonce, and the props its per-viewer islands were given. */
export interface MemberRender {
  nonce: string;
  islands: Map<RenderedSlot, object>;
}

export const newMemberRender = (): MemberRender => ({ nonce: crypto.randomUUID(), islands: new Map() });

/** Where the client context and the viewer's slot values go (one mark, in the head). */
export const contextMarkOf = (nonce: string) => `<!--pinloom-member:${nonce}:context-->`;
export const openMark = (nonce: string, slot: RenderedSlot) => `<!--pinloom-member:${nonce}:${slot}-->`;
export const closeMark = (nonce: string, slot: RenderedSlot) => `<!--/pinloom-member:${nonce}:${slot}-->`;

type MemberContext = Pick<RequestContext, "renderMode" | "member">;

const memberOf = (ctx: MemberContext): MemberRender | null => (ctx.renderMode === "member" && ctx.member ? ctx.member : null);

export function slotOpen(ctx: MemberContext, slot: RenderedSlot): string {
  const member = memberOf(ctx);
  return member ? openMark(member.nonce, slot) : "";
}

export function slotClose(ctx: MemberContext, slot: RenderedSlot): string {
  const member = memberOf(ctx);
  return member ? closeMark(member.nonce, slot) : "";
}

export function contextMark(ctx: MemberContext): string {
  const member = memberOf(ctx);
  return member ? contextMarkOf(member.nonce) : "";
}

/** `{ viewerSlot }` for an island of a member render; nothing otherwise. */
export function viewerSlotOf(ctx: MemberContext, slot: ViewerSlot): { viewerSlot?: ViewerSlot } {
  return memberOf(ctx) ? { viewerSlot: slot } : {};
}

/** Keeps an island's props with the template, so member-page.ts can render it again per request. */
export function recordMemberIsland(ctx: MemberContext, slot: RenderedSlot, props: object): void {
  memberOf(ctx)?.islands.set(slot, props);
}
