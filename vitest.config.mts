// Two projects, named by runtime: `unit` runs *.test.ts in Node; `worker` runs
// *.worker.test.ts inside workerd against the BUILT Worker (dist/server), so pages rendered
// by Astro and the Hono edge functions are tested exactly as they deploy. `npm test` builds
// first; run `npm run build` before `npm run test:worker` on its own.
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { FAKE_CONFIG, fakeProviders } from "./tests/worker/providers/fakes.ts";
import { TEST_ATTRIBUTION_SECRET } from "./tests/worker/attribution-secret.ts";
import { fixtureSites } from "./tests/worker/fixture-sites.ts";

const root = fileURLToPath(new URL(".", import.meta.url));
const alias = { "~": fileURLToPath(new URL("./src", import.meta.url)) };

export default defineConfig(async () => {
  const migrations = await readD1Migrations(fileURLToPath(new URL("./src/server/migrations", import.meta.url)));
  // Timeouts guard against hangs, they measure nothing: a Worker test that logs in (a slow
  // password hash, by design) on a cold isolate while CI's two cores run a sibling file takes
  // seconds, and vitest's 5 s default then fails a correct test.
  const hangGuard = { testTimeout: 30_000, hookTimeout: 60_000 };
  return {
    resolve: { alias },
    test: {
      projects: [
        {
          resolve: { alias },
          test: {
            name: "unit",
            root,
            include: ["src/**/*.test.ts", "functions/**/*.test.ts", "scripts/**/*.test.ts", "tests/unit/**/*.test.ts"],
            exclude: ["**/*.worker.test.ts", "node_modules/**", "dist/**"],
            environment: "node",
          },
        },
        {
          resolve: { alias },
          plugins: [
            cloudflareTest({
              wrangler: { configPath: "./dist/server/wrangler.json" },
              miniflare: {
                // The built Worker runs as production (wrangler.toml), so it gets its secret as a deploy would.
                bindings: { TEST_MIGRATIONS: migrations, ATTRIBUTION_SECRET: TEST_ATTRIBUTION_SECRET, AD_INVENTORY_TTL_MS: "0" },
                // The web pages the Worker reads for a person (creating a pin from a website) are
                // answered in Node (tests/worker/fixture-sites.ts): no network, and nothing in the
                // built Worker knows a test page exists.
                outboundService: fixtureSites,
              },
            }),
          ],
          test: {
            name: "worker",
            root,
            ...hangGuard,
            include: ["tests/worker/**/*.worker.test.ts"],
            exclude: ["tests/worker/providers/**"],
            setupFiles: ["./tests/worker/apply-migrations.ts"],
            // A test that imports the routes from source loads pdf-lib, whose ES build imports
            // without file extensions: pre-bundled here, as the build bundles it, workerd loads it.
            deps: { optimizer: { ssr: { enabled: true, include: ["pdf-lib"] } } },
          },
        },
        {
          // The same built Worker with Turnstile, Facebook, Google and country domains configured, and every
          // outbound fetch answered by local fakes that speak each provider's protocol at its
          // real URL (tests/worker/providers/fakes.ts). Production code has no test switch.
          resolve: { alias },
          plugins: [
            cloudflareTest({
              wrangler: { configPath: "./dist/server/wrangler.json" },
              miniflare: {
                bindings: { TEST_MIGRATIONS: migrations, ...FAKE_CONFIG, CCTLD_HOSTS: "pinloom.test, pinloom.fr, pinloom.de" },
                outboundService: fakeProviders,
              },
            }),
          ],
          test: {
            name: "worker-providers",
            root,
            ...hangGuard,
            include: ["tests/worker/providers/**/*.worker.test.ts"],
            setupFiles: ["./tests/worker/apply-migrations.ts"],
          },
        },
      ],
    },
  };
});
