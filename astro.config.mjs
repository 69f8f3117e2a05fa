// @ts-check
import { defineConfig } from "astro/config";
import cloudflare from "@astrojs/cloudflare";
import react from "@astrojs/react";
import { fileURLToPath } from "node:url";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";

/**
 * The build's version (src/runtime/build-version.ts), stamped on every Worker answer and
 * compiled into the client bundle: PINLOOM_BUILD_VERSION when the deploy sets it, else the git
 * commit plus a hash of uncommitted changes, else the build time.
 */
function buildVersion() {
  if (process.env.PINLOOM_BUILD_VERSION) return process.env.PINLOOM_BUILD_VERSION.slice(0, 64);
  const git = (...args) => execFileSync("git", args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  try {
    const commit = git("rev-parse", "--short=12", "HEAD").trim();
    const changes = git("diff", "HEAD");
    return changes ? `${commit}-${createHash("sha256").update(changes).digest("hex").slice(0, 8)}` : commit;
  } catch {
    return `t${Date.now().toString(36)}`;
  }
}

/** client:interaction (src/islands/interaction-directive.ts): hydrate when a person acts. */
const interactionDirective = {
  name: "pinloom:interaction-directive",
  hooks: {
    "astro:config:setup": ({ addClientDirective }) => {
      addClientDirective({ name: "interaction", entrypoint: fileURLToPath(new URL("./src/islands/interaction-directive.ts", import.meta.url)) });
    },
  },
};

/**
 * Server rendering without three costs the integrations add to every page (together about a
 * quarter of a cache-miss close-up's CPU, measured with scripts/serve.mjs). Server build only;
 * the build fails if a patched line moves, rather than silently paying again.
 * - Islands: @astrojs/react's streaming path (renderToReadableStream, read back through a
 *   TextDecoder) is replaced by renderToString, given the island's identifier prefix as the
 *   streaming path is (useId answers stay unique per island); no island suspends on the server,
 *   so the markup is the same.
 * - Astro asks each renderer whether a component is its own by rendering it once more; every
 *   src/**\/*.tsx default export is a React island, so each is tagged with the renderer Astro
 *   would pick.
 * - Pages render to one string, not a stream of small chunks: a page awaits its data before its
 *   first byte anyway, and every chunk paid on its way through the page cache's tee and store.
 */
const serverRenderCosts = {
  name: "pinloom:server-render-costs",
  enforce: "post",
  transform(code, id, options) {
    if (!options?.ssr) return null;
    if (/[\\/]@astrojs[\\/]react[\\/]dist[\\/]server\.js$/.test(id)) {
      const from = "html = ReactDOM.renderToString(vnode);";
      if (!code.includes(from)) throw new Error("@astrojs/react's server renderer changed: review pinloom:server-render-costs in astro.config.mjs");
      return { code: code.replace(from, "html = ReactDOM.renderToString(vnode, renderOptions);"), map: null };
    }
    if (/[\\/]@astrojs[\\/]cloudflare[\\/]dist[\\/]utils[\\/]handler\.js$/.test(id)) {
      const from = "const app = createApp();";
      if (!code.includes(from)) throw new Error("@astrojs/cloudflare's handler changed: review pinloom:server-render-costs in astro.config.mjs");
      return { code: code.replace(from, "const app = createApp({ streaming: false });"), map: null };
    }
    if (!/[\\/]src[\\/].+\.tsx$/.test(id) || id.includes("?")) return null;
    const named = /^export default function (\w+)\(/m.exec(code);
    const tag = (name) => `\n${name}[Symbol.for("astro:renderer")] = "@astrojs/react";\n`;
    if (named) return { code: code + tag(named[1]), map: null };
    if (/^export default /m.test(code)) return { code: code.replace(/^export default /m, "const pinloomIsland = ") + tag("pinloomIsland") + "export default pinloomIsland;\n", map: null };
    return null;
  },
};

export default defineConfig({
  output: "server",
  site: "https://pinloom.example",
  trailingSlash: "ignore",
  // Sessions live in D1 behind a __Host- cookie (src/server/session), never in KV.
  session: false,
  adapter: cloudflare({ imageService: "passthrough" }),
  integrations: [react({ experimentalDisableStreaming: true }), interactionDirective],
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
  build: { inlineStylesheets: "auto" },
  markdown: { syntaxHighlight: false },
  vite: {
    define: { __PINLOOM_BUILD__: JSON.stringify(buildVersion()) },
    plugins: [serverRenderCosts],
    // zod without its JIT, for every import of it (src/runtime/zod.ts says why).
    resolve: { alias: [{ find: /^zod$/, replacement: fileURLToPath(new URL("./src/runtime/zod.ts", import.meta.url)) }] },
    // A locale loads whole (src/i18n/i18n.ts): its thirty namespace files are one chunk, not thirty.
    build: { rollupOptions: { output: { manualChunks: (id) => /[\\/]locales[\\/]([^\\/]+)[\\/][^\\/]+\.json$/.exec(id)?.[1]?.replace(/^/, "locale-") } } },
  },
});
