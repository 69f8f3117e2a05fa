// The browser side of attribution (spec 000 §7, spec 002 §7): an ad view or click pings
// GET /attribution_source/ with keepalive (a click usually leaves the page at once), marked
// eligible to register an Attribution Reporting source where the browser supports it.
import type { SourceEventType } from "./source.ts";

const ATTRIBUTION_ENDPOINT = "/attribution_source/";
/** A feed's script placed promoted cells after the page loaded (detail: the cells): they are wired as the page's own were. */
export const PROMOTED_CELLS_EVENT = "pinloom:promoted-cells";

export interface PingParameters {
  sourceEventId: string;
  destination: string;
  sourceEventType: SourceEventType;
  advertiserId?: string | null;
  campaignId?: string | null;
  /** The promoted pin: the server stores a ping only when this pin is the advertiser's. */
  pinId?: string | null;
  /** The page's signed token for this pin and advertiser: the server counts no ping without it. */
  token?: string | null;
}

/** A random unsigned 64-bit id, decimal. */
export function randomSourceEventId(random: (array: BigUint64Array<ArrayBuffer>) => void = (array) => void crypto.getRandomValues(array)): string {
  const array = new BigUint64Array(1);
  random(array);
  return array[0]!.toString();
}

export function attributionUrl(ping: PingParameters): string {
  const query = new URLSearchParams({ source_event_id: ping.sourceEventId, destination: ping.destination, source_event_type: ping.sourceEventType });
  if (ping.advertiserId) query.set("advertiser_id", ping.advertiserId);
  if (ping.campaignId) query.set("campaign_id", ping.campaignId);
  if (ping.pinId) query.set("pin_id", ping.pinId);
  if (ping.token) query.set("token", ping.token);
  return `${ATTRIBUTION_ENDPOINT}?${query}`;
}

/** Sends one ping; failures are ignored (attribution must never break the page). */
export async function sendAttributionPing(ping: PingParameters, fetcher: typeof fetch = fetch): Promise<void> {
  const init: RequestInit & { attributionReporting?: { eventSourceEligible: boolean; triggerEligible: boolean } } = {
    keepalive: true,
    credentials: "same-origin",
    attributionReporting: { eventSourceEligible: true, triggerEligible: false },
  };
  try {
    await fetcher(attributionUrl(ping), init);
  } catch {
    // Offline or blocked: nothing to retry into (the ad is gone from screen).
  }
}

/** The destination sent is the link's origin: the server keeps only the site, and long affiliate URLs would pass the query's bound. */
export function destinationOf(href: string): string | null {
  try {
    return new URL(href).origin;
  } catch {
    return null;
  }
}

/**
 * Wires a promoted pin's links (`a[data-attribution-advertiser]`, with the pin in
 * `data-attribution-pin` and the page's signed token in `data-attribution-token`; a feed's
 * promoted cell adds `data-attribution-campaign` and `data-attribution-destination`): one view
 * ping when the page shows it, one click ping per click.
 */
export function wireAttribution(root: Pick<ParentNode, "querySelectorAll">, fetcher: typeof fetch = fetch): void {
  for (const link of root.querySelectorAll<HTMLAnchorElement>("a[data-attribution-advertiser]")) {
    const advertiserId = link.dataset["attributionAdvertiser"] ?? null;
    const pinId = link.dataset["attributionPin"] ?? null;
    const token = link.dataset["attributionToken"] ?? null;
    // A promoted cell in a feed links to the close-up; its ad names where it leads and its campaign.
    const campaignId = link.dataset["attributionCampaign"] ?? null;
    const destination = destinationOf(link.dataset["attributionDestination"] ?? link.href);
    if (destination === null || destination === "null") continue;
    const ping = (sourceEventType: SourceEventType, sourceEventId = randomSourceEventId()) =>
      void sendAttributionPing({ sourceEventId, destination, sourceEventType, advertiserId, campaignId, pinId, token }, fetcher);
    ping("view");
    link.addEventListener("click", () => {
      const clickId = randomSourceEventId();
      carryClickId(link, pinId, campaignId, clickId);
      ping("click", clickId);
    });
  }
}

/** The landing URL's parameter the advertiser's conversion tag reads the click id from. */
const CLICK_ID_PARAMETER = "epik";
const CLICK_KEY = "pinloom_ad_click:";

/**
 * A promoted pin's outbound link carries its click id to the advertiser's site as `epik`, for
 * their conversion tag. A feed's promoted cell leads to the close-up, whose click is the one its
 * campaign counted: that id is kept for the tab (only ever wired with marketing consent) and
 * the close-up's outbound link carries it rather than its own.
 */
export function carryClickId(
  link: Pick<HTMLAnchorElement, "href">,
  pinId: string | null,
  campaignId: string | null,
  clickId: string,
  origin: string = location.origin,
  storage: Pick<Storage, "getItem" | "setItem"> | null = tabStorage(),
): void {
  if (campaignId !== null && pinId !== null) {
    storage?.setItem(CLICK_KEY + pinId, clickId);
    return;
  }
  let url: URL;
  try {
    url = new URL(link.href);
  } catch {
    return;
  }
  if (url.origin === origin || (url.protocol !== "https:" && url.protocol !== "http:")) return;
  url.searchParams.set(CLICK_ID_PARAMETER, (pinId === null ? null : storage?.getItem(CLICK_KEY + pinId)) ?? clickId);
  link.href = url.href;
}

function tabStorage(): Storage | null {
  try {
    return sessionStorage;
  } catch {
    return null;
  }
}
