// Making a profile private reaches the edge cache at once: the cached signed-out render of the
// profile and of the home feed (which lists its pins) are dropped, not served for the stale window.
import { beforeAll, expect, it } from "vitest";
import { BASE, fetchWorker, get, seedWorld } from "./fixtures.ts";
import { createSession } from "./session-fixture.ts";

const CSRF = "d".repeat(64);

beforeAll(async () => {
  await seedWorld([{ id: 101, title: "Lemon tart" }]);
});

it("a profile made private is gone from signed-out pages on the next request", async () => {
  expect((await get("/ana/")).status).toBe(200);
  const cached = await get("/ana/");
  expect(cached.headers.get("x-pinloom-cache")).toBe("HIT");
  expect(await (await get("/")).text()).toContain("Lemon tart");
  expect((await get("/")).headers.get("x-pinloom-cache")).toBe("HIT");

  const session = await createSession(1);
  const response = await fetchWorker("/v3/users/settings/privacy/", {
    method: "PUT",
    headers: { origin: BASE, cookie: `csrftoken=${CSRF}; ${session.cookie}`, "x-csrftoken": CSRF, "content-type": "application/json" },
    body: JSON.stringify({ is_private_profile: true }),
  });
  expect(response.status).toBe(200);

  // The purge runs after the change answers; it lands within moments (the bound is a hang
  // guard for a loaded machine, far inside the 60 s a cached page stays fresh).
  await expect.poll(async () => (await get("/ana/")).status, { timeout: 10_000, interval: 50 }).toBe(404);
  await expect.poll(async () => (await get("/")).headers.get("x-pinloom-cache"), { timeout: 10_000, interval: 50 }).not.toBe("HIT");
  expect(await (await get("/")).text()).not.toContain("Lemon tart");
});
