// The crawl surface: robots.txt, the sitemap index and every file it lists, against a small
// world with one of each thing that must never be published (secret, protected and archived
// boards, deleted/hidden/unsafe/noindex pins, pins saved only to non-public boards, private
// and limited-login profiles). Storage persists across this file: seeded once.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import {
  buildSitemapIndex,
  buildSitemapPage,
  defineSource,
  encodePathSegment,
  escapeXml,
  listSitemapFiles,
  parseSitemapFileName,
  SITE_ORIGIN,
  SITEMAP_PAGE_SIZE,
  SITEMAP_SOURCES,
  sitemapPage,
  sitemapPageQuery,
  type SitemapRow,
} from "~/seo/sitemaps.server.ts";
import { fetchWorker } from "./fixtures.ts";

const T = 1_790_000_000_000;

// id, username, is_private_profile, login_state
const USERS: Array<[number, string, number, string]> = [
  [1, "ana", 0, "full"],
  [2, "pia_private", 1, "full"],
  [3, "lou_limited", 0, "limited"],
  [4, "quiet", 0, "full"], // owns only a secret board
  [5, "solo", 0, "full"], // one boardless pin, no boards
  [6, "bread&butter", 0, "full"], // escaping: "&" in a username and a slug
  [7, "archivist", 0, "full"], // only an archived (empty) and a protected board
];

// id, owner, name, slug, privacy, archived
const BOARDS: Array<[number, number, string, string, string, boolean]> = [
  [10, 1, "Weeknight dinners", "weeknight-dinners", "public", false],
  [11, 1, "Surprise party for Maya", "surprise-party-for-maya", "secret", false],
  [12, 1, "Holiday gift list", "holiday-gift-list", "protected", false],
  [13, 1, "Old apartment ideas", "old-apartment-ideas", "public", true],
  [14, 2, "Pia's picks", "pias-picks", "public", false],
  [15, 3, "Cozy reads corner", "cozy-reads-corner", "public", false],
  [16, 4, "Quiet plans", "quiet-plans", "secret", false],
  [17, 6, "Salt & pepper", "salt&pepper's", "public", false],
  [18, 7, "Past projects", "past-projects", "public", true],
  [19, 7, "Drafts for work", "drafts-for-work", "protected", false],
  [20, 1, "Spring bakes", "spring-bakes", "public", false], // public, no pins
];

interface PinSeed {
  id: number;
  pinner: number;
  board: number | null;
  /** Boards it is saved to besides its own board. */
  savedTo?: number[];
  deleted?: boolean;
  hidden?: boolean;
  unsafe?: boolean;
  noindex?: string;
}

const PINS: PinSeed[] = [
  { id: 101, pinner: 1, board: 10 },
  { id: 102, pinner: 1, board: 10, deleted: true },
  { id: 103, pinner: 1, board: 10, hidden: true },
  { id: 104, pinner: 1, board: 10, unsafe: true },
  { id: 105, pinner: 1, board: 11 }, // Maya
  { id: 106, pinner: 3, board: 11 }, // Maya, by a collaborator
  { id: 107, pinner: 1, board: 12 }, // protected
  { id: 108, pinner: 1, board: 13 }, // public board, archived: its people only
  { id: 109, pinner: 5, board: null }, // boardless, saved nowhere
  { id: 110, pinner: 1, board: null, savedTo: [11] }, // boardless, saved only to the secret board: a save hides nothing
  { id: 111, pinner: 1, board: null, savedTo: [11, 10] }, // ... and also to a public one
  { id: 112, pinner: 1, board: 10, savedTo: [11] }, // first pinned to a public board
  { id: 113, pinner: 1, board: 10, noindex: "spam" },
  { id: 114, pinner: 2, board: 14 }, // by a private profile: a missing pin to strangers
  { id: 115, pinner: 3, board: 15 }, // by a limited-login account: hidden like a private one
  { id: 116, pinner: 4, board: 16 },
  { id: 117, pinner: 6, board: 17 },
  { id: 118, pinner: 7, board: 19 },
  { id: 119, pinner: 1, board: null, savedTo: [12] }, // boardless, saved only to a protected board: its page is open
];

