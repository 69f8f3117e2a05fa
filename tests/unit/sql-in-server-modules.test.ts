// SQL lives only in *.server.ts modules: the HTTP layer (functions/), pages, islands and shared
// modules reach D1 through them. dependency-cruiser sees imports, not calls, so this reads the
// source: a D1 call is `.prepare(`, `.batch(`, or `.exec(` on something named like a database
// (`db`, `env.DB`; RegExp's own `.exec()` is everywhere and is not SQL).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const SCANNED = ["src", "functions"];
const SOURCE = /\.(?:ts|tsx|mts|js|mjs|astro)$/;
const EXEMPT = /\.server\.ts$|\.test\.tsx?$|\.spec\.ts$|\.d\.ts$/;
const D1_CALL = /\.\s*(?:prepare|batch)\s*\(|(?:^|[^\w$])(?:db|[\w$]*D[Bb])\s*\.\s*exec\s*\(/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(rel);
    return SOURCE.test(entry.name) && !EXEMPT.test(entry.name) ? [rel] : [];
  });
}

/** Comment text blanked out (line and block comments), so that prose about D1 is not a call. */
function withoutComments(code: string): string {
  return code.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, " ")).replace(/^\s*\/\/.*$/gm, "");
}

/** "file:line" of every D1 call in a file outside the *.server.ts modules. */
function d1Calls(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of SCANNED.flatMap(sourceFiles)) {
    const code = withoutComments(readFileSync(path.join(ROOT, file), "utf8"));
    const lines = [...code.matchAll(D1_CALL)].map((m) => `${file}:${code.slice(0, m.index).split("\n").length}`);
    if (lines.length > 0) found.set(file, lines);
  }
  return found;
}

describe("SQL lives in *.server.ts modules", () => {
  const calls = d1Calls();

  it("no module under src/ or functions/ calls D1 outside a *.server.ts module", () => {
    const strays = [...calls.values()].flat();
    expect(strays, "move these D1 calls into a *.server.ts module").toEqual([]);
  });

  it("finds a D1 call written across lines and on env.DB, and leaves RegExp.exec alone", () => {
    const sample = 'await env.DB\n  .prepare("SELECT 1")\n  .first();\nawait c.env.DB.exec("VACUUM");\nconst m = PIN_PATH.exec(path);\n// db.prepare( in prose\n';
    const lines = [...withoutComments(sample).matchAll(D1_CALL)].map((m) => sample.slice(0, m.index).split("\n").length);
    expect(lines).toEqual([2, 4]);
  });
});
