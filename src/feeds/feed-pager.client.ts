// Every feed's infinite scroll in the browser (spec 000 §4 resource cache, §9 home restore):
// one module driven by data attributes that FeedPager.astro writes under a server-rendered
// grid. It pages the grid's resource by bookmark after the first page, appends cells built
// with DOM APIs in the grid's own markup, and (data-feed-restore) keeps the appended cells and
// scroll position across a history return within the restore window. The paging rules are
// feed.ts's; this file only wires them to the page. No framework: it stays a few KB.
import { apiFetch } from "~/runtime/fetch.ts";
import { pageExperiments } from "~/runtime/global.ts";
import { colorClass } from "~/components/placeholder-styles.ts";
import type { QueryName } from "~/graphql/documents/index.ts";
import { PROMOTED_CELLS_EVENT } from "~/attribution/pings.client.ts";
import {
  END_MARKER,
  canPage,
  emptyList,
  fetchFailed,
  fetchStarted,
  fetchSucceeded,
  cellImageAlt,
  scrollOnNavigation,
  restoreGroupOf,
  shouldRestoreHomeFeed,
  type NavigationKind,
  type ResourceList,
} from "./feed.ts";

/** Saved state is bounded: past this many appended items nothing is saved (a fresh start). */
const MAX_SAVED_ITEMS = 200;
const HEX_COLOR = /^#[0-9a-f]{6}$/i;

interface Image {
  url: string;
  width: number;
  height: number;
}
/** A promoted cell's mark as the feed answers carry it (src/ads/promoted-feed.server.ts feedItem). */
interface PromotedItemMark {
  adId: string;
  adAccountId: string;
  campaignId: string;
  destinationUrl: string;
  token: string | null;
  text: { promotedBy: string; whyTitle: string; whyIntro: string; reasons: string[] };
}
/** A GridPin (pins.server.ts) or a BoardCard (users.server.ts) as the resources send them. */
interface PinItem {
  id: string;
  title: string;
  altText: string | null;
  dominantColor: string;
  image: Image;
  image2x: string | null;
  isPromoted?: boolean;
  promoted?: PromotedItemMark;
}
interface BoardItem {
  id: string;
  name: string;
  url: string;
  pinCountText?: string;
  cover: (Image & { dominantColor: string }) | null;
}
type Item = PinItem | BoardItem;

interface SavedFeed {
  items: Item[];
  bookmark: string | null;
  scrollY: number;
  savedAt: number;
}

function navigationKind(): NavigationKind {
  const entry = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
  if (entry?.type === "back_forward") return "pop";
  return entry?.type === "navigate" ? "push" : "replace";
}

function readSaved(key: string): SavedFeed | null {
  try {
    const value = JSON.parse(sessionStorage.getItem(key) ?? "null") as SavedFeed | null;
    return value && Array.isArray(value.items) && typeof value.savedAt === "number" ? value : null;
  } catch {
    return null;
  }
}

function resourceUrl(name: string, options: Record<string, unknown>): string {
  return `/resource/${name}/get/?data=${encodeURIComponent(JSON.stringify({ options }))}`;
}

/** Resources that take the ads a feed already shows (`shown_ad_ids`), so a later page repeats none. */
const TAKES_SHOWN_ADS = new Set(["HomefeedResource", "RelatedPinsFeedResource"]);
/** One promoted cell after every this many organic ones (src/ads/placement.ts PROMOTED_EVERY). */
const PROMOTED_EVERY = 6;
/** At most this many of the page's pins are sent with a promoted-cells request (its bound). */
const MAX_SENT_PINS = 50;

interface FeedPageAnswer {
  items: Item[];
  bookmark: string;
}

/** A page through the resource: null status on a network failure. */
async function resourcePage(name: string, options: Record<string, unknown>, bookmark: string | null): Promise<{ status: number | null; page: FeedPageAnswer | null }> {
  const response = await apiFetch(resourceUrl(name, bookmark ? { ...options, bookmark } : options));
  if (!response.ok) return { status: response.status, page: null };
  const body = (await response.json()) as { resource_response: { data: { results: Item[]; bookmark: string } } };
  return { status: response.status, page: { items: body.resource_response.data.results, bookmark: body.resource_response.data.bookmark } };
}