const url = (path: string) => `${SITE_ORIGIN}${path}`;
const EXPECTED_PINS = [101, 109, 110, 111, 112, 117, 119].map((id) => url(`/pin/${id}/`));
// Not pia_private's or lou_limited's public boards: a private or limited-login profile hides
// its board pages too. Their pins (114, 115) follow the pin rule alone.
const EXPECTED_BOARDS = [url("/ana/weeknight-dinners/"), url("/bread&butter/salt&pepper's/"), url("/ana/spring-bakes/")];
const EXPECTED_PROFILES = [url("/ana/"), url("/solo/"), url("/bread&butter/")];

// id, title, content_type, is_shopping, is_published: editorial articles at their canonical paths.
const ARTICLES: Array<[number, string, number, number, number]> = [
  [1, "Cozy reads & more", 1, 0, 1],
  [2, "Unpublished draft plans", 0, 0, 0],
  [3, "Gifts: under $50!", 2, 1, 1],
];
const EXPECTED_ARTICLES = [url("/today/best/cozy-reads-more/1/"), url("/today/shop/gifts-under-50/3/")];

/** Text that must not occur in the index or any sitemap file. */
const NEVER = [
  "Maya",
  "surprise-party-for-maya",
  "holiday-gift-list",
  "old-apartment-ideas",
  "quiet-plans",
  "past-projects",
  "drafts-for-work",
  "/quiet/",
  "/archivist/",
  ...[102, 103, 104, 105, 106, 107, 108, 113, 116, 118].map((id) => `/pin/${id}/`),
  "pia_private", // no URL under a private profile: not the profile, not its public board
  "pias-picks",
  "lou_limited", // nor under a limited-login account
  "cozy-reads-corner",
  "unpublished-draft-plans", // an unpublished article
];

beforeAll(async () => {
  const db = env.DB;
  const statements = [
    ...USERS.map(([id, username, isPrivate, loginState]) =>
      db
        .prepare("INSERT INTO users (id, username, email, is_private_profile, login_state, created_at) VALUES (?1, ?2, ?3, ?4, ?5, 0)")
        .bind(id, username, `user${id}@pinloom.test`, isPrivate, loginState),
    ),
    ...BOARDS.map(([id, owner, name, slug, privacy, archived]) =>
      db
        .prepare("INSERT INTO boards (id, owner_id, name, slug, privacy, archived_at, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, 0, ?7)")
        .bind(id, owner, name, slug, privacy, archived ? T : null, T + id * 1000),
    ),
  ];
  for (const pin of PINS) {
    statements.push(
      db
        .prepare(
          `INSERT INTO pins (id, pinner_id, board_id, kind, title, image_signature, is_deleted, is_hidden, is_unsafe,
                             seo_noindex_reason, created_at, updated_at)
           VALUES (?1, ?2, ?3, 'image', ?4, 'sig', ?5, ?6, ?7, ?8, ?9, ?10)`,
        )
        .bind(
          pin.id,
          pin.pinner,
          pin.board,
          pin.board === 11 ? "Surprise party for Maya: balloons" : `Pin ${pin.id}`,
          pin.deleted ? 1 : 0,
          pin.hidden ? 1 : 0,
          pin.unsafe ? 1 : 0,
          pin.noindex ?? null,
          T,
          T + pin.id * 1000,
        ),
    );
    for (const board of [...(pin.board === null ? [] : [pin.board]), ...(pin.savedTo ?? [])]) {
      statements.push(
        db
          .prepare("INSERT INTO board_pins (board_id, pin_id, saved_by, position, created_at) VALUES (?1, ?2, ?3, 1, ?4)")
          .bind(board, pin.id, pin.pinner, T),
      );
    }
  }
  for (const [id, title, contentType, isShopping, isPublished] of ARTICLES) {
    statements.push(
      db
        .prepare(
          `INSERT INTO today_articles (id, title, content_type, is_shopping, is_published, published_at, updated_at)
           VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)`,
        )
        .bind(id, title, contentType, isShopping, isPublished, T, T + id * 1000),
    );
  }
  await db.batch(statements);
});

