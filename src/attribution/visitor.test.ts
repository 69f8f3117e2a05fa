import { describe, expect, it } from "vitest";
import { visitorKey } from "./visitor.ts";

describe("a signed-out browser's view key", () => {
  it("is the device cookie's hash when the browser has one (SHA-256 of 'device-one', by sha256sum)", async () => {
    expect(await visitorKey("device-one", "203.0.113.1")).toBe("d0588a13419dda265b9ac863155dd3d73");
  });

  it("is the address without a device cookie", async () => {
    expect(await visitorKey(null, "2001:db8:1:2::/64")).toBe("a2001:db8:1:2::/64");
  });
});
