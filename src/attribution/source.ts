// Attribution sources (spec 000 §7 GET /attribution_source/, §9; spec 002 §3, §9): the query
// parsed into typed values, the Attribution Reporting API's register-source header built from
// them, and the advertiser link prefix. Pure: no storage, no request, so the property tests
// drive it directly.
import type { FieldProblem } from "~/domain/errors.ts";

/** Spec 000 §9 and 002 §9, plus the Attribution Reporting API's bounds on expiry. */
export const ATTRIBUTION = {
  expirySeconds: { click: 604_800, view: 86_400 },
  priority: { click: 2n, view: 1n },
  /** The API accepts an expiry of one day to thirty days. */
  minExpirySeconds: 86_400,
  maxExpirySeconds: 2_592_000,
  /** Share of pings written to the logs; every ping is stored. */
  logSampleRate: 0.1,
} as const;

const SOURCE_EVENT_TYPES = ["click", "view"] as const;
export type SourceEventType = (typeof SOURCE_EVENT_TYPES)[number];

export const ATTRIBUTION_PARAMETERS = [
  "source_event_id",
  "destination",
  "expiry",
  "priority",
  "source_event_type",
  "advertiser_id",
  "campaign_id",
  "pin_id",
  // Not in the spec's query: the signed token of the page that showed the ad (token.server.ts).
  "token",
] as const;
type Parameter = (typeof ATTRIBUTION_PARAMETERS)[number];

/** An attribution token: `<expiry in Unix seconds>.<HMAC-SHA-256 in lowercase hex>` (token.server.ts). */
export const TOKEN_PATTERN = /^(\d{1,12})\.([0-9a-f]{64})$/;

const UINT64_MAX = (1n << 64n) - 1n;
const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;
const MAX_DESTINATION_LENGTH = 2048;
const MAX_ID_DIGITS = 20;

export interface AttributionSource {
  /** Unsigned 64-bit, canonical decimal (no leading zeros). */
  sourceEventId: string;
  /** The destination's site: scheme://host, no port, path or query. */
  destination: string;
  sourceEventType: SourceEventType;
  expirySeconds: number;
  /** Signed 64-bit, canonical decimal. */
  priority: string;
  advertiserId: string | null;
  campaignId: string | null;
  /** The promoted pin the ping is about: a ping is stored only when the pin is that advertiser's. */
  pinId: string | null;
  /** The page's attribution token, well-formed; absent when the ping sent none. */
  token?: string;
}

export type ParseResult = { ok: true; source: AttributionSource } | { ok: false; problems: FieldProblem[] };

const required = (field: string): FieldProblem => ({ field, reason: "validation.required" });
const badFormat = (field: string): FieldProblem => ({ field, reason: "validation.invalidFormat" });

/** An unsigned decimal of at most `digits` digits, as a bigint; null when it is not one. */
function unsignedDecimal(text: string, digits: number): bigint | null {
  return new RegExp(`^\\d{1,${digits}}$`).test(text) ? BigInt(text) : null;
}

/** scheme://host of an http or https URL; null for anything else. */
export function siteOf(text: string): string | null {
  if (text.length > MAX_DESTINATION_LENGTH) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (url.hostname === "" || url.username !== "" || url.password !== "") return null;
  return `${url.protocol}//${url.hostname}`;
}

/**
 * The query of GET /attribution_source/ → typed values, or every problem found (each naming its
 * parameter). Unknown and repeated parameters are problems too: a ping is either exactly what
 * the advertiser's tag meant, or refused.
 */