const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';
const NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';

/**
 * A small well-formedness check without a DOM: the declaration, then tags that nest and close
 * in order under one root with the sitemap namespace, and text holding no "<" and no "&" that
 * does not start one of XML's entities.
 */
function expectWellFormed(xml: string, root: "urlset" | "sitemapindex"): void {
  expect(xml.startsWith(DECLARATION)).toBe(true);
  const body = xml.slice(DECLARATION.length);
  const token = /<(\/?)([A-Za-z][\w:.-]*)((?:\s+[\w:.-]+="(?:[^"<&]|&(?:amp|lt|gt|quot|apos);)*")*)\s*(\/?)>|([^<]+)/y;
  const stack: string[] = [];
  let roots = 0;
  let index = 0;
  while (index < body.length) {
    token.lastIndex = index;
    const match = token.exec(body);
    if (!match) throw new Error(`not XML at ${index}: ${body.slice(index, index + 300)}`);
    index = token.lastIndex;
    const [, closing, name, attributes, selfClosing, text] = match;
    if (text !== undefined) {
      if (stack.length === 0) expect(text.trim()).toBe("");
      expect(text.replace(/&(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);/g, "")).not.toMatch(/[&<]/);
    } else if (closing) {
      expect(stack.pop()).toBe(name);
    } else if (!selfClosing) {
      if (stack.length === 0) {
        roots++;
        expect(name).toBe(root);
        expect(attributes).toContain(NS);
      }
      stack.push(name!);
    }
  }
  expect(stack).toEqual([]);
  expect(roots).toBe(1);
  // And the protocol's shape: each entry one <loc>, an optional <lastmod>, then (a URL) its
  // language versions, nothing else.
  const entry =
    root === "urlset"
      ? '<url><loc>[^<]+</loc>(?:<lastmod>\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ</lastmod>)?(?:<xhtml:link rel="alternate" hreflang="[A-Za-z0-9-]+" href="[^"<]+"/>)+</url>\\n'
      : "<sitemap><loc>[^<]+</loc></sitemap>\\n";
  const namespaces = root === "urlset" ? `${NS} xmlns:xhtml="http://www.w3.org/1999/xhtml"` : NS;
  expect(body).toMatch(new RegExp(`^<${root} ${namespaces}>\\n(?:${entry})*</${root}>\\n$`));
}

function unescapeXml(text: string): string {
  const named: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
  return text.replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => named[name]!);
}

const locsOf = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => unescapeXml(match[1]!));
const pathOf = (absolute: string) => absolute.slice(SITE_ORIGIN.length);

async function fetchXml(path: string): Promise<{ response: Response; xml: string }> {
  const response = await fetchWorker(path);
  return { response, xml: await response.text() };
}

function expectXmlAnswer(response: Response): void {
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("application/xml; charset=utf-8");
  expect(response.headers.get("cache-control")).toBe("public, max-age=3600");
  // Cacheable by anyone: never a cookie.
  expect(response.headers.get("set-cookie")).toBeNull();
}

describe("GET /robots.txt", () => {
  it("allows crawling, keeps crawlers off the API and names the sitemap index", async () => {
    const response = await fetchWorker("/robots.txt");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("public, max-age=3600");
    const lines = (await response.text()).split("\n");
    expect(lines[0]).toBe("User-agent: *");
    expect(lines).toContain("Sitemap: https://pinloom.example/sitemap.xml");
    expect(lines).toEqual(expect.arrayContaining(["Disallow: /resource/", "Disallow: /v3/", "Disallow: /_/"]));
    expect(lines).not.toContain("Disallow: /");
    expect(lines.filter((line) => line.startsWith("Disallow:"))).not.toContain("Disallow: /media/");
  });
});

