// The Nu HTML checker (the `vnu-jar` devDependency, run with Java) over a set of pages, once:
// the JVM's start costs seconds, so every page goes through one run. Shared by the bench (which
// records the counts) and the browser suite (which fails on any error).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { run } from "./server.mjs";

/** @typedef {{ message: string, line: number | undefined, extract: string | undefined }} HtmlError */

/**
 * Checks each page's HTML (`pages`: name and html) with `vnu --errors-only`; resolves to each
 * name's error messages, or to `{ skipped }` when Java cannot run the checker.
 * @param {ReadonlyArray<{ name: string, html: string }>} pages
 * @returns {Promise<{ errors: Record<string, HtmlError[]> } | { skipped: string }>}
 */
export async function checkHtml(pages) {
  const vnu = createRequire(import.meta.url)("vnu-jar");
  const dir = mkdtempSync(path.join(os.tmpdir(), "pinloom-vnu-"));
  try {
    const files = pages.map((page, index) => {
      const file = path.join(dir, `${index}-${page.name.replace(/\W+/g, "-").slice(0, 60)}.html`);
      writeFileSync(file, page.html);
      return file;
    });
    let output;
    try {
      output = await run("java", ["-jar", String(vnu), "--errors-only", "--format", "json", "--exit-zero-always", ...files], { capture: true });
    } catch (error) {
      return { skipped: `java -jar vnu.jar failed: ${String(error.message).split("\n")[0]}` };
    }
    const messages = JSON.parse(output.stderr || output.stdout || '{"messages":[]}').messages ?? [];
    /** @type {Record<string, HtmlError[]>} */
    const errors = {};
    pages.forEach((page, index) => {
      const mine = messages.filter((message) => message.url?.endsWith(path.basename(files[index])) && message.type === "error");
      errors[page.name] = mine.map((message) => ({ message: message.message, line: message.lastLine, extract: message.extract }));
    });
    return { errors };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
