// knip: unused files, exports, types and dependencies, run by `npm run check:arch`.
// Its plugins find most entry points on their own: src/worker.ts (wrangler.toml's `main`),
// the Astro pages and middleware (and every island and script an .astro file imports),
// vitest, playwright and eslint configs and the test files they name. Listed here are only the
// entries no plugin can see.
import type { KnipConfig } from "knip";

const config: KnipConfig = {
  entry: [
    // npm scripts and the drivers they start, and the seed a Worker test imports.
    "scripts/*.{mjs,ts}",
    // Loaded by astro.config.mjs through addClientDirective(), a path no plugin follows.
    "src/islands/interaction-directive.ts",
  ],
  ignoreDependencies: [
    // scripts/bench.mjs finds the jar through createRequire(import.meta.url)("vnu-jar"),
    // a call knip does not read.
    "vnu-jar",
  ],
};

export default config;
