import { describe, expect, it, vi } from "vitest";
import { clientId } from "./report.ts";

describe("clientId", () => {
  it("uses randomUUID without its dashes when present", () => {
    expect(clientId({ randomUUID: () => "12345678-1234-4234-8234-123456789abc", getRandomValues: (a) => a })).toBe("1234567812344234823412345678" + "9abc");
  });

  it("falls back to getRandomValues (never Math.random) without randomUUID", () => {
    const random = vi.spyOn(Math, "random");
    const id = clientId({ getRandomValues: <T extends ArrayBufferView | null>(array: T) => crypto.getRandomValues(array as Uint8Array) as T });
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(random).not.toHaveBeenCalled();
    const fixed = clientId({ getRandomValues: <T extends ArrayBufferView | null>(array: T) => (array as Uint8Array).fill(171) as T });
    expect(fixed).toBe("ab".repeat(16));
    random.mockRestore();
  });
});
