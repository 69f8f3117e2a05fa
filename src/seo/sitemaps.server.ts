// The crawl surface: robots.txt, a sitemap index and one family of sitemap files per
// kind of public page. Every kind is one registered SELECT of its public rows; paging, counting,
// URL encoding and XML are shared. Nothing secret may ever reach these files, so the public
// rules live here as SQL and are tested against secret, protected and archived rows
// (tests/worker/seo.worker.test.ts).
import { articlePath } from "~/articles/article.ts";
import { visibleSql } from "~/visibility/visibility.server.ts";
import { DEFAULT_LOCALE, toLanguageTag } from "~/context/locales.ts";
import { SERVED_LOCALES } from "~/i18n/served-locales.ts";
import { localeUrls } from "./head.ts";

/** The site's origin for every absolute URL here (astro.config.mjs `site`). */
export const SITE_ORIGIN = "https://pinloom.example";
/**
 * URLs per file. The protocol allows 50,000 and 50 MB; each URL here carries an alternate per
 * served locale (up to 45 plus x-default, about 5 KB), so 5,000 keep a file near 25 MB at most
 * and its build to a fraction of a second.
 */
export const SITEMAP_PAGE_SIZE = 5_000;
const SITEMAP_NAMESPACE = "http://www.sitemaps.org/schemas/sitemap/0.9";
const XHTML_NAMESPACE = "http://www.w3.org/1999/xhtml";
export const XML_CONTENT_TYPE = "application/xml; charset=utf-8";
export const SITEMAP_INDEX_PATH = "/sitemap.xml";

/** What every source query returns: the keyset (unique, compared with `>`) and a time. */
export interface SitemapRow {
  id: number;
  /** Epoch milliseconds, or NULL when the kind has no modification time. */
  lastmod: number | null;
}

export interface SitemapSource<Row extends SitemapRow = SitemapRow> {
  /** The file name's prefix: /sitemaps/{kind}-{n}.xml. Lowercase letters only. */
  kind: string;
  /** One SELECT of exactly the public rows, with `id` and `lastmod` columns (plus what `path` reads). */
  sql: string;
  /** The page's path on the site, each segment encoded with encodePathSegment. */
  path: (row: Row) => string;
}

/** Registers a source; the row type only matters to its own `path`. */
export function defineSource<Row extends SitemapRow>(source: SitemapSource<Row>): SitemapSource {
  return source as unknown as SitemapSource;
}

/**
 * A profile anyone may see (alias u): the publicProfile rule. It is also the owner rule of a
 * board page: a private, under-16 or limited-login profile hides its boards too, so their board
 * URLs would be 404s that admit the boards exist.
 */
const PUBLIC_PROFILE = visibleSql("publicProfile", { user: "u" }, null);

/** A board anyone may open and find (alias b, owner u): the publicBoard rule, with a slug to address it by. */
const PUBLIC_BOARD = `${visibleSql("publicBoard", { board: "b", owner: "u" }, null)} AND b.slug <> ''`;

/**
 * A pin anyone may open (alias p, its own board LEFT JOINed as b, its pinner u): the sitemapPin
 * rule, the close-up's rule for a stranger less unsafe and noindex pins, so no listed URL is a
 * 404. The unary `+` keeps SQLite off pins_feed (is_deleted, is_hidden), which matches nearly
 * every pin: without statistics the planner prefers it and then sorts every public pin, where
 * the primary key (pages) or pins_pinner (profiles) walks only what it returns.
 */
const PUBLIC_PIN = visibleSql("sitemapPin", { pin: "p", board: "b", pinner: "u" }, null, { unindexed: ["pin"] });

/**
 * A profile (alias u) with something public to show: a public board or a pin anyone may open.
 * The sitemap lists exactly these profiles, and a profile page without any is noindex.
 */
export const PROFILE_HAS_PUBLIC_CONTENT = `(EXISTS (SELECT 1 FROM boards b WHERE b.owner_id = u.id AND ${PUBLIC_BOARD})
                 OR EXISTS (SELECT 1 FROM pins p LEFT JOIN boards b ON b.id = p.board_id
                            WHERE p.pinner_id = u.id AND ${PUBLIC_PIN}))`;

