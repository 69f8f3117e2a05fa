// The string tables islands share, carried once per page instead of once per island. An island's
// props are an HTML attribute: Astro wraps every value and escapes every quote, so a 1.7 KB
// table of Save's strings took 2.6 KB, and a signed-in close-up carried it twice (Save and the
// grid's Save) beside the comments', search box's and account menu's tables. The page now
// carries each table once, as plain JSON in a <script type="application/json"> block
// (src/layouts/Base.astro), and the islands take their table from it.
//
// On the server (no document) an island's table comes from the per-locale tables themselves
// (src/i18n/page-strings.server.ts provides them); in the browser from the page's block, which
// the server wrote from the same tables, so hydration renders exactly the server's HTML.
import type { AuthStrings } from "~/accounts/auth-strings.ts";
import { pageAuthStrings } from "~/accounts/auth-strings.ts";
import type { CommentStrings } from "~/comments/strings.ts";
import type { SaveStrings } from "~/saves/strings.ts";
import type { SearchBoxStrings } from "~/search/search-box-strings.ts";
import { readJsonBlock } from "~/islands/json-block.ts";

export const PAGE_STRINGS_ID = "pinloom-strings";

/** The tables, by name. `auth` keeps its own block (pinloom-auth-strings, read by the log-in islands). */
export interface PageStringTables {
  auth: AuthStrings;
  comments: CommentStrings;
  save: SaveStrings;
  search: SearchBoxStrings;
}
export type PageStringsName = keyof PageStringTables;

/** The tables of the page's block (every name but `auth`). */
type PageStringsBlock = Partial<Omit<PageStringTables, "auth">>;

export type ServerStrings = <N extends PageStringsName>(name: N, locale: string) => PageStringTables[N];

let serverStrings: ServerStrings | null = null;

/** Set once by src/i18n/page-strings.server.ts, which the layout and the member-page renderer import. */
export function provideServerStrings(source: ServerStrings): void {
  serverStrings = source;
}

let block: PageStringsBlock | null = null;

function readBlock(doc: Pick<Document, "getElementById">): PageStringsBlock {
  if (block) return block;
  const parsed = readJsonBlock(doc, PAGE_STRINGS_ID);
  block = parsed && typeof parsed === "object" ? (parsed as PageStringsBlock) : {};
  return block;
}

/**
 * The island's table: on the server the locale's own, in the browser the page's copy. A page
 * that rendered the island without its table in the block is a bug in that page: it throws,
 * naming the table, rather than rendering blank words.
 */
export function pageStrings<N extends PageStringsName>(
  name: N,
  locale: string,
  doc: Pick<Document, "getElementById"> | undefined = typeof document === "undefined" ? undefined : document,
): PageStringTables[N] {
  if (!doc) {
    if (!serverStrings) throw new Error(`page strings: no server tables for "${name}" (import src/i18n/page-strings.server.ts)`);
    return serverStrings(name, locale);
  }
  const table = name === "auth" ? pageAuthStrings(doc as Document) : readBlock(doc)[name as Exclude<N, "auth">];
  if (!table) throw new Error(`page strings: the page carries no "${name}" table`);
  return table as PageStringTables[N];
}

/** Test seam: forget the parsed block (each test page is a new document). */
export function resetPageStrings(): void {
  block = null;
}
