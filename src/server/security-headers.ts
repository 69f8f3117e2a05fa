// Security headers on every response, Hono's and Astro's alike. Astro writes the page CSP
// itself (with hashes of its own scripts, configured in astro.config.mjs); everything else
// (JSON, media) gets a policy that allows nothing, since none of it is a document.
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./context.ts";
import { requestIdOf } from "~/context/request-context.ts";

const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'";

const ALWAYS: Record<string, string> = {
  "Strict-Transport-Security": "max-age=31536000; includeSubDomains",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "X-Frame-Options": "DENY",
  "Cross-Origin-Opener-Policy": "same-origin",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
};

function apply(headers: Headers, requestId: string): void {
  for (const [name, value] of Object.entries(ALWAYS)) headers.set(name, value);
  if (!headers.has("Content-Security-Policy")) headers.set("Content-Security-Policy", API_CSP);
  headers.set("X-Request-Id", requestId);
}

export function securityHeaders(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    // Answers made before the request context (the page cache's early answers) get one of their own.
    const requestId = c.get("ctx")?.requestId ?? requestIdOf(c.req.raw.headers);
    try {
      apply(c.res.headers, requestId);
    } catch {
      // Responses from bindings (static assets, fetch) have immutable headers: copy once.
      c.res = new Response(c.res.body, c.res);
      apply(c.res.headers, requestId);
    }
  };
}
