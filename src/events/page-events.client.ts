// The one events module a person's page loads (Base.astro, never for crawlers or caches): the
// page view, pin impressions (cells at least half on screen) and pin clicks, sent through the
// logger. Window blur pauses impressions and focus resumes them; hiding the page (tab switch,
// app pause, navigation) moves the app to the background and flushes with keepalive; showing
// it again makes it active and announces `pinloom:app-resume` for whatever refreshes state.
import { PROMOTED_CELLS_EVENT, wireAttribution } from "~/attribution/pings.client.ts";
import { apiFetch } from "~/runtime/fetch.ts";
import { APP_RESUME_EVENT, runtimeGlobal } from "~/runtime/global.ts";
import { setRuntimeReporter } from "~/runtime/report.ts";
import { allows, asksConsent, isAnalyticsEvent, type ConsentState } from "~/consent/consent.ts";
import { CONSENT_EVENT, readConsent } from "~/consent/consent.client.ts";
import { EVENT_TYPE, EventLogger, TextUsageLogger, type AppState, type LogInput, type Transport } from "./logger.client.ts";
import { IMPRESSIONS, ImpressionTracker } from "./impressions.client.ts";
import { pinIdOfHref, viewOf } from "./view.client.ts";

export const EVENTS_ENDPOINT = "/resource/ApiCResource/create/";
/** Analytics held while consent is read (a few milliseconds): a page's first views and impressions. */
const MAX_HELD = 200;

function start(): void {
  const isDesktop = !/Mobi|Android|iPhone|iPad|iPod/i.test(navigator.userAgent);
  let appState: AppState = document.visibilityState === "hidden" ? "background" : "active";
  const transport: Transport = {
    async send(body, keepalive) {
      try {
        // The runtime layer sends the spec §7 headers (app state read from the page itself).
        const response = await apiFetch(EVENTS_ENDPOINT, { method: "POST", body, keepalive });
        // Read the small answer to its end: an unread body keeps the request open in the
        // browser (and the connection busy) until it is collected.
        await response.text().catch(() => "");
        return response.status;
      } catch {
        return null;
      }
    },
  };
  const logger = new EventLogger({ transport, isDesktop });
  logger.appState = appState;
  // The runtime's own records (a new version, a failed GraphQL call, a start-up error) go out
  // with ours; they are not analytics, so they never wait for consent.
  setRuntimeReporter((event) => logger.log({ event_type: event.event_type, aux_data: event.aux_data }));
  // Analytics (views, impressions, clicks, text usage) wait for this browser's consent: held
  // while it is being read or asked for, sent once allowed, dropped when not. Attribution pings are
  // marketing, wired only once that is allowed.
  let analytics: boolean | null = null;
  let attributionWired = false;
  const held: LogInput[] = [];
  const track = (input: LogInput): void => {
    if (analytics === true || !isAnalyticsEvent(input.event_type)) logger.log(input);
    else if (analytics === null && held.length < MAX_HELD) held.push(input);
  };
  const obey = (state: ConsentState): void => {
    // While the banner asks, the page's analytics wait for the answer (bounded), not dropped yet.
    analytics = asksConsent(state) ? null : allows(state, "analytics");
    if (analytics !== null) for (const input of held.splice(0)) if (analytics) logger.log(input);
    if (!attributionWired && allows(state, "marketing")) {
      attributionWired = true;
      wireAttribution(document);
    }
  };
  void readConsent().then(obey);
  // Cells a feed placed later: wired now when attribution already is (else wiring the page later finds them).
  addEventListener(PROMOTED_CELLS_EVENT, (event) => {
    if (attributionWired) for (const cell of (event as CustomEvent<HTMLElement[]>).detail) wireAttribution(cell);
  });
  addEventListener(CONSENT_EVENT, (event) => obey((event as CustomEvent<ConsentState>).detail));
  // Machine-translated texts in islands (comments' Translate) report their use, sampled.
  const textUsage = new TextUsageLogger({ log: track });
  runtimeGlobal().textUsage = (key) => textUsage.record(key);

  const view = viewOf(location.pathname);
  track({ event_type: EVENT_TYPE.VIEW, view_type: view.viewType, object_id_str: view.objectId });

  const tracker = new ImpressionTracker((pinId) => track({ event_type: EVENT_TYPE.IMPRESSION, view_type: view.viewType, object_id_str: pinId }));
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
      if (pinId) track({ event_type: EVENT_TYPE.CLICK, view_type: view.viewType, object_id_str: pinId });
    },
    { capture: true },
  );

  addEventListener("blur", () => tracker.pause());
  addEventListener("focus", () => tracker.resume());
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") {
      appState = logger.appState = "background";
      textUsage.flush();
      logger.flushOnHide();
    } else {
      appState = logger.appState = "active";
      dispatchEvent(new CustomEvent(APP_RESUME_EVENT));
    }
  });
  addEventListener("pagehide", () => (textUsage.flush(), logger.flushOnHide()));
}

if (typeof document !== "undefined") start();
