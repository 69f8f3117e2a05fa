// @ts-check
import { defineConfig } from "astro/config";
import cloudflare from "@astrojs/cloudflare";
import react from "@astrojs/react";
import { fileURLToPath } from "node:url";

/** client:interaction (src/islands/interaction-directive.ts): hydrate when a person acts. */
const interactionDirective = {
  name: "pinloom:interaction-directive",
  hooks: {
    "astro:config:setup": ({ addClientDirective }) => {
      addClientDirective({ name: "interaction", entrypoint: fileURLToPath(new URL("./src/islands/interaction-directive.ts", import.meta.url)) });
    },
  },
};

export default defineConfig({
  output: "server",
  site: "https://pinloom.example",
  trailingSlash: "ignore",
  // Sessions live in D1 behind a __Host- cookie (src/server/session), never in KV.
  session: false,
  adapter: cloudflare({ imageService: "passthrough" }),
  integrations: [react(), interactionDirective],
  security: {
    checkOrigin: false, // our own CSRF middleware (src/server/csrf.ts) covers every route
    csp: {
      directives: [
        "default-src 'self'",
        "img-src 'self' data: blob:",
        "media-src 'self' blob:",
        "connect-src 'self'",
        "font-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
      ],
    },
  },
  build: { inlineStylesheets: "always" },
  markdown: { syntaxHighlight: false },
});