describe("GET /sitemap.xml", () => {
  it("is a well-formed index of one file per kind at this size, with no empty kinds", async () => {
    const { response, xml } = await fetchXml("/sitemap.xml");
    expectXmlAnswer(response);
    expectWellFormed(xml, "sitemapindex");
    expect(locsOf(xml)).toEqual([
      url("/sitemaps/pins-1.xml"),
      url("/sitemaps/boards-1.xml"),
      url("/sitemaps/profiles-1.xml"),
      url("/sitemaps/articles-1.xml"),
    ]);
  });

  it("answers HEAD without a body", async () => {
    const response = await fetchWorker("/sitemap.xml", { method: "HEAD" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    expect(await response.text()).toBe("");
  });
});

describe("the sitemap files", () => {
  async function everyFile(): Promise<Map<string, string>> {
    const files = new Map<string, string>();
    const index = await fetchXml("/sitemap.xml");
    files.set("/sitemap.xml", index.xml);
    for (const loc of locsOf(index.xml)) {
      const { response, xml } = await fetchXml(pathOf(loc));
      expectXmlAnswer(response);
      expectWellFormed(xml, "urlset");
      files.set(pathOf(loc), xml);
    }
    return files;
  }

  it("list exactly the public pins, boards, profiles and published articles", async () => {
    const files = await everyFile();
    expect(locsOf(files.get("/sitemaps/pins-1.xml")!)).toEqual(EXPECTED_PINS);
    expect(locsOf(files.get("/sitemaps/boards-1.xml")!)).toEqual(EXPECTED_BOARDS);
    expect(locsOf(files.get("/sitemaps/profiles-1.xml")!)).toEqual(EXPECTED_PROFILES);
    expect(locsOf(files.get("/sitemaps/articles-1.xml")!)).toEqual(EXPECTED_ARTICLES);
  });

  it("never name a secret, protected or archived board, a non-public pin or a private or limited profile", async () => {
    const files = await everyFile();
    expect(files.size).toBe(5);
    for (const [path, xml] of files) {
      for (const text of NEVER) expect(xml, `${path} contains ${text}`).not.toContain(text);
      for (const loc of locsOf(xml)) expect(loc.startsWith(`${SITE_ORIGIN}/`), loc).toBe(true);
    }
  });

  it("XML-escapes URLs (& and ' in a username and a slug)", async () => {
    const { xml } = await fetchXml("/sitemaps/boards-1.xml");
    expect(xml).toContain("<loc>https://pinloom.example/bread&amp;butter/salt&amp;pepper&apos;s/</loc>");
    expect(xml).not.toContain("bread&butter");
    const profiles = await fetchXml("/sitemaps/profiles-1.xml");
    expect(profiles.xml).toContain("<loc>https://pinloom.example/bread&amp;butter/</loc>");
  });

  it("date pins and boards by updated_at, to the second", async () => {
    const { xml } = await fetchXml("/sitemaps/pins-1.xml");
    expect(xml).toContain(`<url><loc>${url("/pin/101/")}</loc><lastmod>${new Date(T + 101_000).toISOString().replace(".000", "")}</lastmod><xhtml:link `);
    const boards = await fetchXml("/sitemaps/boards-1.xml");
    expect(boards.xml).toContain(`<lastmod>${new Date(T + 10_000).toISOString().replace(".000", "")}</lastmod>`);
    const articles = await fetchXml("/sitemaps/articles-1.xml");
    expect(articles.xml).toContain(`<url><loc>${EXPECTED_ARTICLES[0]}</loc><lastmod>${new Date(T + 1_000).toISOString().replace(".000", "")}</lastmod><xhtml:link `);
  });

  it.each([
    "articles-2.xml", // past the end
    "stories-1.xml", // not a kind
    "pins-2.xml", // past the end
    "profiles-999999.xml",
    "pins-0.xml",
    "pins-01.xml",
    "pins-1234567.xml",
    "pins--1.xml",
    "PINS-1.xml",
    "pins-1.XML",
    "pins-1.xml.gz",
    "pins-1.xmlx",
    "pins.xml",
    "pins-1",
    "constructor-1.xml",
    "__proto__-1.xml",
    "pins-1.xml%00",
    "pins%2D1.xml%2F..",
  ])("/sitemaps/%s is a 404", async (name) => {
    const response = await fetchWorker(`/sitemaps/${name}`);
    expect(response.status).toBe(404);
    await response.arrayBuffer();
  });
});

describe("the sitemap builders", () => {
  it("name each URL's language versions, and a full file of them stays inside the protocol's 50 MB and 50,000 URLs", async () => {
    const xml = (await buildSitemapPage(env.DB, "pins", 1))!;
    const first = xml.match(/<url>.*?<\/url>/)![0];
    expect(first).toContain(`<xhtml:link rel="alternate" hreflang="en-US" href="${url("/pin/101/")}"/>`);
    expect(first).toContain(`<xhtml:link rel="alternate" hreflang="ja" href="${url("/pin/101/?locale=ja")}"/>`);
    expect(first).toContain(`<xhtml:link rel="alternate" hreflang="es-419" href="${url("/pin/101/?locale=es_419")}"/>`);
    expect(first).toContain(`<xhtml:link rel="alternate" hreflang="x-default" href="${url("/pin/101/")}"/>`);
    // With all 45 locales served and a long pin id, an entry grows to about 46 links of this one's longest.
    const links = first.match(/<xhtml:link [^>]+>/g)!;
    const longest = Math.max(...links.map((link) => link.length)) + 12;
    expect(SITEMAP_PAGE_SIZE).toBeLessThanOrEqual(50_000);
    expect(SITEMAP_PAGE_SIZE * 46 * longest).toBeLessThan(50 * 1024 * 1024);
  });

  it("page every kind by id with a small page size, each URL exactly once", async () => {
    const pageSize = 3;
    const files = await listSitemapFiles(env.DB, { pageSize });
    expect(files.map((file) => `${file.kind}-${file.page}`)).toEqual(["pins-1", "pins-2", "pins-3", "boards-1", "profiles-1", "articles-1"]);
    const index = await buildSitemapIndex(env.DB, { pageSize });
    expectWellFormed(index, "sitemapindex");
    expect(locsOf(index)).toEqual(files.map((file) => url(`/sitemaps/${file.kind}-${file.page}.xml`)));

    const pins: string[] = [];
    for (const [page, size] of [[1, 3], [2, 3], [3, 1]] as const) {
      const urls = (await sitemapPage(env.DB, "pins", page, { pageSize }))!;
      expect(urls.length).toBe(size);
      pins.push(...urls.map((entry) => entry.loc));
    }
    expect(pins).toEqual(EXPECTED_PINS);
    expect(await sitemapPage(env.DB, "pins", 4, { pageSize })).toBeNull();
    expect(await buildSitemapPage(env.DB, "pins", 4, { pageSize })).toBeNull();

    const boards = [...(await sitemapPage(env.DB, "boards", 1, { pageSize: 2 }))!, ...(await sitemapPage(env.DB, "boards", 2, { pageSize: 2 }))!];
    expect(boards.map((entry) => entry.loc)).toEqual(EXPECTED_BOARDS);
    expect(await sitemapPage(env.DB, "boards", 3, { pageSize: 2 })).toBeNull();
    expect(await sitemapPage(env.DB, "profiles", 2, { pageSize })).toBeNull();
  });

  it("give every URL its own file with a page size of one", async () => {
    const files = await listSitemapFiles(env.DB, { pageSize: 1 });
    expect(files.length).toBe(EXPECTED_PINS.length + EXPECTED_BOARDS.length + EXPECTED_PROFILES.length + EXPECTED_ARTICLES.length);
    const locs: string[] = [];
    for (const file of files) {
      const xml = (await buildSitemapPage(env.DB, file.kind, file.page, { pageSize: 1 }))!;
      expectWellFormed(xml, "urlset");
      expect(locsOf(xml).length).toBe(1);
      locs.push(...locsOf(xml));
    }
    expect(locs).toEqual([...EXPECTED_PINS, ...EXPECTED_BOARDS, ...EXPECTED_PROFILES, ...EXPECTED_ARTICLES]);
  });

  it("read pages by walking the primary key, not by sorting every public row", async () => {
    for (const source of SITEMAP_SOURCES) {
      const query = sitemapPageQuery(source, 2, 3);
      const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${query.sql}`).bind(...query.params).all<{ detail: string }>();
      const plan = results.map((row) => row.detail).join("\n");
      expect(plan, plan).toMatch(/USING INTEGER PRIMARY KEY \(rowid>\?\)/);
      expect(plan, plan).not.toMatch(/TEMP B-TREE|pins_feed/);
    }
  });

  it("answer null for an unknown kind or an impossible page", async () => {
    expect(await sitemapPage(env.DB, "stories", 1)).toBeNull();
    expect(await sitemapPage(env.DB, "pins", 0)).toBeNull();
    expect(await sitemapPage(env.DB, "pins", -1)).toBeNull();
    expect(await sitemapPage(env.DB, "pins", 1.5)).toBeNull();
  });

  it("take a new kind by registering one query, and list no file for a kind with no rows", async () => {
    const withStories = [
      ...SITEMAP_SOURCES,
      defineSource<SitemapRow & { slug: string }>({
        kind: "stories",
        sql: "SELECT 7 AS id, NULL AS lastmod, 'slow weekend & more' AS slug",
        path: (row) => `/article/${encodePathSegment(row.slug)}/`,
      }),
    ];
    expect(locsOf(await buildSitemapIndex(env.DB, { sources: withStories }))).toContain(url("/sitemaps/stories-1.xml"));
    const xml = (await buildSitemapPage(env.DB, "stories", 1, { sources: withStories }))!;
    expect(xml).toContain("<loc>https://pinloom.example/article/slow%20weekend%20&amp;%20more/</loc>");

    const empty = [...SITEMAP_SOURCES, defineSource({ kind: "stories", sql: "SELECT 1 AS id, NULL AS lastmod WHERE 0", path: () => "/" })];
    expect(locsOf(await buildSitemapIndex(env.DB, { sources: empty }))).not.toContain(url("/sitemaps/stories-1.xml"));
    expect(await buildSitemapPage(env.DB, "stories", 1, { sources: empty })).toBeNull();
  });

  it("parse file names strictly", () => {
    expect(parseSitemapFileName("pins-1.xml")).toEqual({ kind: "pins", page: 1 });
    expect(parseSitemapFileName("profiles-120.xml")).toEqual({ kind: "profiles", page: 120 });
    for (const name of ["pins-0.xml", "pins-01.xml", "Pins-1.xml", "pins-1.xml ", "pins_1.xml", "-1.xml", "pins-1.xml/x"]) {
      expect(parseSitemapFileName(name), name).toBeNull();
    }
  });

  it("encode path segments and escape XML", () => {
    expect(escapeXml(`a&b<c>"d'`)).toBe("a&amp;b&lt;c&gt;&quot;d&apos;");
    expect(encodePathSegment("salt&pepper's")).toBe("salt&pepper's");
    expect(encodePathSegment("café au lait")).toBe("caf%C3%A9%20au%20lait");
    expect(encodePathSegment("a/b?c#d%e")).toBe("a%2Fb%3Fc%23d%25e");
    expect(encodePathSegment("..")).toBe("%2E%2E");
    expect(encodePathSegment("x<y>")).toBe("x%3Cy%3E");
  });
});
