// Two projects, named by runtime: `unit` runs *.test.ts in Node; `worker` runs
// *.worker.test.ts inside workerd against the BUILT Worker (dist/server), so pages rendered
// by Astro and the Hono edge functions are tested exactly as they deploy. `npm test` builds
// first; run `npm run build` before `npm run test:worker` on its own.
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));
const alias = { "~": fileURLToPath(new URL("./src", import.meta.url)) };

export default defineConfig(async () => {
  const migrations = await readD1Migrations(fileURLToPath(new URL("./src/server/migrations", import.meta.url)));
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
                bindings: { TEST_MIGRATIONS: migrations },
              },
            }),
          ],
          test: {
            name: "worker",
            root,
            include: ["tests/worker/**/*.worker.test.ts"],
            setupFiles: ["./tests/worker/apply-migrations.ts"],
          },
        },
      ],
    },
  };
});
