import { describe, expect, it } from "vitest";
import { blockedSet, checkHosts, hostDigest, hostsIn } from "./blocked-hosts.ts";
import { toSegments } from "./segments.ts";

describe("blocked hosts without the blocked list", () => {
  it("finds each URL host and its parent domains", () => {
    expect(hostsIn("see https://Shop.Spam.example/x), and http://ok.example.")).toEqual(["shop.spam.example", "spam.example", "example", "ok.example"]);
  });

  it("a blocked parent domain blocks the link; an allowed host links; an unchecked one stays text", async () => {
    const digests = new Set([await hostDigest("spam.example")]);
    const text = "a https://shop.spam.example/x b https://ok.example/y";
    const hosts = hostsIn(text);
    const verdicts = await checkHosts(hosts, digests);
    const links = toSegments(text, [], [], blockedSet(verdicts)).filter((s) => s.type === "link");
    expect(links.map((s) => s.text)).toEqual(["https://ok.example/y"]);
    const unchecked = toSegments(text, [], [], blockedSet(new Map())).filter((s) => s.type === "link");
    expect(unchecked).toEqual([]);
  });

  it("fails closed: a blocked host the extractor missed is never linked", async () => {
    const digests = new Set([await hostDigest("blocked.example")]);
    // The control character breaks the extractor's parse, while the link rule stops just before it.
    const text = "see https://blocked.example\u0001y and https://ok.example/z";
    const verdicts = await checkHosts(hostsIn(text), digests);
    const links = toSegments(text, [], [], blockedSet(verdicts)).filter((s) => s.type === "link").map((s) => s.text);
    expect(links).toEqual(["https://ok.example/z"]);
  });

  it("digests are lower-case hex SHA-256", async () => {
    expect(await hostDigest("Example.com")).toBe(await hostDigest("example.com"));
    expect(await hostDigest("example.com")).toMatch(/^[0-9a-f]{64}$/);
  });
});
