// The server's side of the page strings (src/i18n/page-strings.ts): the per-locale tables an
// island renders with on the server, and the page's block the browser reads them from. Imported
// for its effect by the layout (src/layouts/Base.astro) and by the member-page island renderer
// (src/member-page/islands.server.ts), the two places islands render on the server.
import type { TFunction } from "i18next";
import { authStrings } from "~/accounts/auth-strings.ts";
import { commentStrings } from "~/comments/strings.ts";
import { DEFAULT_LOCALE, parseLocale, type Locale } from "~/context/locales.ts";
import { serializeForScript } from "~/context/request-context.ts";
import { saveStrings } from "~/saves/strings.ts";
import { searchBoxStrings } from "~/search/search-box-strings.ts";
import { getT } from "./i18n.ts";
import { provideServerStrings, type PageStringTables, type PageStringsName, type ServerStrings } from "./page-strings.ts";

const TABLES: { [N in PageStringsName]: (t: TFunction) => PageStringTables[N] } = {
  auth: authStrings,
  comments: commentStrings,
  save: saveStrings,
  search: searchBoxStrings,
};

/** The locale's table (islands pass the page's locale, which the server chose). */
export const serverPageStrings: ServerStrings = (name, locale) => TABLES[name](getT(parseLocale(locale) ?? DEFAULT_LOCALE));

provideServerStrings(serverPageStrings);

/** The block's order, so that one set of names gives one text. */
const BLOCK_ORDER = ["comments", "save", "search"] as const satisfies ReadonlyArray<Exclude<PageStringsName, "auth">>;

/** Each locale's blocks, by the names they hold: 45 locales and a few sets of names, bounded. */
const blocks = new Map<string, string>();
const BLOCKS_MAX = 512;

/** The page's block (JSON for a <script type="application/json">), or null when it needs none. */
export function pageStringsJson(names: ReadonlySet<PageStringsName>, locale: Locale): string | null {
  const held = BLOCK_ORDER.filter((name) => names.has(name));
  if (held.length === 0) return null;
  const key = `${locale}\u0000${held.join(",")}`;
  let json = blocks.get(key);
  if (json === undefined) {
    const t = getT(locale);
    json = serializeForScript(Object.fromEntries(held.map((name) => [name, TABLES[name](t)])));
    if (blocks.size < BLOCKS_MAX) blocks.set(key, json);
  }
  return json;
}
