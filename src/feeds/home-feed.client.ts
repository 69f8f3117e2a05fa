// The home feed in the browser (spec 000 §4, §9): infinite scroll through HomefeedResource
// after the server-rendered first page, and the appended pins restored on back/forward within
// the restore window. No framework: cells are built with DOM APIs in PinGrid's markup. The
// paging rules are feed.ts's; this file only wires them to the page.
import { colorClass } from "../components/placeholder-styles.ts";
import type { GridPin } from "../pins/pins.server.ts";
import {
  END_MARKER,
  canPage,
  emptyList,
  fetchFailed,
  fetchStarted,
  fetchSucceeded,
  scrollOnNavigation,
  shouldRestoreHomeFeed,
  type NavigationKind,
  type ResourceList,
} from "./feed.ts";

/** Saved state is bounded: past this many appended pins nothing is saved (a fresh start). */
export const MAX_SAVED_ITEMS = 200;
const HEX_COLOR = /^#[0-9a-f]{6}$/i;

interface SavedFeed {
  items: GridPin[];
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

export function startHomeFeed(root: HTMLElement | null = document.getElementById("home-feed")): void {
  const found = document.querySelector<HTMLUListElement>("ul.pin-grid");
  if (!root || !found) return;
  const grid: HTMLUListElement = found;
  const host: HTMLElement = root;
  root.querySelector<HTMLAnchorElement>("a[rel=next]")?.setAttribute("hidden", "");

  // PinGrid's styles are scoped by data-astro-cid-* attributes: new cells carry the same ones.
  const scope = grid.getAttributeNames().filter((name) => name.startsWith("data-astro-cid-"));
  const make = <K extends keyof HTMLElementTagNameMap>(tag: K, className?: string): HTMLElementTagNameMap[K] => {
    const element = document.createElement(tag);
    if (className) element.className = className;
    for (const name of scope) element.setAttribute(name, "");
    return element;
  };
  const shown = new Set([...grid.querySelectorAll<HTMLAnchorElement>("a.pin-link")].map((link) => link.getAttribute("href")));

  function append(pins: GridPin[]): void {
    const fragment = document.createDocumentFragment();
    for (const pin of pins) {
      const href = `/pin/${encodeURIComponent(pin.id)}/`;
      if (shown.has(href)) continue;
      shown.add(href);
      const cell = make("li", "pin-cell");
      const link = make("a", "pin-link");
      link.href = href;
      const img = make("img", colorClass(pin.dominantColor));
      img.src = pin.image.url;
      if (pin.image2x) img.srcset = `${pin.image.url} 1x, ${pin.image2x} 2x`;
      img.width = pin.image.width;
      img.height = pin.image.height;
      img.alt = pin.altText ?? pin.title;
      img.loading = "lazy";
      img.decoding = "async";
      // The page's <style> lists only the server-rendered colours; CSSOM is allowed by the CSP.
      if (HEX_COLOR.test(pin.dominantColor)) img.style.backgroundColor = pin.dominantColor;
      link.appendChild(img);
      if (pin.title) {
        const title = make("span", "pin-title");
        title.dir = "auto";
        title.textContent = pin.title;
        link.appendChild(title);
      }
      cell.appendChild(link);
      fragment.appendChild(cell);
    }
    grid.appendChild(fragment);
  }

  const initial = root.dataset["bookmark"] ?? END_MARKER;
  let list: ResourceList<GridPin> = { ...emptyList<GridPin>(), bookmark: initial, ended: initial === END_MARKER };
  const key = `pinloom:home-feed:${location.pathname}${location.search}`;
  const kind = navigationKind();
  const saved = kind === "pop" ? readSaved(key) : null;
  if (saved && shouldRestoreHomeFeed(saved.savedAt, Date.now())) {
    list = fetchSucceeded(list, { items: saved.items.slice(0, MAX_SAVED_ITEMS), bookmark: saved.bookmark }, true);
    append(list.items);
    scrollTo(0, saved.scrollY);
  } else if (scrollOnNavigation(kind) === "top") {
    history.scrollRestoration = "manual";
    scrollTo(0, 0);
  }
  sessionStorage.removeItem(key);

  // The first client page follows the same rule as every later one (canPage wants a load).
  const mayFetch = () => canPage(list.loaded ? list : { ...list, loaded: true });

  let errorBox: HTMLElement | null = null;
  function showError(): void {
    errorBox ??= make("p", "home-feed-error");
    errorBox.setAttribute("role", "alert");
    errorBox.textContent = `${host.dataset["error"] ?? ""} `;
    const retry = make("button", "button");
    retry.type = "button";
    retry.textContent = host.dataset["retry"] ?? "";
    retry.addEventListener("click", () => void load());
    errorBox.appendChild(retry);
    host.appendChild(errorBox);
  }

  async function load(): Promise<void> {
    if (list.fetching || list.ended) return;
    errorBox?.remove();
    list = fetchStarted(list);
    const options = list.bookmark ? { bookmark: list.bookmark } : {};
    let status: number | null = null;
    try {
      const response = await fetch(`/resource/HomefeedResource/get/?data=${encodeURIComponent(JSON.stringify({ options }))}`, {
        headers: { Accept: "application/json", "X-Requested-With": "XMLHttpRequest" },
      });
      status = response.status;
      if (response.ok) {
        const body = (await response.json()) as { resource_response: { data: { results: GridPin[]; bookmark: string } } };
        const page = body.resource_response.data;
        list = fetchSucceeded(list, { items: page.results, bookmark: page.bookmark }, false);
        append(page.results);
        if (list.ended) observer.disconnect();
        else rearm();
        return;
      }
    } catch {
      // a network failure: no status
    }
    const failed = fetchFailed(list, status);
    list = failed.list;
    if (failed.refetch) void load();
    else showError();
  }

  const observer = new IntersectionObserver((entries) => {
    if (entries.some((entry) => entry.isIntersecting) && mayFetch()) void load();
  }, { rootMargin: "0px 0px 800px 0px" });
  // Observing again reports the current intersection, so a sentinel still in view pages on.
  const rearm = () => {
    observer.unobserve(root);
    observer.observe(root);
  };
  if (!list.ended) observer.observe(root);

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
