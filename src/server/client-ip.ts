// The client's address for throttling: CF-Connecting-IP, which Cloudflare sets and a client
// cannot forge through the edge. X-Forwarded-For is never read: anyone can write it.
export const UNKNOWN_IP = "unknown";

export function clientIp(request: Request): string {
  const value = request.headers.get("cf-connecting-ip")?.trim() ?? "";
  return /^[0-9a-fA-F:.]{2,45}$/.test(value) ? value.toLowerCase() : UNKNOWN_IP;
}

/**
 * The address a throttle counts: an IPv4 address as it is, an IPv6 address by its /64 network
 * ("2001:db8:1:2::/64"). One IPv6 subscriber is routinely given a whole /64, so counting single
 * addresses would let one client rotate through 2^64 of them.
 */
export function throttleSubject(ip: string): string {
  if (!ip.includes(":")) return ip;
  const [head = "", tail] = ip.split("::", 2) as [string, string | undefined];
  const left = head === "" ? [] : head.split(":");
  const right = tail === undefined || tail === "" ? [] : tail.split(":");
  // An embedded IPv4 tail (::ffff:1.2.3.4) takes two groups; it is past the first four anyway.
  const groups = tail === undefined ? left : [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right];
  if (groups.length < 4 || groups.slice(0, 4).some((group) => !/^[0-9a-f]{1,4}$/.test(group))) return UNKNOWN_IP;
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

/** Where a sign-up came from (src/accounts/register.server.ts SignupOrigin). */
export function signupOrigin(request: Request): { address: string; connectingIp: string | null; hostname: string } {
  return { address: clientIp(request), connectingIp: request.headers.get("cf-connecting-ip"), hostname: new URL(request.url).hostname };
}