/**
 * A page through a persisted GraphQL query (src/graphql/client.ts, loaded only by feeds that
 * use it): the cursor is the query's $cursor, the answer's root field holds {pins, endCursor}.
 */
async function queryPage(name: QueryName, variables: Record<string, unknown>, cursor: string | null): Promise<{ status: number | null; page: FeedPageAnswer | null }> {
  const { graphqlClient, GraphqlFetchError } = await import("~/graphql/client.ts");
  try {
    const answer = await graphqlClient().query<Record<string, { pins: Item[]; endCursor: string | null } | null>>(name, cursor ? { ...variables, cursor } : variables);
    const root = Object.values(answer.result.data ?? {})[0];
    if (!root || answer.result.errors?.length) return { status: 404, page: null };
    return { status: answer.status, page: { items: root.pins, bookmark: root.endCursor ?? END_MARKER } };
  } catch (error) {
    if (error instanceof GraphqlFetchError) return { status: error.status, page: null };
    throw error;
  }
}

export interface FeedHandle {
  /** Replace the grid with the first page of the feed under new options (a refresh). */
  refresh(options: Record<string, unknown>): Promise<void>;
}

const handles = new WeakMap<HTMLElement, FeedHandle>();

export function feedHandle(root: HTMLElement): FeedHandle | undefined {
  return handles.get(root);
}

