// The per-viewer islands of a member page, rendered per request (member-page.server.ts).
// Their HTML must be what @astrojs/react would have put in the page for the same props:
// renderToReadableStream with the island's identifier prefix, resource hints dropped, so the
// browser's hydration finds exactly the markup it renders itself.
import { createElement, type ComponentType } from "react";
import * as ReactDOMServer from "react-dom/server";
import AccountMenu from "~/accounts/AccountMenu.tsx";
import SaveButton from "~/saves/SaveButton.tsx";
import PinReactions from "~/social/PinReactions.tsx";
import TopicFollowList from "~/social/TopicFollowList.tsx";
import type { RenderedSlot } from "./marks.ts";
// Islands render with the server's string tables (src/i18n/page-strings.ts).
import "~/i18n/page-strings.server.ts";
import type { IslandRenderer } from "./member-page.server.ts";

const COMPONENTS: Record<RenderedSlot, ComponentType<never>> = {
  account: AccountMenu as ComponentType<never>,
  save: SaveButton as ComponentType<never>,
  reactions: PinReactions as ComponentType<never>,
  topics: TopicFollowList as ComponentType<never>,
};

export const renderMemberIsland: IslandRenderer = async (slot, props, prefix) => {
  const stream = await ReactDOMServer.renderToReadableStream(createElement(COMPONENTS[slot], props as never), prefix === undefined ? {} : { identifierPrefix: prefix });
  const html = await new Response(stream).text();
  return html.replace(/<link\s[^>]*rel="(?:preload|modulepreload|stylesheet|preconnect|dns-prefetch)"[^>]*>/g, "");
};