export function parseAttributionQuery(params: URLSearchParams): ParseResult {
  const problems: FieldProblem[] = [];
  const values = new Map<Parameter, string>();
  const known = new Set<string>(ATTRIBUTION_PARAMETERS);
  for (const [name, value] of params) {
    if (!known.has(name)) {
      problems.push({ field: name === "" ? "query" : name.slice(0, 64), reason: "validation.unknownKey" });
    } else if (values.has(name as Parameter)) {
      problems.push({ field: name, reason: "events:validation.repeated" });
    } else {
      values.set(name as Parameter, value);
    }
    if (problems.length >= 10) break;
  }

  const typeText = values.get("source_event_type");
  let sourceEventType: SourceEventType | null = null;
  if (typeText === undefined) problems.push(required("source_event_type"));
  else if ((SOURCE_EVENT_TYPES as readonly string[]).includes(typeText)) sourceEventType = typeText as SourceEventType;
  else problems.push({ field: "source_event_type", reason: "validation.invalidValue", values: { values: SOURCE_EVENT_TYPES.join(", ") } });

  const idText = values.get("source_event_id");
  const id = idText === undefined ? null : unsignedDecimal(idText, MAX_ID_DIGITS);
  if (idText === undefined) problems.push(required("source_event_id"));
  else if (id === null || id > UINT64_MAX) problems.push(badFormat("source_event_id"));

  const destinationText = values.get("destination");
  const destination = destinationText === undefined ? null : siteOf(destinationText);
  if (destinationText === undefined) problems.push(required("destination"));
  else if (destination === null) problems.push({ field: "destination", reason: "events:validation.notSite" });

  const expiryText = values.get("expiry");
  let expirySeconds: number | null = null;
  if (expiryText !== undefined) {
    const expiry = unsignedDecimal(expiryText, 10);
    if (expiry === null) problems.push(badFormat("expiry"));
    else if (expiry < BigInt(ATTRIBUTION.minExpirySeconds)) problems.push({ field: "expiry", reason: "validation.tooSmall", values: { minimum: ATTRIBUTION.minExpirySeconds } });
    else if (expiry > BigInt(ATTRIBUTION.maxExpirySeconds)) problems.push({ field: "expiry", reason: "validation.tooBig", values: { maximum: ATTRIBUTION.maxExpirySeconds } });
    else expirySeconds = Number(expiry);
  }

  const priorityText = values.get("priority");
  let priority: bigint | null = null;
  if (priorityText !== undefined) {
    priority = /^-?\d{1,19}$/.test(priorityText) ? BigInt(priorityText) : null;
    if (priority === null || priority < INT64_MIN || priority > INT64_MAX) {
      problems.push(badFormat("priority"));
      priority = null;
    }
  }

  const idField = (name: "advertiser_id" | "campaign_id" | "pin_id"): string | null => {
    const text = values.get(name);
    if (text === undefined) return null;
    const value = unsignedDecimal(text, MAX_ID_DIGITS);
    if (value === null || value > UINT64_MAX) {
      problems.push(badFormat(name));
      return null;
    }
    return value.toString();
  };
  const advertiserId = idField("advertiser_id");
  const campaignId = idField("campaign_id");
  const pinId = idField("pin_id");
  const token = values.get("token");
  if (token !== undefined && !TOKEN_PATTERN.test(token)) problems.push(badFormat("token"));

  if (problems.length > 0 || sourceEventType === null || id === null || destination === null) return { ok: false, problems };
  return {
    ok: true,
    source: {
      sourceEventId: id.toString(),
      destination,
      sourceEventType,
      expirySeconds: expirySeconds ?? ATTRIBUTION.expirySeconds[sourceEventType],
      priority: (priority ?? ATTRIBUTION.priority[sourceEventType]).toString(),
      advertiserId,
      campaignId,
      pinId,
      ...(token === undefined ? {} : { token }),
    },
  };
}

/** The Attribution-Reporting-Register-Source header's JSON (the API takes 64-bit values as strings). */
export interface RegisterSourceHeader {
  source_event_id: string;
  destination: string;
  expiry: string;
  priority: string;
}

export function registerSourceHeader(source: AttributionSource): string {
  const header: RegisterSourceHeader = {
    source_event_id: source.sourceEventId,
    destination: source.destination,
    expiry: String(source.expirySeconds),
    priority: source.priority,
  };
  return JSON.stringify(header);
}

/**
 * A link to an advertiser's page (spec 000 §7): a relative link, or one on our own host, gets
 * the /advertiser/{advertiserId} prefix when an advertiser id is given. Links elsewhere, links
 * already prefixed and links without an advertiser id are returned unchanged.
 */
export function advertiserLink(href: string, advertiserId: string | null | undefined, ownOrigin: string): string {
  if (!advertiserId || !/^\d{1,20}$/.test(advertiserId)) return href;
  let own: URL;
  let url: URL;
  try {
    own = new URL(ownOrigin);
    url = new URL(href, own);
  } catch {
    return href;
  }
  if (url.origin !== own.origin) return href;
  const prefix = `/advertiser/${advertiserId}`;
  if (url.pathname === prefix || url.pathname.startsWith(`${prefix}/`)) return href;
  const isAbsolute = /^[a-z][a-z0-9+.-]*:|^\/\//i.test(href);
  const path = `${prefix}${url.pathname}${url.search}${url.hash}`;
  return isAbsolute ? `${url.origin}${path}` : path;
}
