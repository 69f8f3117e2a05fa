// The one events module a person's page loads (Base.astro, never for crawlers or caches): the
// page view, pin impressions (cells at least half on screen) and pin clicks, sent through the
// logger. Window blur pauses impressions and focus resumes them; hiding the page (tab switch,
// app pause, navigation) moves the app to the background and flushes with keepalive; showing
// it again makes it active and announces `pinloom:app-resume` for whatever refreshes state.
import { wireAttribution } from "../../attribution/client.ts";
import { EVENT_TYPE, EventLogger, type AppState, type Transport } from "./logger.ts";
import { IMPRESSIONS, ImpressionTracker } from "./impressions.ts";
import { pinIdOfHref, viewOf } from "./view.ts";

export const EVENTS_ENDPOINT = "/resource/ApiCResource/create/";

/**
 * The headers of spec 000 §7 for our own calls, named as the runtime fetch layer names them
 * (src/runtime/headers.ts on the runtime branch), so the lead can switch to its apiFetch.
 */
export function eventHeaders(cookie: string, appState: string, href: string): Record<string, string> {
  const csrf = /(?:^|;\s*)csrftoken=([^;]*)/.exec(cookie)?.[1] ?? "";
  const page = new URL(href);
  return {
    Accept: "application/json",
    "Content-Type": "application/json",
    "X-CSRFToken": decodeURIComponent(csrf),
    "X-Requested-With": "XMLHttpRequest",
    "X-Pinloom-Source-Url": (page.pathname + page.search).slice(0, 2048),
    "X-Pinloom-App-State": appState,
  };
}

function start(): void {
  const isDesktop = !/Mobi|Android|iPhone|iPad|iPod/i.test(navigator.userAgent);
  let appState: AppState = document.visibilityState === "hidden" ? "background" : "active";
  const transport: Transport = {
    async send(body, keepalive) {
      try {
        const response = await fetch(EVENTS_ENDPOINT, { method: "POST", body, keepalive, credentials: "same-origin", headers: eventHeaders(document.cookie, appState, location.href) });
        return response.status;
      } catch {
        return null;
      }
    },
  };
  const logger = new EventLogger({ transport, isDesktop });
  logger.appState = appState;

  const view = viewOf(location.pathname);
  logger.log({ event_type: EVENT_TYPE.VIEW, view_type: view.viewType, object_id_str: view.objectId });

  const tracker = new ImpressionTracker((pinId) => logger.log({ event_type: EVENT_TYPE.IMPRESSION, view_type: view.viewType, object_id_str: pinId }));
  if (!document.hasFocus()) tracker.pause();
  const pinOf = (cell: Element) => pinIdOfHref(cell.querySelector("a.pin-link")?.getAttribute("href") ?? null);
  if ("IntersectionObserver" in window) {
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          const pinId = pinOf(entry.target);
          if (!pinId) continue;
          if (entry.isIntersecting && entry.intersectionRatio >= IMPRESSIONS.visibleRatio) tracker.enter(pinId);
          else tracker.leave(pinId);
        }
      },
      { threshold: [0, IMPRESSIONS.visibleRatio] },
    );
    const observed = new WeakSet<Element>();
    const observeCells = (root: ParentNode) => {
      for (const cell of root.querySelectorAll(".pin-grid > li.pin-cell")) {
        if (observed.has(cell)) continue;
        observed.add(cell);
        observer.observe(cell);
      }
    };
    observeCells(document);
    // Feed pages append cells as the reader scrolls (src/feeds/feed-pager.client.ts).
    for (const grid of document.querySelectorAll(".pin-grid")) new MutationObserver(() => observeCells(grid.parentNode ?? document)).observe(grid, { childList: true });
  }

  document.addEventListener(
    "click",
    (event) => {
      const link = (event.target as Element | null)?.closest?.(".pin-grid a.pin-link");
      const pinId = pinIdOfHref(link?.getAttribute("href") ?? null);
      if (pinId) logger.log({ event_type: EVENT_TYPE.CLICK, view_type: view.viewType, object_id_str: pinId });
    },
    { capture: true },
  );

  // A promoted pin's link pings attribution (view now, click on click), with keepalive.
  wireAttribution(document);

  addEventListener("blur", () => tracker.pause());
  addEventListener("focus", () => tracker.resume());
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") {
      appState = logger.appState = "background";
      logger.flushOnHide();
    } else {
      appState = logger.appState = "active";
      dispatchEvent(new CustomEvent("pinloom:app-resume"));
    }
  });
  addEventListener("pagehide", () => logger.flushOnHide());
}

if (typeof document !== "undefined") start();
