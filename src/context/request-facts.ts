// The embedded request context's facts read from the request alone (spec 000 §3 "Request
// context" and "Embedded app state"): each rule is written here once, pure, so the context, the
// state endpoint and the tests read the same thing. docs/decisions.md records why each is so.
import { bucketOf } from "~/experiments/experiments.ts";
import type { UserAgentFacts } from "./user-agent.ts";

/**
 * countryFromHostName: the country of a country domain. A host the deploy lists in CCTLD_HOSTS
 * whose top-level label is two letters names that country ("pinloom.fr" → FR; "uk" is GB's);
 * the main domain (".com"), any host not listed and local hosts have none.
 */
export function countryFromHostName(hostname: string, countryHosts: string | undefined): string | null {
  const host = hostname.toLowerCase();
  const listed = (countryHosts ?? "")
    .split(",")
    .slice(0, 50)
    .some((entry) => entry.trim().toLowerCase() === host);
  if (!listed) return null;
  const label = host.split(".").at(-1) ?? "";
  if (!/^[a-z]{2}$/.test(label)) return null;
  return label === "uk" ? "GB" : label.toUpperCase();
}

/**
 * isPrefetch: the browser fetched the page ahead of a visit that may not come (Speculation
 * Rules and <link rel=prefetch> send Sec-Purpose; older browsers Purpose or X-Moz).
 */
export function isPrefetchRequest(headers: Headers): boolean {
  const purpose = `${headers.get("sec-purpose") ?? ""} ${headers.get("purpose") ?? ""} ${headers.get("x-moz") ?? ""}`.toLowerCase();
  return /\bprefetch\b/.test(purpose);
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/**
 * isInternalIP: the connecting address (CF-Connecting-IP, which a client cannot forge through
 * the edge) is a private, loopback or link-local one: the request came from inside the network
 * the Worker runs in (a developer's machine, a private deploy), never across the internet.
 */
export function isInternalAddress(ip: string | null): boolean {
  if (!ip) return false;
  const address = ip.trim().toLowerCase();
  const v4 = IPV4.exec(address.startsWith("::ffff:") ? address.slice(7) : address);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return a === 10 || a === 127 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254);
  }
  if (!address.includes(":")) return false;
  return address === "::1" || /^f[cd][0-9a-f]{0,2}:/.test(address) || /^fe[89ab][0-9a-f]?:/.test(address);
}

export type AppTypeDetailed = "desktop_web" | "mobile_web" | "tablet_web" | "bot";

/** appTypeDetailed: the web client by device class, from the user agent (crawlers are "bot"). */
export function appTypeDetailedOf(userAgent: Pick<UserAgentFacts, "browserType">): AppTypeDetailed {
  return userAgent.browserType === "bot" ? "bot" : (`${userAgent.browserType}_web` as AppTypeDetailed);
}

/**
 * unauthId: a signed-out browser's stable id, derived from the CSRF cookie it already carries
 * (no cookie of its own, nothing stored): 16 hex digits of two independent hashes of the token,
 * which say nothing of the token itself. Null for a signed-in viewer or a browser without one.
 */
export function unauthIdOf(csrfToken: string | null | undefined): string | null {
  if (!csrfToken) return null;
  const token = csrfToken.slice(0, 128);
  return [bucketOf(`unauth:a:${token}`), bucketOf(`unauth:b:${token}`)].map((part) => part.toString(16).padStart(8, "0")).join("");
}

/**
 * initialHandlerId: the page (a file under src/pages/, as its route) that handles this path,
 * the way Astro routes it: static segments before parameters. Null for a path no page handles.
 */
export function pageHandlerId(pathname: string): string | null {
  const parts = pathname.split("/").filter(Boolean);
  const [first, second, third] = parts;
  if (parts.length === 0) return "/";
  if (first === "homefeed" && parts.length === 1) return "/homefeed";
  if (first === "login" && parts.length === 1) return "/login";
  if (first === "signup" && parts.length === 1) return "/signup";
  if (first === "today" && parts.length === 1) return "/today";
  if (first === "today" && parts.length === 4) return "/today/[segment]/[slug]/[id]";
  if (first === "pin-builder" && parts.length === 1) return "/pin-builder";
  if (first === "pin-builder" && second === "story" && parts.length === 2) return "/pin-builder/story";
  if (first === "search" && parts.length === 2) return "/search/[scope]";
  if (first === "settings" && second === "messages" && parts.length === 3) return "/settings/messages/[section]";
  if (first === "settings") return parts.length >= 2 && parts.length <= 3 ? `/settings/${parts.slice(1).join("/")}` : null;
  if (first === "parental-passcode" && parts.length === 1) return "/parental-passcode";
  if (first === "pin" && parts.length === 2) return "/pin/[id]";
  if (first === "pin" && parts.length === 3 && (third === "sent" || third === "repin")) return `/pin/[id]/${third}`;
  if (parts.length === 1) return "/[username]";
  if (parts.length === 2) return "/[username]/[board]";
  if (parts.length === 3) return "/[username]/[board]/[section]";
  return null;
}
