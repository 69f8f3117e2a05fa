// Creating a pin from a website: the images a page offers (FindPinImagesResource) and one of
// them brought in as the person's own upload. Every fetch made for a person is bounded: one
// deadline for all of it, redirects followed by hand (at most MAX_REDIRECTS, each new address
// judged again: web addresses only, no private-network address, no blocked host), a page read
// no further than PAGE_MAX_BYTES and only when it says it is HTML, an image no larger than an
// upload may be. Refusals are 400s naming `url`.
import { z } from "zod";
import { requireFullViewer, requireWriteAllowed, type Viewer } from "~/accounts/guards.server.ts";
import { badRequest, DomainError, type FieldProblem } from "~/domain/errors.ts";
import { countedStream, readHead, TooManyBytes } from "~/media/byte-limit.ts";
import { MEDIA_IMAGE_MAX_BYTES, SNIFF_BYTES, UPLOAD_CONTENT_TYPES, isImageType, sniffUpload } from "~/media/upload-file.ts";
import { storeUpload, type UploadAnswer } from "~/media/uploads.server.ts";
import { isAllowedLink, PIN_LINK_MAX } from "~/pins/pin.ts";
import { concatBytes } from "~/runtime/bytes.ts";
import { sha256Hex } from "~/runtime/sha256.ts";
import { enforce, RATE_RULES } from "~/server/rate-limit.server.ts";
import { linkHost } from "./drafts.ts";
import { blockedHostsAmong } from "./drafts.server.ts";
import { canonicalUrl, FOUND_IMAGES_MAX, foundImages, PAGE_CANDIDATES_MAX, pageText, pixelSize, largestSrcsetCandidate, type FoundImage, type ImageCandidate, type PageRead } from "./page-images.ts";
import { normaliseWebAddress } from "./web-address.ts";

const FIELD = "url";
/** One deadline for a whole fetch, redirects and body included: the builder waits on it. */
const WEB_FETCH_TIMEOUT_MS = 8_000;
/** Redirects followed from the address given (http to https, then a locale page, is common). */
const MAX_REDIRECTS = 4;
/**
 * A page is read no further than this: the images a pin wants (og:image, the article's own)
 * come early, and the rest of a long page is not worth the isolate's memory.
 */
const PAGE_MAX_BYTES = 1024 * 1024;
/** A page's reading is kept this long: the builder asks again as a person goes back and forth, and a page's images change slowly. */
const FOUND_IMAGES_TTL_SECONDS = 60 * 60;
/** Images kept per cached page: the 50 answered, and room for those a blocked host takes out. */
const CACHED_IMAGES_MAX = 150;
const CACHE_PREFIX = "find-images:v1:";
const USER_AGENT = "Mozilla/5.0 (compatible; PinloomBot/1.0; +https://pinloom.app/)";
const HTML_TYPES = new Set(["text/html", "application/xhtml+xml"]);

export interface FindImagesStores {
  db: D1Database;
  cache: KVNamespace;
}

export interface FoundPage {
  /** The page read, after its redirects. */
  url: string;
  title: string;
  description: string;
  /** The page's canonical link when it passes the link rule, else the page's own address. */
  link: string;
  items: FoundImage[];
}

const refused = (reason: string, values?: Record<string, string | number>): DomainError => {
  const problem: FieldProblem = values ? { field: FIELD, reason, values } : { field: FIELD, reason };
  return badRequest([problem]);
};
const addressRefusal = (reason: string) => (reason === "builder:validation.linkTooLong" ? refused(reason, { maximum: PIN_LINK_MAX }) : refused(reason));

/** The address given, normalised, or its 400. */
function webAddress(input: string): URL {
  const normal = normaliseWebAddress(input);
  if ("problem" in normal) throw addressRefusal(normal.problem);
  return normal.url;
}