function startFeed(root: HTMLElement): FeedHandle | null {
  const data = root.dataset;
  const found = data["feedGrid"] ? document.getElementById(data["feedGrid"]) : null;
  if (!data["feedResource"] || !found) return null;
  const grid: HTMLElement = found;
  const resource = data["feedResource"];
  let options = JSON.parse(data["feedOptions"] ?? "{}") as Record<string, unknown>;
  const queryName = data["feedQuery"] as QueryName | undefined;
  const queryVariables = JSON.parse(data["feedVariables"] ?? "{}") as Record<string, unknown>;
  const kind = data["feedKind"] === "board" ? "board" : "pin";
  root.querySelector<HTMLAnchorElement>("a[rel=next]")?.setAttribute("hidden", "");

  // Grid styles are scoped by data-astro-cid-* attributes: new cells carry the same ones.
  const scope = grid.getAttributeNames().filter((name) => name.startsWith("data-astro-cid-"));
  const make = <K extends keyof HTMLElementTagNameMap>(tag: K, className?: string): HTMLElementTagNameMap[K] => {
    const element = document.createElement(tag);
    if (className) element.className = className;
    for (const name of scope) element.setAttribute(name, "");
    return element;
  };
  const image = (source: Image, color: string, alt: string, className = ""): HTMLImageElement => {
    const img = make("img", `${className} ${colorClass(color)}`.trim());
    img.src = source.url;
    img.width = source.width;
    img.height = source.height;
    img.alt = alt;
    img.loading = "lazy";
    img.decoding = "async";
    // The page's <style> lists only the server-rendered colours; CSSOM is allowed by the CSP.
    if (HEX_COLOR.test(color)) img.style.backgroundColor = color;
    return img;
  };
  const text = (tag: "span" | "h3", className: string, value: string) => {
    const element = make(tag, className);
    element.dir = "auto";
    element.textContent = value;
    return element;
  };
  const hrefs = () => new Set([...grid.querySelectorAll<HTMLAnchorElement>("li > a")].map((link) => link.getAttribute("href")));
  let shown = hrefs();

  function cell(item: Item): [string, HTMLLIElement] {
    if (kind === "board") {
      const board = item as BoardItem;
      const li = make("li", "board-card");
      const link = make("a", "board-card-link");
      link.href = board.url;
      link.appendChild(board.cover ? image(board.cover, board.cover.dominantColor, "", "board-cover") : make("span", "board-cover board-cover-empty"));
      link.appendChild(text("h3", "board-name", board.name));
      if (board.pinCountText) {
        const count = make("span", "board-count");
        count.textContent = board.pinCountText;
        link.appendChild(count);
      }
      li.appendChild(link);
      return [board.url, li];
    }
    const pin = item as PinItem;
    const href = `/pin/${encodeURIComponent(pin.id)}/`;
    const li = make("li", "pin-cell");
    const link = make("a", "pin-link");
    link.href = href;
    const img = image(pin.image, pin.dominantColor, cellImageAlt(pin.altText, pin.title));
    if (pin.image2x) img.srcset = `${pin.image.url} 1x, ${pin.image2x} 2x`;
    link.appendChild(img);
    if (pin.title) link.appendChild(text("span", "pin-title", pin.title));
    li.appendChild(link);
    if (pin.promoted) markPromoted(li, link, pin.id, pin.promoted);
    return [href, li];
  }

  // A promoted cell as PinGrid renders one: the pings' data on its link,
  // "Promoted by …" and a native "Why am I seeing this?" disclosure under it.
  function markPromoted(li: HTMLLIElement, link: HTMLAnchorElement, pinId: string, mark: PromotedItemMark): void {
    li.dataset["promotedAd"] = mark.adId;
    if (mark.token !== null) {
      link.dataset["attributionAdvertiser"] = mark.adAccountId;
      link.dataset["attributionCampaign"] = mark.campaignId;
      link.dataset["attributionPin"] = pinId;
      link.dataset["attributionToken"] = mark.token;
      link.dataset["attributionDestination"] = mark.destinationUrl;
    }
    const by = make("p", "promoted-by");
    by.textContent = mark.text.promotedBy;
    const details = make("details", "ad-reasons");
    const summary = make("summary");
    summary.textContent = mark.text.whyTitle;
    const body = make("div", "ad-reasons-body");
    const intro = make("p");
    intro.textContent = mark.text.whyIntro;
    const reasons = make("ul");
    for (const reason of mark.text.reasons) {
      const item = make("li");
      item.dir = "auto";
      item.textContent = reason;
      reasons.appendChild(item);
    }
    body.appendChild(intro);
    body.appendChild(reasons);
    details.appendChild(summary);
    details.appendChild(body);
    li.appendChild(by);
    li.appendChild(details);
  }

  const shownAds = () => new Set([...grid.querySelectorAll<HTMLElement>("li[data-promoted-ad]")].map((cell) => cell.dataset["promotedAd"] ?? ""));
  /** Tells the page's attribution wiring (src/events/page-events.client.ts) about promoted cells it did not see. */
  const announce = (cells: HTMLElement[]) => {
    if (cells.length > 0) dispatchEvent(new CustomEvent(PROMOTED_CELLS_EVENT, { detail: cells }));
  };

  function append(items: Item[]): void {
    const fragment = document.createDocumentFragment();
    const ads = shownAds();
    const promoted: HTMLElement[] = [];
    for (const item of items) {
      const adId = (item as PinItem).promoted?.adId;
      // Never one ad twice in a feed, whatever a page sends.
      if (adId !== undefined && ads.has(adId)) continue;
      const [href, li] = cell(item);
      if (shown.has(href)) continue;
      shown.add(href);
      if (adId !== undefined) {
        ads.add(adId);
        promoted.push(li);
      }
      fragment.appendChild(li);
    }
    grid.appendChild(fragment);
    announce(promoted);
  }

  /**
   * A shared render holds no promoted cell: asks for this page's (PromotedPinsResource, the
   * viewer's own answer: none for those who said no to marketing) and places each after every
   * PROMOTED_EVERY organic cells, as a server-rendered page does.
   */
  async function placePromoted(spec: Record<string, unknown>): Promise<void> {
    const organic = [...grid.children].filter((child) => !(child as HTMLElement).dataset["promotedAd"]);
    const slots = Math.min(8, Math.floor(organic.length / PROMOTED_EVERY));
    if (slots === 0) return;
    const pinIds = [...hrefs()].flatMap((href) => /^\/pin\/(\d+)\/$/.exec(href ?? "")?.[1] ?? []).slice(0, MAX_SENT_PINS);
    const response = await apiFetch(resourceUrl("PromotedPinsResource", { ...spec, slots, pin_ids: pinIds, shown_ad_ids: [...shownAds()].slice(0, MAX_SENT_PINS) }));
    if (!response.ok) return;
    const body = (await response.json()) as { resource_response: { data: { results: PinItem[] } } };
    const placed: HTMLElement[] = [];
    body.resource_response.data.results.forEach((item, index) => {
      const after = organic[(index + 1) * PROMOTED_EVERY - 1];
      const [href, li] = cell(item);
      if (!after || !item.promoted || shown.has(href)) return;
      shown.add(href);
      grid.insertBefore(li, after.nextSibling);
      placed.push(li);
    });
    announce(placed);
  }

  const initial = data["bookmark"] ?? END_MARKER;
  let list: ResourceList<Item> = { ...emptyList<Item>(), bookmark: initial, ended: initial === END_MARKER };
  const restoring = "feedRestore" in data;
  const key = `pinloom:feed:${resource}:${location.pathname}${location.search}`;
  if (restoring) {
    const navigation = navigationKind();
    const saved = navigation === "pop" ? readSaved(key) : null;
    if (saved && shouldRestoreHomeFeed(saved.savedAt, Date.now(), restoreGroupOf(pageExperiments()))) {
      list = fetchSucceeded(list, { items: saved.items.slice(0, MAX_SAVED_ITEMS), bookmark: saved.bookmark }, true);
      append(list.items);
      scrollTo(0, saved.scrollY);
    } else if (scrollOnNavigation(navigation) === "top") {
      history.scrollRestoration = "manual";
      scrollTo(0, 0);
    }
    sessionStorage.removeItem(key);
    addEventListener("pagehide", () => {
      if (list.items.length > MAX_SAVED_ITEMS) return;
      const state: SavedFeed = { items: list.items, bookmark: list.bookmark, scrollY, savedAt: Date.now() };
      try {
        sessionStorage.setItem(key, JSON.stringify(state));
      } catch {
        // storage full or disabled: the feed starts fresh next time
      }
    });
  }

  // The first client page follows the same rule as every later one (canPage wants a load).
  const mayFetch = () => canPage(list.loaded ? list : { ...list, loaded: true });

  let errorBox: HTMLElement | null = null;
  function showError(): void {
    errorBox ??= make("p", "feed-error");
    errorBox.setAttribute("role", "alert");
    errorBox.textContent = `${data["error"] ?? ""} `;
    const retry = make("button", "button");
    retry.type = "button";
    retry.textContent = data["retry"] ?? "";
    retry.addEventListener("click", () => void load(false));
    errorBox.appendChild(retry);
    root.appendChild(errorBox);
  }

  async function load(refresh: boolean): Promise<void> {
    if (list.fetching || (list.ended && !refresh)) return;
    errorBox?.remove();
    list = fetchStarted(list);
    const bookmark = refresh ? null : list.bookmark;
    let status: number | null = null;
    try {
      const shownAdIds = TAKES_SHOWN_ADS.has(resource) && !refresh ? [...shownAds()].slice(0, MAX_SENT_PINS) : [];
      const answer = queryName ? await queryPage(queryName, queryVariables, bookmark) : await resourcePage(resource, shownAdIds.length > 0 ? { ...options, shown_ad_ids: shownAdIds } : options, bookmark);
      status = answer.status;
      if (answer.page) {
        const page = answer.page;
        list = fetchSucceeded(list, { items: page.items, bookmark: page.bookmark }, refresh);
        if (refresh) {
          grid.replaceChildren();
          shown = new Set();
        }
        append(page.items);
        if (list.ended) observer.disconnect();
        else rearm();
        return;
      }
    } catch {
      // a network failure: no status
    }
    const failed = fetchFailed(list, status);
    list = failed.list;
    if (failed.refetch) void load(refresh);
    else showError();
  }

  const observer = new IntersectionObserver((entries) => {
    if (entries.some((entry) => entry.isIntersecting) && mayFetch()) void load(false);
  }, { rootMargin: "0px 0px 800px 0px" });
  // Observing again reports the current intersection, so a sentinel still in view pages on.
  const rearm = () => {
    observer.unobserve(root);
    observer.observe(root);
  };
  if (!list.ended) observer.observe(root);
  // Promoted cells never cost the feed: a failed ask leaves it organic.
  if (data["feedPromoted"]) void placePromoted(JSON.parse(data["feedPromoted"]) as Record<string, unknown>).catch(() => undefined);

  const handle: FeedHandle = {
    async refresh(next) {
      options = next;
      list = { ...list, retried: false, loaded: false, ended: false };
      await load(true);
    },
  };
  handles.set(root, handle);
  return handle;
}

/** Starts every feed pager on the page (FeedPager.astro marks them). */
export function startFeeds(): void {
  for (const root of document.querySelectorAll<HTMLElement>("[data-feed-resource]")) if (!handles.has(root)) startFeed(root);
}
