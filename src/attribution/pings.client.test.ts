import { describe, expect, it, vi } from "vitest";
import { attributionUrl, carryClickId, destinationOf, randomSourceEventId, sendAttributionPing, wireAttribution } from "./pings.client.ts";
import { parseAttributionQuery } from "./source.ts";

describe("the attribution client", () => {
  it("builds a query the server parses back", () => {
    const url = attributionUrl({ sourceEventId: "18446744073709551615", destination: "https://shop.example/sofa?a=1&b=2", sourceEventType: "click", advertiserId: "42" });
    const result = parseAttributionQuery(new URL(url, "https://pinloom.test").searchParams);
    expect(result).toMatchObject({ ok: true, source: { sourceEventId: "18446744073709551615", destination: "https://shop.example", advertiserId: "42", campaignId: null } });
  });

  it("names the pin, and sends the link's origin as the destination (long affiliate URLs stay within the query bound)", () => {
    const long = `https://shop.example/p?ref=${"x".repeat(5_000)}`;
    const url = attributionUrl({ sourceEventId: "1", destination: destinationOf(long)!, sourceEventType: "view", advertiserId: "42", pinId: "5001" });
    expect(url.length).toBeLessThan(4096);
    expect(parseAttributionQuery(new URL(url, "https://pinloom.test").searchParams)).toMatchObject({ ok: true, source: { destination: "https://shop.example", pinId: "5001", advertiserId: "42" } });
  });

  it("wires a promoted link with its pin and the link's origin", () => {
    const sent: string[] = [];
    const token = `1700004000.${"0f".repeat(32)}`;
    const link = { href: "https://shop.example/sofa?aff=" + "y".repeat(3_000), dataset: { attributionAdvertiser: "42", attributionPin: "5001", attributionToken: token }, addEventListener: vi.fn() };
    const root = { querySelectorAll: () => [link] } as unknown as ParentNode;
    wireAttribution(root, ((input: string) => (sent.push(input), Promise.resolve(new Response(null, { status: 204 })))) as unknown as typeof fetch);
    expect(sent).toHaveLength(1);
    const params = new URL(sent[0]!, "https://pinloom.test").searchParams;
    expect(params.get("destination")).toBe("https://shop.example");
    expect(params.get("pin_id")).toBe("5001");
    expect(params.get("source_event_type")).toBe("view");
    expect(params.get("token")).toBe(token);
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

describe("a promoted pin's click id on its outbound link", () => {
  const memory = () => {
    const items = new Map<string, string>();
    return { getItem: (key: string) => items.get(key) ?? null, setItem: (key: string, value: string) => void items.set(key, value) };
  };

  it("carries the feed click its campaign counted to the close-up's outbound link as epik", () => {
    const storage = memory();
    const cell = { href: "https://pinloom.test/pin/5001/" };
    carryClickId(cell, "5001", "77", "111", "https://pinloom.test", storage);
    expect(cell.href).toBe("https://pinloom.test/pin/5001/");
    const outbound = { href: "https://shop.example/sofa?aff=1" };
    carryClickId(outbound, "5001", null, "222", "https://pinloom.test", storage);
    expect(outbound.href).toBe("https://shop.example/sofa?aff=1&epik=111");
  });

  it("uses the link's own click id without a feed click, and leaves links to this site alone", () => {
    const outbound = { href: "https://shop.example/sofa" };
    carryClickId(outbound, "5001", null, "222", "https://pinloom.test", memory());
    expect(outbound.href).toBe("https://shop.example/sofa?epik=222");
    const own = { href: "https://pinloom.test/pin/5001/" };
    carryClickId(own, "5001", null, "222", "https://pinloom.test", memory());
    expect(own.href).toBe("https://pinloom.test/pin/5001/");
  });
});
