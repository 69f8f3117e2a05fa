import { exports } from "cloudflare:workers";
import { expect, it } from "vitest";

it("answers /healthz", async () => {
  const response = await exports.default.fetch("https://pinloom.test/healthz");
  expect(response.status).toBe(200);
  expect(await response.text()).toBe("ok");
});
