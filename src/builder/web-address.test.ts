import { describe, expect, it } from "vitest";
import { ipv6Groups, isPrivateHost, normaliseWebAddress } from "./web-address.ts";

/** The host as the URL parser gives it, which is what the rule sees in the Worker. */
const hostOf = (address: string) => new URL(address).hostname;

describe("isPrivateHost", () => {
  it.each([
    ["IPv4 loopback", "http://127.0.0.1/"],
    ["IPv4 loopback elsewhere in 127/8", "http://127.8.9.10/"],
    ["IPv4 loopback written as one decimal number", "http://2130706433/"],
    ["IPv4 loopback written in hex", "http://0x7f000001/"],
    ["IPv4 loopback written in dotted hex", "http://0x7f.0.0.1/"],
    ["IPv4 loopback written in octal", "http://0177.0.0.1/"],
    ["IPv4 loopback written short", "http://127.1/"],
    ["private 10/8", "http://10.1.2.3/"],
    ["private 172.16/12, low end", "http://172.16.0.1/"],
    ["private 172.16/12, high end", "http://172.31.255.255/"],
    ["private 192.168/16", "http://192.168.1.1/"],
    ["link-local (cloud metadata)", "http://169.254.169.254/latest/meta-data/"],
    ["carrier-grade NAT", "http://100.64.0.1/"],
    ["this network", "http://0.0.0.0/"],
    ["multicast", "http://224.0.0.1/"],
    ["broadcast", "http://255.255.255.255/"],
    ["documentation range", "http://192.0.2.10/"],
    ["IPv6 loopback", "http://[::1]/"],
    ["IPv6 loopback written long", "http://[0:0:0:0:0:0:0:1]/"],
    ["IPv6 unspecified", "http://[::]/"],
    ["IPv6 unique local", "http://[fd12:3456:789a::1]/"],
    ["IPv6 link-local", "http://[fe80::1]/"],
    ["IPv6 multicast", "http://[ff02::1]/"],
    ["IPv4-mapped IPv6 of loopback", "http://[::ffff:127.0.0.1]/"],
    ["IPv4-mapped IPv6 of a private address, in hex", "http://[::ffff:a00:1]/"],
    ["NAT64 of a private address", "http://[64:ff9b::10.0.0.1]/"],
    ["6to4 of a private address", "http://[2002:c0a8:0101::1]/"],
    ["localhost", "http://localhost/"],
    ["localhost with a trailing dot", "http://localhost./"],
    ["a name under localhost", "http://api.localhost/"],
    ["mDNS .local", "http://printer.local/"],
    ["an .internal name", "http://metadata.google.internal/"],
    ["a home network name", "http://router.home.arpa/"],
    ["a single-label name", "http://intranet/"],
  ])("refuses %s", (_name, address) => {
    expect(isPrivateHost(hostOf(address))).toBe(true);
  });

  it.each([
    ["a public name", "https://www.example.com/"],
    ["a public IPv4 address", "http://93.184.216.34/"],
    ["172.32, just past the private 172.16/12", "http://172.32.0.1/"],
    ["a public IPv6 address", "http://[2606:4700::6810:85e5]/"],
    ["IPv4-mapped IPv6 of a public address", "http://[::ffff:8.8.8.8]/"],
    ["an internationalised name", "https://bücher.example/"],
    ["a name that merely contains local", "https://localfoods.example/"],
  ])("allows %s", (_name, address) => {
    expect(isPrivateHost(hostOf(address))).toBe(false);
  });
});

describe("ipv6Groups", () => {
  it.each([
    ["::1", [0, 0, 0, 0, 0, 0, 0, 1]],
    ["[fe80::1]", [0xfe80, 0, 0, 0, 0, 0, 0, 1]],
    ["2001:db8::8:800:200c:417a", [0x2001, 0xdb8, 0, 0, 0x8, 0x800, 0x200c, 0x417a]],
    ["::ffff:192.168.1.1", [0, 0, 0, 0, 0, 0xffff, 0xc0a8, 0x0101]],
    ["fe80::1%eth0", [0xfe80, 0, 0, 0, 0, 0, 0, 1]],
  ])("reads %s", (address, groups) => {
    expect(ipv6Groups(address)).toEqual(groups);
  });

  it.each(["1::2::3", "12345::", "1:2:3:4:5:6:7", "1:2:3:4:5:6:7:8:9", "::ffff:300.1.1.1", "g::1"])("refuses %s", (address) => {
    expect(ipv6Groups(address)).toBeNull();
  });
});

describe("normaliseWebAddress", () => {
  it.each([
    ["  https://Shop.Example/Page?q=1#reviews  ", "https://shop.example/Page?q=1"],
    ["http://shop.example:80/a", "http://shop.example/a"],
    ["https://shop.example:443/a", "https://shop.example/a"],
    ["https://shop.example./a", "https://shop.example/a"],
    ["https://shop.example", "https://shop.example/"],
    ["https://bücher.example/", "https://xn--bcher-kva.example/"],
    ["https://shop.example/a b", "https://shop.example/a%20b"],
  ])("normalises %s", (input, expected) => {
    const normal = normaliseWebAddress(input);
    expect("url" in normal && normal.url.href).toBe(expected);
  });

  it.each([
    ["no scheme", "shop.example/page", "builder:validation.linkScheme"],
    ["ftp", "ftp://shop.example/file", "builder:validation.linkScheme"],
    ["javascript", "javascript:alert(1)", "builder:validation.linkScheme"],
    ["data", "data:text/html,<p>hi</p>", "builder:validation.linkScheme"],
    ["nothing", "", "builder:validation.linkScheme"],
    ["a user name and password", "https://user:secret@shop.example/", "builder:validation.addressPrivate"],
    ["a loopback address in decimal", "http://2130706433/", "builder:validation.addressPrivate"],
    ["localhost", "http://localhost/", "builder:validation.addressPrivate"],
    ["a port that is not the scheme's own", "https://shop.example:8443/a", "builder:validation.addressPort"],
    ["a public address on an internal service's port", "http://shop.example:6379/", "builder:validation.addressPort"],
    ["2,049 characters", `https://shop.example/${"a".repeat(2049 - "https://shop.example/".length)}`, "builder:validation.linkTooLong"],
  ])("refuses %s", (_name, input, problem) => {
    expect(normaliseWebAddress(input)).toEqual({ problem });
  });

  it("accepts exactly 2,048 characters", () => {
    const address = `https://shop.example/${"a".repeat(2048 - "https://shop.example/".length)}`;
    expect(address.length).toBe(2048);
    expect("url" in normaliseWebAddress(address)).toBe(true);
  });
});
