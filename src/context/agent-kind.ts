// Who is behind a user agent: a person (with any browser, in-app ones included) or a fetcher
// with no person behind it (crawlers, link-preview fetchers, headless browsers, scripts).
// Fetchers get the complete server page and no client script; people get the islands.
import { isbot } from "isbot";

/**
 * Link-preview fetchers, named apart because they read Open Graph rather than pages. Names are
 * the fetchers' own: the apps that share a brand with them (Pinterest's and WhatsApp's in-app
 * browsers say `[Pinterest/iOS]`, `WhatsApp/2.23…` after a full browser string) are people, so
 * a name only counts once isbot has also called the agent a bot.
 */
const LINK_PREVIEW_FETCHERS =
  /facebookexternalhit|facebot|twitterbot|linkedinbot|pinterestbot|pinterest\/0\.|slackbot|discordbot|whatsapp\/|telegrambot|skypeuripreview|redditbot|embedly|vkshare/i;

export interface AgentKind {
  isBot: boolean;
  isSocialBot: boolean;
}

export function classifyAgent(userAgent: string): AgentKind {
  // isbot treats an empty user agent as a browser; a request with none is a script, not a person.
  const isBot = userAgent.trim() === "" || isbot(userAgent);
  return { isBot, isSocialBot: isBot && LINK_PREVIEW_FETCHERS.test(userAgent) };
}
