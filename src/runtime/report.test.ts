import { describe, expect, it, vi } from "vitest";
import { clientId } from "./report.ts";

describe("clientId", () => {
  it("uses randomUUID without its dashes when present", () => {
    expect(clientId({ randomUUID: () => "12345678-1234-4234-8234-123456789abc", getRandomValues: (a) => a })).toBe("1234567812344234823412345678" + "9abc");
  });

  it("falls back to getRandomValues (never Math.random) without randomUUID", () => {
    const random = vi.spyOn(Math, "random");
    const id = clientId({ getRandomValues: (array) => crypto.getRandomValues(array) });
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(random).not.toHaveBeenCalled();
    const fixed = clientId({ getRandomValues: (array) => (array instanceof Uint8Array && array.fill(171), array) });
    expect(fixed).toBe("ab".repeat(16));
    random.mockRestore();
  });
});
