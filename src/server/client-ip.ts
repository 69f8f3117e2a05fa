// The client's address for throttling: CF-Connecting-IP, which Cloudflare sets and a client
// cannot forge through the edge. X-Forwarded-For is never read: anyone can write it.
export const UNKNOWN_IP = "unknown";

export function clientIp(request: Request): string {
  const value = request.headers.get("cf-connecting-ip")?.trim() ?? "";
  return /^[0-9a-fA-F:.]{2,45}$/.test(value) ? value.toLowerCase() : UNKNOWN_IP;
}