/** Kinds in index order. An `articles` kind joins by adding one defineSource here. */
export const SITEMAP_SOURCES: readonly SitemapSource[] = [
  defineSource<SitemapRow>({
    kind: "pins",
    sql: `SELECT p.id AS id, p.updated_at AS lastmod
          FROM pins p LEFT JOIN boards b ON b.id = p.board_id JOIN users u ON u.id = p.pinner_id
          WHERE ${PUBLIC_PIN}`,
    path: (row) => `/pin/${row.id}/`,
  }),
  defineSource<SitemapRow & { username: string; slug: string }>({
    kind: "boards",
    sql: `SELECT b.id AS id, b.updated_at AS lastmod, u.username AS username, b.slug AS slug
          FROM boards b JOIN users u ON u.id = b.owner_id
          WHERE ${PUBLIC_BOARD}`,
    path: (row) => `/${encodePathSegment(row.username)}/${encodePathSegment(row.slug)}/`,
  }),
  defineSource<SitemapRow & { username: string; board_slug: string; slug: string }>({
    kind: "sections",
    // A public board's sections (/{username}/{board}/{section}/): the board rule is the section page's.
    sql: `SELECT s.id AS id, NULL AS lastmod, u.username AS username, b.slug AS board_slug, s.slug AS slug
          FROM board_sections s JOIN boards b ON b.id = s.board_id JOIN users u ON u.id = b.owner_id
          WHERE ${PUBLIC_BOARD} AND s.slug <> ''`,
    path: (row) => `/${encodePathSegment(row.username)}/${encodePathSegment(row.board_slug)}/${encodePathSegment(row.slug)}/`,
  }),
  defineSource<SitemapRow & { username: string }>({
    kind: "profiles",
    sql: `SELECT u.id AS id, NULL AS lastmod, u.username AS username
          FROM users u
          WHERE ${PUBLIC_PROFILE} AND ${PROFILE_HAS_PUBLIC_CONTENT}`,
    path: (row) => `/${encodePathSegment(row.username)}/`,
  }),
  defineSource<SitemapRow & { title: string; content_type: number; is_shopping: number }>({
    kind: "articles",
    // Published editorial articles (/today/{segment}/{slug}/{id}/), at their canonical path.
    sql: `SELECT a.id AS id, a.updated_at AS lastmod, a.title AS title, a.content_type AS content_type, a.is_shopping AS is_shopping
          FROM today_articles a
          WHERE a.is_published = 1`,
    path: (row) => articlePath({ id: row.id, title: row.title, isShopping: row.is_shopping === 1, contentType: row.content_type }),
  }),
];

export interface SitemapOptions {
  /** URLs per file; SITEMAP_PAGE_SIZE unless a test proves paging with fewer. */
  pageSize?: number;
  sources?: readonly SitemapSource[];
}

export interface SitemapUrl {
  /** Absolute URL, not yet XML-escaped. */
  loc: string;
  lastmod: string | null;
}

export interface SitemapFile {
  kind: string;
  page: number;
}

const FILE_NAME = /^([a-z]{1,32})-([1-9][0-9]{0,5})\.xml$/;

/** "pins-3.xml" → {kind: "pins", page: 3}; anything else (other case, zero, padding) → null. */
export function parseSitemapFileName(name: string): SitemapFile | null {
  const match = FILE_NAME.exec(name);
  return match ? { kind: match[1]!, page: Number(match[2]) } : null;
}

function sitemapFilePath(file: SitemapFile): string {
  return `/sitemaps/${file.kind}-${file.page}.xml`;
}

/**
 * One path segment per RFC 3986: everything but unreserved characters, sub-delims, ":" and
 * "@" is percent-encoded, so "&" stays literal (and is XML-escaped later). "." and ".." would
 * be resolved away by clients, so their dots are encoded.
 */
export function encodePathSegment(segment: string): string {
  if (segment === "." || segment === "..") return segment.replace(/\./g, "%2E");
  return encodeURIComponent(segment).replace(/%(?:24|26|2B|2C|3A|3B|3D|40)/g, (escape) => decodeURIComponent(escape));
}

const XML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => XML_ESCAPES[char]!);
}

function absoluteUrl(path: string): string {
  return `${SITE_ORIGIN}${path}`;
}

/** W3C datetime to the second, or null for a missing or impossible time. */
function lastmodOf(epochMs: number | null): string | null {
  if (epochMs === null || !Number.isFinite(epochMs)) return null;
  const date = new Date(epochMs);
  return Number.isNaN(date.getTime()) ? null : date.toISOString().replace(/\.\d{3}Z$/, "Z");
}

function pageSizeOf(options: SitemapOptions): number {
  const size = options.pageSize ?? SITEMAP_PAGE_SIZE;
  if (!Number.isSafeInteger(size) || size < 1 || size > SITEMAP_PAGE_SIZE) throw new RangeError(`page size ${size}`);
  return size;
}

function sourceOf(kind: string, options: SitemapOptions): SitemapSource | undefined {
  return (options.sources ?? SITEMAP_SOURCES).find((source) => source.kind === kind);
}

