// On a pin page, the events the browser sends are stored exactly once.
// The browser's own logger sends them (the page view at 300 ms, pin impressions and clicks,
// the 10 s timer); the test reads the local D1 the worker writes to, as
// an operator would, and posts one batch again to show a retry adds nothing.
import { execFileSync } from "node:child_process";
import { expect, test, type Request } from "@playwright/test";

const STATE = ".wrangler/e2e-state";
const CONFIG = "dist/server/wrangler.json";

interface SentEvent {
  clientUUID: string;
  time: string;
  event_type: number;
  view_type?: number;
  object_id_str?: string | null;
}

function eventsOf(request: Request): SentEvent[] {
  if (!request.url().includes("/resource/ApiCResource/create/") || request.method() !== "POST") return [];
  const body = request.postDataJSON() as { options?: { events?: SentEvent[] } } | null;
  return body?.options?.events ?? [];
}

/**
 * An event as stored: the server keeps a hash of its sender and clientUUID (so one sender's ids
 * never block another's), so the test finds each event by what it carries: its client time,
 * type and object, which no two events the page sends share.
 */
const keyOf = (event: Pick<SentEvent, "time" | "event_type" | "object_id_str">): string => `${event.time}|${event.event_type}|${event.object_id_str ?? ""}`;

/** event key → stored row count, read from the worker's local D1. */
function storedCounts(events: SentEvent[]): Map<string, number> {
  const times = [...new Set(events.map((event) => `'${String(event.time).replace(/\D/g, "")}'`))].join(", ");
  const output = execFileSync(
    "wrangler",
    [
      "d1", "execute", "DB", "--local", "--persist-to", STATE, "--config", CONFIG, "--json", "--command",
      `SELECT time_ns AS time, event_type, object_id_str, count(*) AS n FROM events WHERE time_ns IN (${times}) GROUP BY time_ns, event_type, object_id_str`,
    ],
    { encoding: "utf8", env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" } },
  );
  const [result] = JSON.parse(output) as { results: { time: string; event_type: number; object_id_str: string | null; n: number }[] }[];
  const wanted = new Set(events.map(keyOf));
  return new Map(result!.results.map((row) => [keyOf(row), row.n] as const).filter(([key]) => wanted.has(key)));
}

async function waitForStored(events: SentEvent[]): Promise<Map<string, number>> {
  let counts = new Map<string, number>();
  await expect
    .poll(
      () => {
        counts = storedCounts(events);
        return counts.size;
      },
      { timeout: 30_000, intervals: [1_000] },
    )
    .toBe(new Set(events.map(keyOf)).size);
  return counts;
}

test("a pin page's events are stored exactly once, a resent batch included", async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  const pinId = testInfo.project.name === "ar" ? "100011" : "100004";
  const sent: SentEvent[] = [];
  const bodies: string[] = [];
  page.on("request", (request) => {
    const events = eventsOf(request);
    if (events.length > 0) {
      sent.push(...events);
      bodies.push(request.postData()!);
    }
  });

  const firstBatch = page.waitForRequest((request) => eventsOf(request).length > 0);
  await page.goto(`/pin/${pinId}/`);
  await firstBatch;
  // The page view of a pin page goes out within 300 ms (spec 000 §9).
  expect(sent).toContainEqual(expect.objectContaining({ event_type: 13, view_type: 2, object_id_str: pinId }));

  // Scroll through the related pins (impressions) and click one; the test keeps the page (the
  // click's default is prevented after the logger's capturing listener saw it), so the 10 s
  // timer sends the click and the impressions.
  const cell = page.locator(".pin-grid a.pin-link").first();
  await cell.scrollIntoViewIfNeeded();
  await page.evaluate(() => document.addEventListener("click", (event) => event.preventDefault()));
  await cell.click();
  await expect.poll(() => sent.some((event) => event.event_type === 1), { timeout: 20_000 }).toBe(true);
  expect(sent.some((event) => event.event_type === 14)).toBe(true);

  // A retry of the first batch, exactly as the browser sent it.
  const retry = await page.evaluate(async (body) => {
    const csrf = /(?:^|;\s*)csrftoken=([^;]+)/.exec(document.cookie)?.[1] ?? "";
    const response = await fetch("/resource/ApiCResource/create/", { method: "POST", body, headers: { "content-type": "application/json", "x-csrftoken": csrf }, credentials: "same-origin" });
    return response.status;
  }, bodies[0]!);
  expect(retry).toBe(200);

  const unique = [...new Map(sent.map((event) => [event.clientUUID, event])).values()];
  expect(unique.length).toBeGreaterThanOrEqual(3);
  expect(new Set(unique.map(keyOf)).size).toBe(unique.length);
  const counts = await waitForStored(unique);
  // Give the queue time to deliver the resent copy too; nothing may double.
  await page.waitForTimeout(6_000);
  const after = storedCounts(unique);
  expect([...after.values()].every((n) => n === 1)).toBe(true);
  expect(after.size).toBe(counts.size);
});
