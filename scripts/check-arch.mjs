// `npm run check:arch`: the layering rules of .dependency-cruiser.cjs over src/ and functions/,
// then knip (knip.ts) for unused files, exports, types and dependencies. Both always run, so one
// pass shows every finding; the exit code is non-zero when either finds something.
//
// dependency-cruiser cannot parse .astro files, and most of the rules are about pages and the
// <script>s they ship. So each .astro file is first written out as TypeScript under .astro/arch/
// (gitignored, rebuilt on every run): its frontmatter as `X.astro.ts`, its bundled <script>s as
// `X.astro.script.client.ts` (browser code by name), every import path rewritten to reach the
// real file from there, and every import of another .astro file pointed at that file's copy,
// so cycles and rules see through components. Findings name the .astro file again.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { cruise } from "dependency-cruiser";
import extractDepcruiseOptions from "dependency-cruiser/config-utl/extract-depcruise-options";
import extractTSConfig from "dependency-cruiser/config-utl/extract-ts-config";
import { BIN, ROOT } from "./lib/server.mjs";

const COPIES = ".astro/arch";
const ROOTS = ["src", "functions"];
/** The tsconfig `paths` aliases, as prefixes: an alias import of an .astro file must be rewritten too. */
const ALIASES = [
  ["~/", "src/"],
  ["~functions/", "functions/"],
];

/** Every .astro file under dir, as a path relative to ROOT with forward slashes. */
function astroFiles(dir) {
  const out = [];
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...astroFiles(rel));
    else if (entry.name.endsWith(".astro")) out.push(rel);
  }
  return out.sort();
}

const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n---/;
// Astro bundles a <script> with no attributes; one with any attribute (is:inline, type, src,
// set:html …) is left in the page as it is and imports nothing.
const BUNDLED_SCRIPT = /<script\s*>([\s\S]*?)<\/script>/g;

/** The module specifiers in TypeScript source, as [start, end) of each string literal. */
function specifierRanges(code) {
  const file = ts.createSourceFile("x.ts", code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const ranges = [];
  const visit = (node) => {
    let spec;
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) spec = node.moduleSpecifier;
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) spec = node.arguments[0];
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) spec = node.argument.literal;
    if (spec && ts.isStringLiteralLike(spec)) ranges.push([spec.getStart(file), spec.getEnd(), spec.text]);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return ranges;
}

/** The copy of an .astro file, relative to ROOT. */
const copyOf = (astroFile) => `${COPIES}/${astroFile}.ts`;

/** code from the .astro file `from`, with its import paths rewritten to work from `copy`. */
function rewriteImports(code, from, copy) {
  let out = code;
  for (const [start, end, spec] of specifierRanges(code).reverse()) {
    const bare = spec.replace(/\?.*$/, ""); // Vite's ?url, ?worker&url … name the same file
    const alias = ALIASES.find(([prefix]) => bare.startsWith(prefix));
    let target = null;
    if (bare.startsWith(".")) target = path.posix.join(path.posix.dirname(from), bare);
    else if (alias) target = alias[1] + bare.slice(alias[0].length);
    if (target === null) {
      if (bare !== spec) out = `${out.slice(0, start)}${JSON.stringify(bare)}${out.slice(end)}`;
      continue;
    }
    if (target.endsWith(".astro")) target = copyOf(target);
    let rel = path.posix.relative(path.posix.dirname(copy), target);
    if (!rel.startsWith(".")) rel = `./${rel}`;
    out = `${out.slice(0, start)}${JSON.stringify(rel)}${out.slice(end)}`;
  }
  return out;
}

/** Writes the TypeScript copies of every .astro file, replacing the last run's. */
function writeAstroCopies() {
  fs.rmSync(path.join(ROOT, COPIES), { recursive: true, force: true });
  const write = (file, code) => {
    fs.mkdirSync(path.dirname(path.join(ROOT, file)), { recursive: true });
    fs.writeFileSync(path.join(ROOT, file), code);
  };
  for (const file of ROOTS.flatMap((dir) => (fs.existsSync(path.join(ROOT, dir)) ? astroFiles(dir) : []))) {
    const source = fs.readFileSync(path.join(ROOT, file), "utf8");
    const front = FRONTMATTER.exec(source);
    const copy = copyOf(file);
    write(copy, rewriteImports(front?.[1] ?? "", file, copy));
    const template = front ? source.slice(front[0].length) : source;
    const scripts = [...template.matchAll(BUNDLED_SCRIPT)].map((m) => m[1]);
    if (scripts.length > 0) {
      const scriptCopy = `${COPIES}/${file}.script.client.ts`;
      write(scriptCopy, scripts.map((code) => rewriteImports(code, file, scriptCopy)).join("\n;\n"));
    }
  }
}

