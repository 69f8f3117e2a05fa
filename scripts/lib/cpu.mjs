// CPU time of the runner's workerd process, from /proc: what a route costs the runtime per
// request (JavaScript, D1's SQLite, the cache and HTTP work alike), beside its throughput.
// workerd runs every binding of the local runtime in its one process, so this is the figure a
// request costs there; production bills the isolate's JavaScript alone, a part of it.
import { readdirSync, readFileSync } from "node:fs";
import { cannon } from "./load.mjs";

const CLOCK_TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** Fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses). */
function statFields(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/** The workerd processes in process group `pgid` (the runner's), or [] where /proc is not there. */
export function workerdPids(pgid) {
  if (process.platform !== "linux") return [];
  const found = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const comm = readFileSync(`/proc/${name}/comm`, "utf8").trim();
      if (comm === "workerd" && Number(statFields(name)[2]) === pgid) found.push(Number(name));
    } catch {
      // gone while we looked
    }
  }
  return found;
}

/** User plus system CPU milliseconds these processes have used so far (all their threads). */
function cpuMs(pids) {
  let ticks = 0;
  for (const pid of pids) {
    const fields = statFields(pid);
    // utime and stime: fields 14 and 15 of stat, 12 and 13 after the name.
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** One autocannon run, its result carrying `cpuMs`: what `pids` spent meanwhile (null without /proc). */
export async function cannonWithCpu(pids, opts) {
  if (pids.length === 0) return Object.assign(await cannon(opts), { cpuMs: null });
  const before = cpuMs(pids);
  const result = await cannon(opts);
  return Object.assign(result, { cpuMs: cpuMs(pids) - before });
}

/** CPU milliseconds per request over such runs, or null where any was not measured. */
export function cpuPerRequest(runs) {
  if (runs.some((run) => run.cpuMs === null || run.cpuMs === undefined)) return null;
  const requests = runs.reduce((sum, run) => sum + run.requests.total, 0);
  return requests > 0 ? runs.reduce((sum, run) => sum + run.cpuMs, 0) / requests : null;
}
