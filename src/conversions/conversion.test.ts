import { describe, expect, it } from "vitest";
import { conversionEventSchema, eventTimeProblem } from "./conversion.ts";

const NOW = Date.UTC(2026, 10, 28, 12, 0, 0);

describe("a conversion event", () => {
  it("takes the spec's event names and fills the optional fields with null", () => {
    expect(conversionEventSchema.parse({ eventName: "checkout", eventId: " order-17 ", eventTime: NOW })).toEqual({
      eventName: "checkout",
      eventId: "order-17",
      eventTime: NOW,
      isTest: false,
      valueMicro: null,
      currency: null,
      orderQuantity: null,
      clickId: null,
      emailSha256: null,
    });
  });

  it("refuses an unknown name, an empty id, a lower-case currency and a click id that is not a 64-bit decimal", () => {
    const fields = (input: object) =>
      conversionEventSchema.safeParse({ eventName: "checkout", eventId: "a", eventTime: NOW, ...input }).error?.issues.map((issue) => issue.path.join("."));
    expect(fields({ eventName: "purchase" })).toEqual(["eventName"]);
    expect(fields({ eventId: "   " })).toEqual(["eventId"]);
    expect(fields({ currency: "usd" })).toEqual(["currency"]);
    expect(fields({ clickId: "012" })).toEqual(["clickId"]);
    expect(fields({ emailSha256: "not-a-hash" })).toEqual(["emailSha256"]);
  });

  it("counts events up to a week old and five minutes ahead of the clock", () => {
    expect(eventTimeProblem(NOW - 7 * 86_400_000, NOW)).toBeNull();
    expect(eventTimeProblem(NOW - 7 * 86_400_000 - 1, NOW)).toBe("too_old");
    expect(eventTimeProblem(NOW + 300_000, NOW)).toBeNull();
    expect(eventTimeProblem(NOW + 300_001, NOW)).toBe("in_future");
  });
});