/** Names the .astro file (and its <script>) instead of its copy. */
function unmapCopies(text) {
  return text
    .replaceAll(`${COPIES}/`, "")
    .replace(/\.astro\.script\.client\.ts\b/g, ".astro <script>")
    .replace(/\.astro\.ts\b/g, ".astro");
}

/** A package's files are named by the package. */
const shortName = (source) => source.replace(/^(?:.*\/)?node_modules\/((?:@[^/]+\/)?[^/]+)\/.*$/, "$1");

/**
 * Browser code that reaches a *.server.ts module through other modules, following only imports
 * that stay in the bundle (`import type` is erased). dependency-cruiser's `reachable` rules count
 * type-only imports too, so this walk is ours; the direct case is its rule browser-imports-server.
 */
function browserReachesServer(modules, browserPatterns) {
  const bySource = new Map(modules.map((m) => [m.source, m]));
  const browser = browserPatterns.map((p) => new RegExp(p));
  const found = [];
  for (const root of modules.filter((m) => browser.some((re) => re.test(m.source)))) {
    const via = new Map([[root.source, null]]);
    const queue = [root.source];
    while (queue.length > 0) {
      const source = queue.shift();
      for (const dep of bySource.get(source)?.dependencies ?? []) {
        if (dep.dependencyTypes.includes("type-only") || via.has(dep.resolved)) continue;
        via.set(dep.resolved, source);
        if (/\.server\.ts$/.test(dep.resolved)) {
          const chain = [dep.resolved];
          for (let at = source; at !== null; at = via.get(at)) chain.unshift(at);
          if (chain.length > 2) found.push(chain);
        } else queue.push(dep.resolved);
      }
    }
  }
  return found;
}

/**
 * Cycles that share a module are one tangle to undo: each tangle is listed once with all its
 * modules, then the distinct cycles through it (a cycle is reported once per module on it).
 */
function tangles(cycles) {
  const groups = [];
  for (const chain of cycles) {
    const members = new Set(chain);
    const touching = groups.filter((g) => [...members].some((m) => g.members.has(m)));
    const merged = { members, chains: new Map([[[...members].sort().join(" "), chain]]) };
    for (const g of touching) {
      g.members.forEach((m) => merged.members.add(m));
      g.chains.forEach((c, key) => merged.chains.has(key) || merged.chains.set(key, c));
      groups.splice(groups.indexOf(g), 1);
    }
    groups.push(merged);
  }
  return groups.map(
    (g) =>
      `${g.members.size} modules: ${[...g.members].sort().join(", ")}\n` +
      [...g.chains.values()].map((c) => `        ${c.join(" → ")}`).sort().join("\n"),
  );
}

async function depcruise() {
  const started = Date.now();
  writeAstroCopies();
  const options = await extractDepcruiseOptions(path.join(ROOT, ".dependency-cruiser.cjs"));
  const tsConfig = extractTSConfig(path.join(ROOT, "tsconfig.json"));
  const result = await cruise([...ROOTS, COPIES], { ...options, outputType: "json" }, {}, { tsConfig });
  const json = typeof result.output === "string" ? result.output : JSON.stringify(result.output);
  const { modules, summary } = JSON.parse(unmapCopies(json));
  const rules = options.ruleSet.forbidden;

  const findings = new Map(rules.map((rule) => [rule.name, []]));
  const cycles = [];
  for (const v of summary.violations) {
    if (v.cycle) cycles.push([v.from, ...v.cycle.map((step) => step.name)]);
    else findings.set(v.rule.name, [...(findings.get(v.rule.name) ?? []), `${v.from} → ${shortName(v.to)}`]);
  }
  findings.set("no-circular", tangles(cycles));
  const browserRule = rules.find((rule) => rule.name === "browser-imports-server");
  const reaches = browserReachesServer(modules, [browserRule.from.path].flat());
  findings.set("browser-reaches-server", reaches.map((chain) => chain.join(" → ")));

  let count = 0;
  for (const [name, lines] of findings) {
    if (lines.length === 0) continue;
    count += lines.length;
    const comment = rules.find((rule) => rule.name === name)?.comment ?? "Browser code reaches a *.server.ts module at run time through the modules listed.";
    console.log(`\n✖ ${name} (${lines.length}): ${comment}`);
    for (const line of lines.sort()) console.log(`    ${line}`);
  }
  const took = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`\ndependency-cruiser: ${count} finding(s) in ${summary.totalCruised} modules, ${summary.totalDependenciesCruised} imports (${took}s)`);
  return count === 0;
}

function knip() {
  return new Promise((resolve) => {
    const child = spawn(path.join(BIN, "knip"), ["--no-progress"], { cwd: ROOT, stdio: "inherit" });
    child.on("exit", (code) => resolve(code === 0));
    child.on("error", () => resolve(false));
  });
}

process.chdir(ROOT);
const layered = await depcruise();
const tidy = await knip();
process.exit(layered && tidy ? 0 : 1);
