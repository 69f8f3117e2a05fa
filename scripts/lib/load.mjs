// autocannon runs for the bench's measurements (scripts/bench.mjs, scripts/bench-harness.mjs).
import autocannon from "autocannon";

/** One autocannon run, as a promise of its result. */
export function cannon(opts) {
  return new Promise((resolve, reject) => {
    autocannon(opts, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

/** One run as a paired slice (scripts/lib/paired.mjs): what it did, over how long, its latency percentiles. */
export function sliceOf(res) {
  return { requests: res.requests.total, seconds: res.duration, p50: res.latency.p50, p99: res.latency.p99 };
}
