import { SELF } from "cloudflare:test";
import { expect, it } from "vitest";

it("answers /healthz", async () => {
  const response = await SELF.fetch("https://pinloom.test/healthz");
  expect(response.status).toBe(200);
  expect(await response.text()).toBe("ok");
});

it("renders a 404 page for an unknown pin", async () => {
  const response = await SELF.fetch("https://pinloom.test/pin/123/");
  expect(response.status).toBe(404);
});
