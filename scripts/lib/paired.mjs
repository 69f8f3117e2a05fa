// Paired throughput: a route and /healthz measured in alternating slices, so that a slow spell
// of the machine (another tenant, a thermal step) lands on both sides of the ratio instead of
// on one. Measured once at the start, /healthz moved by up to 15% between runs on the
// two-core bench machine, and every route's `ratio_to_healthz` moved with it.

/**
 * @typedef {{ requests: number, seconds: number, p50: number, p99: number }} Slice
 * @typedef {{ route: Slice, healthz: Slice }} Round
 */

/** Requests per second over slices: total requests over total seconds. */
export function rate(slices) {
  const seconds = slices.reduce((sum, s) => sum + s.seconds, 0);
  return seconds > 0 ? slices.reduce((sum, s) => sum + s.requests, 0) / seconds : 0;
}

/** The middle value (the mean of the two middle ones for an even count); null when empty. */
export function median(values) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * How long to wait after a route before the next measurement starts: the worker may still be
 * answering the requests that were in flight when the load stopped (a login's password hash
 * runs to its end, about a second of CPU each), and that work would slow whatever slice comes
 * next. Twice the route's worst slice p99, between half a second and five seconds.
 */
export function settleMs(p99Ms) {
  return Math.min(5000, Math.max(500, 2 * (Number.isFinite(p99Ms) ? p99Ms : 0)));
}

/**
 * One round: /healthz and the route, in alternating order (/healthz first in even rounds, the
 * route first in odd ones), so that whatever the first slice of a pair does to the second
 * (a warm cache, a collection left to run) falls on each side as often. Answers [healthz, route].
 * @template T
 * @param {number} index
 * @param {() => Promise<T>} healthz
 * @param {() => Promise<T>} route
 * @returns {Promise<[T, T]>}
 */
export async function pairedRound(index, healthz, route) {
  if (index % 2 === 0) {
    const first = await healthz();
    return [first, await route()];
  }
  const first = await route();
  return [await healthz(), first];
}

/**
 * A route's paired figures from its rounds:
 *  - `rps` and `healthz_rps`: each side's requests over its seconds, all rounds together;
 *  - `ratio`: their quotient (both sides span the same stretch of time);
 *  - `ratio_rounds`: each round's own quotient, to show the spread;
 *  - `p50` and `p99`: the medians of the route's slices' own (autocannon gives percentiles,
 *    not the samples, so the slices cannot be merged; a median keeps one slow slice from
 *    standing for the route).
 * @param {Round[]} rounds
 */
export function pairedSummary(rounds) {
  if (rounds.length === 0) throw new Error("pairedSummary needs at least one round");
  const routeRate = rate(rounds.map((r) => r.route));
  const healthzRate = rate(rounds.map((r) => r.healthz));
  return {
    rps: routeRate,
    healthz_rps: healthzRate,
    ratio: healthzRate > 0 ? routeRate / healthzRate : null,
    ratio_rounds: rounds.map((r) => (rate([r.healthz]) > 0 ? rate([r.route]) / rate([r.healthz]) : null)),
    p50: median(rounds.map((r) => r.route.p50)),
    p99: median(rounds.map((r) => r.route.p99)),
  };
}
