// Issue 8, "Done when": on a pin page, the events the browser sends are stored exactly once.
// The browser's own logger sends them (the page view at 300 ms, pin impressions and clicks,
// the 10 s timer); the test reads the local D1 the worker writes to, as
// an operator would, and posts one batch again to show a retry adds nothing.
import { execFileSync } from "node:child_process";
import { expect, test, type Request } from "@playwright/test";

const STATE = ".wrangler/e2e-state";
const CONFIG = "dist/server/wrangler.json";

interface SentEvent {
  clientUUID: string;
  event_type: number;
  view_type?: number;
  object_id_str?: string | null;
}

function eventsOf(request: Request): SentEvent[] {
  if (!request.url().includes("/resource/ApiCResource/create/") || request.method() !== "POST") return [];
  const body = request.postDataJSON() as { options?: { events?: SentEvent[] } } | null;
  return body?.options?.events ?? [];
}

/** client_id → stored row count, read from the worker's local D1. */
function storedCounts(ids: string[]): Map<string, number> {
  const list = ids.map((id) => `'${id.replace(/[^A-Za-z0-9_-]/g, "")}'`).join(", ");
  const output = execFileSync(
    "wrangler",
    ["d1", "execute", "DB", "--local", "--persist-to", STATE, "--config", CONFIG, "--json", "--command", `SELECT client_id, count(*) AS n FROM events WHERE client_id IN (${list}) GROUP BY client_id`],
    { encoding: "utf8", env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" } },
  );
  const [result] = JSON.parse(output) as { results: { client_id: string; n: number }[] }[];
  return new Map(result!.results.map((row) => [row.client_id, row.n]));
}

async function waitForStored(ids: string[]): Promise<Map<string, number>> {
  let counts = new Map<string, number>();
  await expect
    .poll(
      () => {
        counts = storedCounts(ids);
        return counts.size;
      },
      { timeout: 30_000, intervals: [1_000] },
    )
    .toBe(ids.length);
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

  const ids = [...new Set(sent.map((event) => event.clientUUID))];
  expect(ids.length).toBeGreaterThanOrEqual(3);
  const counts = await waitForStored(ids);
  // Give the queue time to deliver the resent copy too; nothing may double.
  await page.waitForTimeout(6_000);
  const after = storedCounts(ids);
  expect([...after.values()].every((n) => n === 1)).toBe(true);
  expect(after.size).toBe(counts.size);
});