/** A 400 when the address's host (or a parent domain of it) is a blocked link host. */
async function refuseBlocked(db: D1Database, url: URL): Promise<void> {
  const host = linkHost(url.href);
  if (host === null) throw refused("builder:validation.linkScheme");
  if (!isAllowedLink(url.href, await blockedHostsAmong(db, [host]))) throw refused("builder:validation.linkBlocked");
}

class Deadline {
  private readonly controller = new AbortController();
  private readonly endsAt: number;
  constructor(ms: number) {
    this.endsAt = Date.now() + ms;
  }
  get signal(): AbortSignal {
    return this.controller.signal;
  }
  /** `work`, or the timeout refusal when the deadline passes first (the fetch is aborted then). */
  async race<T>(work: Promise<T>): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        this.controller.abort();
        reject(refused("builder:validation.pageTimeout"));
      }, Math.max(0, this.endsAt - Date.now()));
    });
    try {
      return await Promise.race([work, expired]);
    } finally {
      clearTimeout(timer);
    }
  }
}

const isRedirect = (status: number) => status === 301 || status === 302 || status === 303 || status === 307 || status === 308;

/**
 * GET `start` following at most MAX_REDIRECTS redirects by hand, each new address judged as the
 * first was; answers the final 2xx response and its address.
 */
async function guardedFetch(db: D1Database, start: URL, accept: string, deadline: Deadline): Promise<{ response: Response; url: URL }> {
  let url = start;
  for (let hop = 0; ; hop++) {
    await refuseBlocked(db, url);
    let response: Response;
    try {
      response = await deadline.race(fetch(url.href, { redirect: "manual", signal: deadline.signal, headers: { accept, "user-agent": USER_AGENT } }));
    } catch (error) {
      if (error instanceof DomainError) throw error;
      throw refused("builder:validation.pageUnreachable");
    }
    const location = response.headers.get("location");
    if (isRedirect(response.status) && location !== null) {
      await response.body?.cancel().catch(() => undefined);
      if (hop >= MAX_REDIRECTS) throw refused("builder:validation.tooManyRedirects", { maximum: MAX_REDIRECTS });
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw refused("builder:validation.pageUnreachable");
      }
      const normal = normaliseWebAddress(next.href);
      if ("problem" in normal) throw refused(normal.problem === "builder:validation.addressPrivate" ? "builder:validation.redirectPrivate" : normal.problem, normal.problem === "builder:validation.linkTooLong" ? { maximum: PIN_LINK_MAX } : undefined);
      url = normal.url;
      continue;
    }
    if (response.status < 200 || response.status > 299) {
      await response.body?.cancel().catch(() => undefined);
      throw refused("builder:validation.pageStatus", { status: response.status });
    }
    return { response, url };
  }
}

/**
 * At most `limit` bytes of the body, before the deadline. A longer body is cut at `limit`
 * (`cut`) or refused (TooManyBytes); either way the rest is never read.
 */
async function readBody(response: Response, limit: number, deadline: Deadline, overflow: "cut" | "refuse"): Promise<Uint8Array<ArrayBuffer>> {
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const next = await deadline.race(reader.read());
      if (next.done) return concatBytes(parts);
      total += next.value.byteLength;
      if (total > limit) {
        await reader.cancel().catch(() => undefined);
        if (overflow === "refuse") throw new TooManyBytes(limit);
        parts.push(next.value.subarray(0, next.value.byteLength - (total - limit)));
        return concatBytes(parts);
      }
      parts.push(next.value);
    }
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    if (error instanceof DomainError || error instanceof TooManyBytes) throw error;
    throw refused("builder:validation.pageUnreachable");
  }
}