/** Every file the index lists: ceil(count / page size) per kind; a kind with no rows has none. */
export async function listSitemapFiles(db: D1Database, options: SitemapOptions = {}): Promise<SitemapFile[]> {
  const pageSize = pageSizeOf(options);
  const sources = options.sources ?? SITEMAP_SOURCES;
  if (sources.length === 0) return [];
  const counts = await db.batch<{ n: number }>(sources.map((source) => db.prepare(`SELECT COUNT(*) AS n FROM (${source.sql})`)));
  return sources.flatMap((source, index) => {
    const pages = Math.ceil((counts[index]?.results[0]?.n ?? 0) / pageSize);
    return Array.from({ length: pages }, (_, page) => ({ kind: source.kind, page: page + 1 }));
  });
}

/** The statement behind sitemapPage (exported so a test can check its query plan). */
export function sitemapPageQuery(source: SitemapSource, page: number, pageSize: number): { sql: string; params: number[] } {
  const skip = (page - 1) * pageSize;
  const after = skip === 0 ? "" : "WHERE id > (SELECT max(id) FROM (SELECT id FROM src ORDER BY id LIMIT ?2))";
  return {
    sql: `WITH src AS NOT MATERIALIZED (${source.sql}) SELECT * FROM src ${after} ORDER BY id LIMIT ?1`,
    params: skip === 0 ? [pageSize] : [pageSize, skip],
  };
}

/**
 * The URLs of one file, or null for an unknown kind or a page past the end. Keyset paging: the
 * page starts after the largest id among the first (page - 1) × size public ids, and reads
 * `id > that` in id order with a LIMIT, in one statement (the CTE is inlined, not materialised,
 * so both reads walk the primary key).
 */
export async function sitemapPage(db: D1Database, kind: string, page: number, options: SitemapOptions = {}): Promise<SitemapUrl[] | null> {
  const pageSize = pageSizeOf(options);
  const source = sourceOf(kind, options);
  if (!source || !Number.isSafeInteger(page) || page < 1) return null;
  const query = sitemapPageQuery(source, page, pageSize);
  const { results } = await db.prepare(query.sql).bind(...query.params).all<SitemapRow>();
  if (results.length === 0) return null;
  return results.map((row) => ({ loc: absoluteUrl(source.path(row)), lastmod: lastmodOf(row.lastmod) }));
}

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

/**
 * Each URL with its language versions, as its page's hreflang links name them: every served
 * locale (English at the page's own URL, the others with ?locale=) and x-default.
 */
function renderUrlset(urls: readonly SitemapUrl[]): string {
  const entries = urls.map(({ loc, lastmod }) => {
    const inLocale = localeUrls(SITE_ORIGIN, loc);
    const link = (hreflang: string, href: string) => `<xhtml:link rel="alternate" hreflang="${hreflang}" href="${escapeXml(href)}"/>`;
    const alternates = SERVED_LOCALES.map((locale) => link(toLanguageTag(locale), inLocale(locale))).join("") + link("x-default", inLocale(DEFAULT_LOCALE));
    return `<url><loc>${escapeXml(loc)}</loc>${lastmod ? `<lastmod>${escapeXml(lastmod)}</lastmod>` : ""}${alternates}</url>\n`;
  });
  return `${XML_DECLARATION}<urlset xmlns="${SITEMAP_NAMESPACE}" xmlns:xhtml="${XHTML_NAMESPACE}">\n${entries.join("")}</urlset>\n`;
}

function renderSitemapIndex(files: readonly SitemapFile[]): string {
  const entries = files.map((file) => `<sitemap><loc>${escapeXml(absoluteUrl(sitemapFilePath(file)))}</loc></sitemap>\n`);
  return `${XML_DECLARATION}<sitemapindex xmlns="${SITEMAP_NAMESPACE}">\n${entries.join("")}</sitemapindex>\n`;
}

export async function buildSitemapIndex(db: D1Database, options: SitemapOptions = {}): Promise<string> {
  return renderSitemapIndex(await listSitemapFiles(db, options));
}

/** One sitemap file's XML, or null when it does not exist (the route answers 404). */
export async function buildSitemapPage(db: D1Database, kind: string, page: number, options: SitemapOptions = {}): Promise<string | null> {
  const urls = await sitemapPage(db, kind, page, options);
  return urls ? renderUrlset(urls) : null;
}

/** Paths no crawler has business in: the API surfaces. Pages and media stay crawlable. */
const ROBOTS_DISALLOW = ["/resource/", "/v3/", "/_/"] as const;

export function buildRobotsTxt(): string {
  const rules = ROBOTS_DISALLOW.map((path) => `Disallow: ${path}\n`).join("");
  return `User-agent: *\nAllow: /\n${rules}\nSitemap: ${absoluteUrl(SITEMAP_INDEX_PATH)}\n`;
}
