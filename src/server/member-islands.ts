// The per-viewer islands of a member page, rendered per request (src/server/member-page.ts).
// Their HTML must be what @astrojs/react would have put in the page for the same props:
// renderToReadableStream with the island's identifier prefix, resource hints dropped, so the
// browser's hydration finds exactly the markup it renders itself.
//
// A render is a pure function of its component, props and prefix (the props carry the locale
// and every string), so it is remembered by exactly those: a person's account menu is the same
// on every close-up they open, and rendering it again is most of a member page's own cost.
import { createElement, type ComponentType } from "react";
import * as ReactDOMServer from "react-dom/server";
import AccountMenu from "../accounts/AccountMenu.tsx";
import SaveButton from "../saving/SaveButton.tsx";
import PinReactions from "../social/PinReactions.tsx";
import TopicFollowList from "../social/TopicFollowList.tsx";
import { BoundedLru } from "./bounded-lru.ts";
import type { RenderedSlot } from "./member-marks.ts";
import type { IslandRenderer } from "./member-page.ts";

const COMPONENTS: Record<RenderedSlot, ComponentType<never>> = {
  account: AccountMenu as ComponentType<never>,
  save: SaveButton as ComponentType<never>,
  reactions: PinReactions as ComponentType<never>,
  topics: TopicFollowList as ComponentType<never>,
};

/** Remembered renders: keyed by slot, prefix and props as JSON; keys past 16 KB are not kept. */
const renders = new BoundedLru<string>({ maxEntries: 2048, maxBytes: 8 * 1024 * 1024, ttlMs: 10 * 60 * 1000 });
const MAX_KEY_LENGTH = 16 * 1024;

export const renderMemberIsland: IslandRenderer = async (slot, props, prefix) => {
  const key = `${slot}\u0000${prefix ?? ""}\u0000${JSON.stringify(props)}`;
  const now = Date.now();
  const known = renders.get(key, now);
  if (known !== undefined) return known;
  const html = await renderIsland(slot, props, prefix);
  if (key.length <= MAX_KEY_LENGTH) renders.set(key, html, 2 * (key.length + html.length), now);
  return html;
};

async function renderIsland(slot: RenderedSlot, props: object, prefix: string | undefined): Promise<string> {
  const stream = await ReactDOMServer.renderToReadableStream(createElement(COMPONENTS[slot], props as never), prefix === undefined ? {} : { identifierPrefix: prefix });
  const html = await new Response(stream).text();
  return html.replace(/<link\s[^>]*rel="(?:preload|modulepreload|stylesheet|preconnect|dns-prefetch)"[^>]*>/g, "");
}
