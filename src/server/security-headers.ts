// Security headers on every response, Hono's and Astro's alike. Astro writes the page CSP
// itself (with hashes of its own scripts, configured in astro.config.mjs); everything else
// (JSON, media) gets a policy that allows nothing, since none of it is a document.
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./context.ts";

export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'";

const ALWAYS: Record<string, string> = {
  "Strict-Transport-Security": "max-age=31536000; includeSubDomains",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "X-Frame-Options": "DENY",
  "Cross-Origin-Opener-Policy": "same-origin",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
};

export function securityHeaders(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    // Responses from bindings (static assets) can carry immutable headers: copy once.
    const headers = new Headers(c.res.headers);
    for (const [name, value] of Object.entries(ALWAYS)) headers.set(name, value);
    if (!headers.has("Content-Security-Policy")) headers.set("Content-Security-Policy", API_CSP);
    const ctx = c.get("ctx");
    if (ctx) headers.set("X-Request-Id", ctx.requestId);
    c.res = new Response(c.res.body, { status: c.res.status, statusText: c.res.statusText, headers });
  };
}