const mediaType = (response: Response) => (response.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();

/** Meta names and properties that name the page's picture, and those that describe the last one named. */
const META_IMAGES = new Set(["og:image", "og:image:url", "og:image:secure_url", "twitter:image", "twitter:image:src"]);
/** Text gathered for the title: far more than a pin title holds, bounded against a page of one endless <title>. */
const TITLE_GATHERED_MAX = 2_000;

/** The page's HTML read by HTMLRewriter into what page-images.ts turns into the answer. */
async function readPage(html: Uint8Array<ArrayBuffer>, contentType: string): Promise<PageRead> {
  const read: PageRead = { baseHref: null, title: "", description: "", canonical: null, candidates: [] };
  const fallback = { title: "", description: "", url: null as string | null };
  let titleSeen = false;
  let titleDone = false;
  let lastMeta: ImageCandidate | null = null;
  const add = (candidate: ImageCandidate) => {
    if (read.candidates.length < PAGE_CANDIDATES_MAX) read.candidates.push(candidate);
    return candidate;
  };
  const rewriter = new HTMLRewriter()
    .on("base[href]", {
      element(element) {
        read.baseHref ??= element.getAttribute("href");
      },
    })
    .on("title", {
      element() {
        // Only the document's first title (an inline SVG's <title> comes later, if at all).
        if (titleSeen) titleDone = true;
        titleSeen = true;
      },
      text(chunk) {
        if (titleDone) return;
        if (read.title.length < TITLE_GATHERED_MAX) read.title += chunk.text;
        if (chunk.lastInTextNode) titleDone = true;
      },
    })
    .on("meta[content]", {
      element(element) {
        const key = (element.getAttribute("property") ?? element.getAttribute("name") ?? "").trim().toLowerCase();
        const content = element.getAttribute("content") ?? "";
        if (META_IMAGES.has(key)) lastMeta = add({ src: content, width: null, height: null, alt: "" });
        else if (lastMeta && (key === "og:image:width" || key === "og:image:height")) lastMeta[key === "og:image:width" ? "width" : "height"] = pixelSize(content);
        else if (lastMeta && (key === "og:image:alt" || key === "twitter:image:alt")) lastMeta.alt ||= content;
        else if (key === "description") read.description ||= content;
        else if (key === "og:description" || key === "twitter:description") fallback.description ||= content;
        else if (key === "og:title" || key === "twitter:title") fallback.title ||= content;
        else if (key === "og:url") fallback.url ??= content;
      },
    })
    .on("link[href]", {
      element(element) {
        const rel = (element.getAttribute("rel") ?? "").toLowerCase().split(/\s+/);
        const href = element.getAttribute("href")!;
        if (rel.includes("canonical")) read.canonical ??= href;
        if (rel.includes("image_src")) add({ src: href, width: null, height: null, alt: "" });
      },
    })
    .on("img", {
      element(element) {
        const width = pixelSize(element.getAttribute("width"));
        const height = pixelSize(element.getAttribute("height"));
        const alt = element.getAttribute("alt") ?? "";
        const srcset = element.getAttribute("srcset");
        const best = srcset === null ? null : largestSrcsetCandidate(srcset);
        if (best && best.width !== null) {
          // The srcset's widest names its own pixels; the height keeps the declared shape.
          add({ src: best.src, width: best.width, height: width && height ? Math.round((best.width * height) / width) : null, alt });
          return;
        }
        // Lazy-loading pages put the real address in data-src and a placeholder in src.
        const src = [element.getAttribute("src"), element.getAttribute("data-src"), best?.src ?? null].find((value) => value && !/^\s*data:/i.test(value));
        if (src) add({ src, width, height, alt });
      },
    });
  try {
    await rewriter.transform(new Response(html, { headers: { "content-type": contentType } })).arrayBuffer();
  } catch {
    // The rewriter refuses a character set it cannot decode (UTF-16, an unknown label): such a
    // page is unreadable here, said as such, never a 500.
    throw refused("builder:validation.pageNotHtml");
  }
  if (read.title.trim() === "") read.title = fallback.title;
  if (read.description.trim() === "") read.description = fallback.description;
  read.canonical ??= fallback.url;
  return read;
}

/** The reading of one page as the cache keeps it: before the blocked hosts, which can change within the hour. */
const cachedPageSchema = z.object({
  url: z.string(),
  title: z.string(),
  description: z.string(),
  canonical: z.string().nullable(),
  images: z.array(z.object({ src: z.string(), width: z.number().nullable(), height: z.number().nullable(), alt: z.string() })).max(CACHED_IMAGES_MAX),
});
type CachedPage = z.infer<typeof cachedPageSchema>;

/** The cache key of a page: its normalised address, hashed (a KV key holds 512 bytes, an address 2,048 characters). */
async function foundImagesKey(url: URL): Promise<string> {
  return `${CACHE_PREFIX}${await sha256Hex(url.href)}`;
}

async function cachedPage(cache: KVNamespace, key: string): Promise<CachedPage | null> {
  const text = await cache.get(key).catch(() => null);
  if (text === null) return null;
  try {
    const parsed = cachedPageSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

async function fetchPage(db: D1Database, url: URL): Promise<CachedPage> {
  const deadline = new Deadline(WEB_FETCH_TIMEOUT_MS);
  const { response, url: finalUrl } = await guardedFetch(db, url, "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1", deadline);
  const type = mediaType(response);
  if (!HTML_TYPES.has(type)) {
    await response.body?.cancel().catch(() => undefined);
    throw refused("builder:validation.pageNotHtml");
  }
  const html = await readBody(response, PAGE_MAX_BYTES, deadline, "cut");
  const read = await readPage(html, response.headers.get("content-type") ?? "text/html");
  const canonical = canonicalUrl(read, finalUrl);
  return { url: finalUrl.href, ...pageText(read), canonical: canonical?.href ?? null, images: foundImages(read, finalUrl).slice(0, CACHED_IMAGES_MAX) };
}

/**
 * FindPinImagesResource: the images of the page at `input` for a signed-in person, at most
 * FOUND_IMAGES_MAX, with the page's title, description and link; a page read in the last
 * FOUND_IMAGES_TTL_SECONDS is answered from the cache without fetching it again.
 */
export async function findPinImages(stores: FindImagesStores, viewer: Viewer, input: string): Promise<FoundPage> {
  const userId = requireFullViewer(viewer).user.id;
  const url = webAddress(input);
  await refuseBlocked(stores.db, url);
  await enforce(stores.db, RATE_RULES.fromWebsitePerUser, userId);
  const key = await foundImagesKey(url);
  let page = await cachedPage(stores.cache, key);
  if (!page) {
    page = await fetchPage(stores.db, url);
    await stores.cache.put(key, JSON.stringify(page), { expirationTtl: FOUND_IMAGES_TTL_SECONDS }).catch(() => undefined);
  }
  const hosts = [page.url, page.canonical, ...page.images.map((image) => image.src)].flatMap((link) => (link === null ? [] : [linkHost(link)].filter((host): host is string => host !== null)));
  const blocked = await blockedHostsAmong(stores.db, hosts);
  if (!isAllowedLink(page.url, blocked)) throw refused("builder:validation.linkBlocked");
  return {
    url: page.url,
    title: page.title,
    description: page.description,
    link: isAllowedLink(page.canonical, blocked) ? page.canonical : page.url,
    items: page.images.filter((image) => isAllowedLink(image.src, blocked)).slice(0, FOUND_IMAGES_MAX),
  };
}

const MEGABYTE = 1024 * 1024;
const imageTooBig = () =>
  new DomainError("too_large", {
    message: "media:api.fileTooLarge",
    values: { maximum: Math.round(MEDIA_IMAGE_MAX_BYTES / MEGABYTE) },
    detail: [{ field: FIELD, reason: "media:validation.fileTooBig", values: { maximum: Math.round(MEDIA_IMAGE_MAX_BYTES / MEGABYTE) } }],
  });

/** An upload's refusal of the file, said of the address it came from (this request has no `file`). */
function aboutTheAddress(error: unknown): unknown {
  if (!(error instanceof DomainError) || !error.options.detail) return error;
  const detail = error.options.detail.map((problem) => (problem.field === "file" ? { ...problem, field: FIELD } : problem));
  return new DomainError(error.kind, { ...error.options, detail });
}

const IMAGE_ACCEPT = "image/webp,image/png,image/jpeg,image/gif;q=0.9,*/*;q=0.1";

/**
 * The bytes of a found image for the builder's grid, fetched by the Worker under the same
 * guards as an import: the page's CSP loads images from this site only, and the person's
 * address is never handed to the sites they browse. Only JPEG, PNG, WebP and GIF by their
 * bytes, and no more of them than an image upload may hold (a longer one errors mid-stream).
 */
export async function previewWebImage(db: D1Database, viewer: Viewer, input: string): Promise<{ body: ReadableStream<Uint8Array>; contentType: string }> {
  const userId = requireFullViewer(viewer).user.id;
  const url = webAddress(input);
  await enforce(db, RATE_RULES.webImagePreviewPerUser, userId);
  const deadline = new Deadline(WEB_FETCH_TIMEOUT_MS);
  const { response } = await guardedFetch(db, url, IMAGE_ACCEPT, deadline);
  if (Number(response.headers.get("content-length") ?? "0") > MEDIA_IMAGE_MAX_BYTES || !response.body) {
    await response.body?.cancel().catch(() => undefined);
    throw response.body ? imageTooBig() : refused("builder:validation.notAnImage");
  }
  const reader = response.body.getReader();
  let head: Uint8Array[];
  try {
    ({ head } = await deadline.race(readHead(reader, SNIFF_BYTES)));
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    throw error instanceof DomainError ? error : refused("builder:validation.pageUnreachable");
  }
  const type = sniffUpload(concatBytes(head));
  if (type === null || !isImageType(type)) {
    await reader.cancel().catch(() => undefined);
    throw refused("builder:validation.notAnImage");
  }
  return { body: countedStream(head, reader, MEDIA_IMAGE_MAX_BYTES), contentType: UPLOAD_CONTENT_TYPES[type] };
}

export const importWebImageSchema = z.strictObject({ url: z.string().max(PIN_LINK_MAX) });

/**
 * The image at `input` stored as the person's own upload, exactly as a file they chose would
 * be (storeUpload: typed by its bytes, stripped of metadata, cut to every size): refused when
 * its bytes are not a JPEG, PNG, WebP or GIF, or it is larger than an image upload may be.
 */
export async function importWebImage(stores: { db: D1Database; media: R2Bucket; images: ImagesBinding }, viewer: Viewer, input: string): Promise<UploadAnswer> {
  const userId = requireWriteAllowed(viewer).user.id;
  const url = webAddress(input);
  await enforce(stores.db, RATE_RULES.fromWebsitePerUser, userId);
  const deadline = new Deadline(WEB_FETCH_TIMEOUT_MS);
  const { response } = await guardedFetch(stores.db, url, IMAGE_ACCEPT, deadline);
  const declared = Number(response.headers.get("content-length") ?? "0");
  if (declared > MEDIA_IMAGE_MAX_BYTES) {
    await response.body?.cancel().catch(() => undefined);
    throw imageTooBig();
  }
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = await readBody(response, MEDIA_IMAGE_MAX_BYTES, deadline, "refuse");
  } catch (error) {
    throw error instanceof TooManyBytes ? imageTooBig() : error;
  }
  const type = sniffUpload(bytes.subarray(0, SNIFF_BYTES));
  if (type === null || !isImageType(type)) throw refused("builder:validation.notAnImage");
  try {
    return await storeUpload(stores, viewer, new Blob([bytes]).stream(), String(bytes.length));
  } catch (error) {
    throw aboutTheAddress(error);
  }
}
