// `npm test`: every check, in order, stopping at the first failure.
// Ends with a line "N passed, N failed" (N counts steps; steps not run are listed above it).
import { fmtDuration, run } from "./lib/server.mjs";

/** Each step is one command; add steps here. */
const STEPS = [
  { name: "typecheck", cmd: "npm", args: ["run", "typecheck"] },
  { name: "lint", cmd: "npm", args: ["run", "lint"] },
  { name: "architecture", cmd: "npm", args: ["run", "check:arch"] },
  { name: "build", cmd: "npm", args: ["run", "build"] },
  { name: "unit tests", cmd: "npm", args: ["run", "test:unit"] },
  { name: "worker tests", cmd: "npm", args: ["run", "test:worker"] },
  { name: "browser tests", cmd: "node", args: ["scripts/e2e.mjs"] },
];

async function main() {
  const results = [];
  const t0 = Date.now();
  for (const [i, step] of STEPS.entries()) {
    const label = `[${i + 1}/${STEPS.length}] ${step.name}`;
    console.log(`\n━━━ ${label}: ${[step.cmd, ...step.args].join(" ")}`);
    const start = Date.now();
    let ok = true;
    let error = "";
    try {
      await run(step.cmd, step.args);
    } catch (err) {
      ok = false;
      error = err instanceof Error ? err.message : String(err);
    }
    const took = Date.now() - start;
    results.push({ ...step, ok, took });
    console.log(`━━━ ${label}: ${ok ? "PASS" : "FAIL"} in ${fmtDuration(took)}${ok ? "" : ` (${error})`}`);
    if (!ok) break;
  }

  const passed = results.filter((r) => r.ok).length;
  const failed = results.length - passed;
  console.log(`\n━━━ summary (${fmtDuration(Date.now() - t0)})`);
  for (const r of results) console.log(`  ${r.ok ? "PASS" : "FAIL"}  ${r.name.padEnd(14)} ${fmtDuration(r.took)}`);
  for (const s of STEPS.slice(results.length)) console.log(`  ----  ${s.name.padEnd(14)} not run`);
  console.log(`${passed} passed, ${failed} failed`);
  return failed === 0 && results.length === STEPS.length ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
