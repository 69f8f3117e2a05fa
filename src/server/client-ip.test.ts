import { describe, expect, it } from "vitest";
import { clientIp, throttleSubject, UNKNOWN_IP } from "./client-ip.ts";

describe("throttleSubject", () => {
  it.each([
    ["203.0.113.7", "203.0.113.7"],
    ["2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"],
    ["2001:db8:1:2::99", "2001:db8:1:2::/64"],
    ["2001:0db8:0001:0002:ffff::1", "2001:db8:1:2::/64"],
    ["2001:db8::1", "2001:db8:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
    ["fe80::", "fe80:0:0:0::/64"],
    [UNKNOWN_IP, UNKNOWN_IP],
  ])("%s counts as %s", (ip, subject) => {
    expect(throttleSubject(ip)).toBe(subject);
  });

  it("puts every address of one /64 under one subject and another /64 under another", () => {
    const one = throttleSubject(clientIp(new Request("https://x.test/", { headers: { "cf-connecting-ip": "2001:DB8:a:b:1::1" } })));
    const same = throttleSubject(clientIp(new Request("https://x.test/", { headers: { "cf-connecting-ip": "2001:db8:a:b:ffff:ffff:ffff:ffff" } })));
    const other = throttleSubject(clientIp(new Request("https://x.test/", { headers: { "cf-connecting-ip": "2001:db8:a:c::1" } })));
    expect(one).toBe(same);
    expect(one).not.toBe(other);
  });
});
