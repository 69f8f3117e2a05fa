// A real fault, not a test-only route: the database loses a table mid-flight. Its own file,
// because it breaks the storage the other tests would share.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { fetchWorker, get, seedWorld } from "./fixtures.ts";

beforeAll(async () => {
  await seedWorld([{ id: 101 }]);
  await env.DB.exec("DROP TABLE pin_images");
});

const LEAKS = /D1_ERROR|no such table|SQLITE|at .*\.(js|mjs|ts):\d+|Error:/;

describe("when the database fails", () => {
  it("a page answers the 500 page with the spec's message and no stack", async () => {
    const response = await get("/pin/101/");
    expect(response.status).toBe(500);
    const html = await response.text();
    expect(html).toContain("Sorry! Something went wrong on our end!");
    expect(html).not.toMatch(LEAKS);
  });

  it("an API call answers the resource error object with the default message and no stack", async () => {
    const response = await fetchWorker(`/resource/PinResource/get/?data=${encodeURIComponent(JSON.stringify({ options: { id: "101" } }))}`);
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toMatch(LEAKS);
    expect(JSON.parse(text)).toEqual({
      resource_response: {
        status: "failure",
        code: 99,
        message: "Sorry! Something went wrong on our end!",
        data: null,
        error: {
          api_error_code: 99,
          code: 99,
          message: "Sorry! Something went wrong on our end!",
          message_detail: null,
          extra_data: null,
          http_status: 500,
        },
      },
    });
  });
});
