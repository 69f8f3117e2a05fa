// Which web addresses the Worker may fetch on a person's behalf (creating a pin from a website).
// A Worker cannot resolve DNS, so the rule judges the address as written: IP literals in every
// form the URL parser accepts (it turns decimal, hex, octal and short IPv4 forms into dotted
// quads, and IPv6 into its compressed form) and names that only mean something on a private
// network. Pure, so it runs in the Worker and in Node.
import { PIN_LINK_MAX } from "~/pins/pin.ts";

/** Names that never reach the public internet. */
const PRIVATE_SUFFIXES = ["localhost", "local", "internal", "intranet", "lan", "home.arpa", "localdomain", "corp", "private"] as const;

/** IPv4 ranges that are not public unicast: [first octets as a 32-bit number, prefix length]. */
const PRIVATE_V4: ReadonlyArray<readonly [string, number]> = [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, cloud metadata services
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.88.99.0", 24], // 6to4 relay anycast
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
];

function v4Number(address: string): number | null {
  const parts = address.split(".");
  if (parts.length !== 4 || parts.some((part) => !/^[0-9]{1,3}$/.test(part) || Number(part) > 255)) return null;
  return parts.reduce((sum, part) => sum * 256 + Number(part), 0);
}

const PRIVATE_V4_RANGES = PRIVATE_V4.map(([base, prefix]) => ({ base: v4Number(base)!, size: 2 ** (32 - prefix) }));

function isPrivateV4Number(value: number): boolean {
  return PRIVATE_V4_RANGES.some(({ base, size }) => value >= base && value < base + size);
}

/** The eight 16-bit groups of an IPv6 address (brackets, zone and an IPv4 tail allowed), or null. */
export function ipv6Groups(address: string): number[] | null {
  let text = address.replace(/^\[|\]$/g, "").toLowerCase();
  const zone = text.indexOf("%");
  if (zone >= 0) text = text.slice(0, zone);
  const tail = /:([0-9.]+)$/.exec(text);
  if (tail && tail[1]!.includes(".")) {
    const v4 = v4Number(tail[1]!);
    if (v4 === null) return null;
    text = `${text.slice(0, tail.index + 1)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const side = (part: string | undefined) => (part === undefined || part === "" ? [] : part.split(":"));
  const left = side(halves[0]);
  const right = side(halves[1]);
  if ([...left, ...right].some((group) => !/^[0-9a-f]{1,4}$/.test(group))) return null;
  const missing = 8 - left.length - right.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  return [...left, ...Array<string>(halves.length === 1 ? 0 : missing).fill("0"), ...right].map((group) => parseInt(group, 16));
}

function isPrivateV6(groups: readonly number[]): boolean {
  const [a = 0, b = 0] = groups;
  const embeddedV4 = (high: number, low: number) => isPrivateV4Number(high * 65536 + low);
  if (groups.every((group) => group === 0)) return true; // unspecified
  if (groups.slice(0, 7).every((group) => group === 0) && groups[7] === 1) return true; // loopback
  if (groups.slice(0, 5).every((group) => group === 0)) {
    if (groups[5] === 0xffff) return embeddedV4(groups[6]!, groups[7]!); // IPv4-mapped
    if (groups[5] === 0) return true; // the deprecated IPv4-compatible form
  }
  if (a === 0x64 && b === 0xff9b) return embeddedV4(groups[6]!, groups[7]!); // NAT64 of an IPv4 address
  if (a === 0x2002) return embeddedV4(b, groups[2]!); // 6to4 of an IPv4 address
  if ((a & 0xfe00) === 0xfc00) return true; // unique local
  if ((a & 0xffc0) === 0xfe80 || (a & 0xffc0) === 0xfec0) return true; // link-local, old site-local
  if ((a & 0xff00) === 0xff00) return true; // multicast
  if (a === 0x2001 && b === 0x0db8) return true; // documentation
  if (a === 0x0100 && groups.slice(1, 4).every((group) => group === 0)) return true; // discard-only
  return false;
}

/**
 * Whether a URL's host (as `new URL()` gives it) is one the Worker must not fetch: a loopback,
 * private, link-local, shared, reserved or documentation IP literal (v4 or v6, IPv4 embedded
 * in v6 included), `localhost`, a name under a private-network suffix, or a single-label name.
 */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.+$/, "");
  if (host === "") return true;
  if (host.startsWith("[") || host.includes(":")) {
    const groups = ipv6Groups(host);
    return groups === null || isPrivateV6(groups);
  }
  const v4 = v4Number(host);
  if (v4 !== null) return isPrivateV4Number(v4);
  // A name the URL parser left alone that still looks numeric is no public name.
  if (/^[0-9.]+$/.test(host) || /^0x/i.test(host)) return true;
  if (!host.includes(".")) return true;
  return PRIVATE_SUFFIXES.some((suffix) => host === suffix || host.endsWith(`.${suffix}`));
}

export type AddressProblem = "builder:validation.linkTooLong" | "builder:validation.linkScheme" | "builder:validation.addressPrivate" | "builder:validation.addressPort";

/**
 * The address a person typed, normalised for fetching and as a cache key: trimmed, http or
 * https only, no user name or password, only the scheme's own port (a web page is on it; other
 * ports are where services that were never meant for the web listen), host lower-cased without
 * its trailing dot, fragment dropped; or the problem with it.
 */
export function normaliseWebAddress(input: string): { url: URL } | { problem: AddressProblem } {
  const text = input.trim();
  if (text.length > PIN_LINK_MAX) return { problem: "builder:validation.linkTooLong" };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { problem: "builder:validation.linkScheme" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return { problem: "builder:validation.linkScheme" };
  if (url.username !== "" || url.password !== "") return { problem: "builder:validation.addressPrivate" };
  if (url.port !== "") return { problem: "builder:validation.addressPort" };
  url.hash = "";
  url.hostname = url.hostname.replace(/\.+$/, "");
  if (isPrivateHost(url.hostname)) return { problem: "builder:validation.addressPrivate" };
  if (url.href.length > PIN_LINK_MAX) return { problem: "builder:validation.linkTooLong" };
  return { url };
}
