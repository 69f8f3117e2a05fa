import { describe, expect, it, vi } from "vitest";
import { attributionUrl, randomSourceEventId, sendAttributionPing } from "./client.ts";
import { parseAttributionQuery } from "./source.ts";

describe("the attribution client", () => {
  it("builds a query the server parses back", () => {
    const url = attributionUrl({ sourceEventId: "18446744073709551615", destination: "https://shop.example/sofa?a=1&b=2", sourceEventType: "click", advertiserId: "42" });
    const result = parseAttributionQuery(new URL(url, "https://pinloom.test").searchParams);
    expect(result).toMatchObject({ ok: true, source: { sourceEventId: "18446744073709551615", destination: "https://shop.example", advertiserId: "42", campaignId: null } });
  });

  it("sends with keepalive, eligible for source registration", async () => {
    const fetcher = vi.fn().mockResolvedValue(new Response(null, { status: 204 }));
    await sendAttributionPing({ sourceEventId: "1", destination: "https://a.example", sourceEventType: "view" }, fetcher);
    expect(fetcher).toHaveBeenCalledWith(expect.stringMatching(/^\/attribution_source\/\?/), expect.objectContaining({ keepalive: true, attributionReporting: { eventSourceEligible: true, triggerEligible: false } }));
  });

  it("swallows a failed ping", async () => {
    await expect(sendAttributionPing({ sourceEventId: "1", destination: "https://a.example", sourceEventType: "view" }, vi.fn().mockRejectedValue(new TypeError("offline")))).resolves.toBeUndefined();
  });

  it("draws unsigned 64-bit ids", () => {
    expect(randomSourceEventId((array) => void (array[0] = (1n << 64n) - 1n))).toBe("18446744073709551615");
    expect(randomSourceEventId()).toMatch(/^\d{1,20}$/);
  });
});
