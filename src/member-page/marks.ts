// What a member template (member-page.server.ts) carries besides its HTML: comments that
// mark where each request's own parts go, and the props its per-viewer islands were given.
// Outside a member render every helper here is a no-op, so personal pages stay as they were.
//
// Every mark carries the template's own random nonce: the page's content (a pin's title in a
// meta tag, a related pin's alt text) may contain anything, but never a mark it cannot guess.
import type { MemberPart, RequestContext } from "~/context/request-context.ts";
import type { ViewerSlot, ViewerSlotProps } from "./viewer-values.ts";

/** The islands whose server HTML is rendered per request: their marks wrap the whole island. */
export const RENDERED_SLOTS = ["account", "save", "reactions", "topics"] as const satisfies readonly ViewerSlot[];
export type RenderedSlot = (typeof RENDERED_SLOTS)[number];

/** A member render's own state: its marks' nonce, and the props its per-viewer islands were given. */
export interface MemberRender {
  nonce: string;
  islands: Map<RenderedSlot, object>;
}

/**
 * The member page's part of a request context (RequestContext.member, opaque outside this
 * folder): a template render's marks, or the viewer's state read beside the session (its type
 * is member-page.server.ts's, which is why it is a parameter here).
 */
interface MemberOwn<State> {
  render?: MemberRender;
  /** Null when it was read and there is none; absent when it was not read. */
  state?: State | null;
}

const NONE: MemberOwn<never> = Object.freeze({});

export const ownOf = <State>(ctx: Pick<RequestContext, "member">): MemberOwn<State> => (ctx.member as unknown as MemberOwn<State> | undefined) ?? NONE;
export const asPart = <State>(own: MemberOwn<State>): MemberPart => own as unknown as MemberPart;

export const newMemberRender = (): MemberRender => ({ nonce: crypto.randomUUID(), islands: new Map() });

/** Where the client context and the viewer's slot values go (one mark, in the head). */
export const contextMarkOf = (nonce: string) => `<!--pinloom-member:${nonce}:context-->`;
export const openMark = (nonce: string, slot: RenderedSlot) => `<!--pinloom-member:${nonce}:${slot}-->`;
export const closeMark = (nonce: string, slot: RenderedSlot) => `<!--/pinloom-member:${nonce}:${slot}-->`;

type MemberContext = Pick<RequestContext, "renderMode" | "member">;

const renderOf = (ctx: MemberContext): MemberRender | null => (ctx.renderMode === "member" ? (ownOf(ctx).render ?? null) : null);

/** The head's mark for the client context, on a member render; nothing otherwise. */
export function contextMark(ctx: MemberContext): string {
  const render = renderOf(ctx);
  return render ? contextMarkOf(render.nonce) : "";
}

/** `{ viewerSlot }` for an island of a member render whose server HTML is the same for everyone; nothing otherwise. */
export function viewerSlotOf(ctx: MemberContext, slot: ViewerSlot): ViewerSlotProps {
  return renderOf(ctx) ? { viewerSlot: slot } : {};
}

/**
 * An island whose server HTML shows the viewer's own state: its props (with its slot, on a
 * member render) and the marks to put around it. A member render keeps the props with the
 * template, so member-page.server.ts can render the island again per request.
 */
export function memberIsland<P extends object>(ctx: MemberContext, slot: RenderedSlot, props: P): { props: P & ViewerSlotProps; open: string; close: string } {
  const render = renderOf(ctx);
  if (!render) return { props, open: "", close: "" };
  const withSlot = { ...props, viewerSlot: slot };
  render.islands.set(slot, withSlot);
  return { props: withSlot, open: openMark(render.nonce, slot), close: closeMark(render.nonce, slot) };
}
