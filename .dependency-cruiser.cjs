// The layering rules `npm run check:arch` enforces (scripts/check-arch.mjs runs this config).
//
// dependency-cruiser cannot read .astro files, so check-arch.mjs first writes each one's
// frontmatter, and separately its bundled <script>s, as TypeScript under .astro/arch/ (same
// relative layout, import paths rewritten to reach the real files) and maps those paths back to
// the .astro file in what it prints. ASTRO below lets a rule name the copy and the real file
// with one pattern. Test files are left out: they are not part of what ships.

/** Optional prefix of the TypeScript copies of .astro files. */
const ASTRO = "^(?:\\.astro/arch/)?";

/** Modules that run in the browser: islands (.tsx and what they import), client folders,
 * *.client.ts, the runtime, the client directive, standalone entries and .astro <script>s. */
const BROWSER = [
  "^src/.+\\.tsx$",
  "^src/client/",
  "^src/.+/client/",
  "\\.client\\.ts$",
  "^src/runtime/",
  "^src/islands/interaction-directive\\.ts$",
  "\\.entry\\.ts$",
];

/** The one module that mounts the Hono routers of functions/ (either of its two homes). */
const APP_ENTRY = "^src/(?:server/)?app\\.ts$";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "An import cycle: modules that cannot be understood, tested or loaded one without the other.",
      from: {},
      to: { circular: true },
    },
    {
      name: "browser-imports-server",
      severity: "error",
      comment:
        "Browser code (islands, client folders, *.client.ts, the runtime, <script>s) must not load a *.server.ts module at run time; `import type` is fine.",
      from: { path: BROWSER },
      to: { path: "\\.server\\.ts$", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "page-imports-functions",
      severity: "error",
      comment: "Pages read data through *.server.ts modules; functions/ holds the HTTP routers.",
      from: { path: `${ASTRO}src/pages/` },
      to: { path: "^functions/" },
    },
    {
      name: "server-imports-http",
      severity: "error",
      comment:
        "*.server.ts modules take plain values and return values or domain errors: no Hono, no Astro, nothing from functions/.",
      from: { path: "\\.server\\.ts$" },
      to: { path: ["^functions/", "(?:^|/)node_modules/(?:hono|astro|@astrojs/[^/]+)/", "^(?:hono|astro)(?:/|$)", "^astro:"] },
    },
    {
      name: "src-imports-functions",
      severity: "error",
      comment: "functions/ sits above src/: only the Hono app entry that mounts its routers imports it.",
      from: { path: `${ASTRO}src/`, pathNot: APP_ENTRY },
      to: { path: "^functions/" },
    },
    {
      name: "not-to-unresolvable",
      severity: "error",
      comment: "An import that resolves to nothing on disk (Astro's and the Worker's virtual modules aside).",
      from: {},
      to: { couldNotResolve: true, pathNot: ["^astro:", "^cloudflare:", "^virtual:"] },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: ["\\.test\\.tsx?$", "\\.spec\\.ts$"] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      mainFields: ["module", "main", "types", "typings"],
    },
    skipAnalysisNotInRules: true,
  },
};
