import { describe, expect, it } from "vitest";
import { emailOf, readTagEvent } from "./tag.ts";
import { conversionHealth, healthDays } from "./tag-health.ts";

const NOW = Date.UTC(2026, 10, 28, 12, 0, 0);

describe("a conversion tag event", () => {
  it("is read into the shared shape, its value in micro-units and its time the server's", () => {
    const read = readTagEvent({ event_name: "checkout", event_id: "order-17", value: 12.5, currency: "usd", order_quantity: 2, click_id: "18446744073709551615", is_test: true }, 0, NOW);
    expect(read).toEqual({
      ok: true,
      email: null,
      event: {
        eventName: "checkout",
        eventId: "order-17",
        eventTime: NOW,
        isTest: true,
        valueMicro: 12_500_000,
        currency: "USD",
        orderQuantity: 2,
        clickId: "18446744073709551615",
        emailSha256: null,
      },
    });
  });

  it("names each bad field under its place in the batch", () => {
    const fields = (input: object, index = 0) => {
      const read = readTagEvent(input, index, NOW);
      return read.ok ? [] : read.problems.map((problem) => `${problem.field} ${problem.reason}`);
    };
    expect(fields({ event_name: "purchase", event_id: "a" }, 3)).toEqual(["events.3.event_name validation.invalidValue"]);
    expect(fields({ event_name: "lead" })).toEqual(["events.0.event_id validation.required"]);
    expect(fields({ event_name: "lead", event_id: "a", value: -1 })).toEqual(["events.0.value validation.tooSmall"]);
    expect(fields({ event_name: "lead", event_id: "a", click_id: "012" })).toEqual(["events.0.click_id validation.invalidFormat"]);
    expect(fields({ event_name: "lead", event_id: "a", colour: "red" })).toEqual(["events.0.colour validation.unknownKey"]);
    expect(fields({ event_name: "lead", event_id: "a", em: "not an address" })).toEqual(["events.0.em validation.invalidFormat"]);
  });

  it("takes a hashed address as it is and an address in the clear for hashing", () => {
    expect(emailOf("B5FC85E55755F9E0D030A10AB4429B6B2944855F9A0D60077FE832BECBC41D72")).toEqual({ hash: "b5fc85e55755f9e0d030a10ab4429b6b2944855f9a0d60077fe832becbc41d72" });
    expect(emailOf("ada@example.com")).toEqual({ address: "ada@example.com" });
    expect(emailOf(undefined)).toBeNull();
    expect(emailOf("ada")).toBe("invalid");
  });
});

describe("conversion health", () => {
  it("counts each event name per day with the shares matched and clicked", () => {
    const days = healthDays(NOW);
    expect(days).toEqual(["2026-11-22", "2026-11-23", "2026-11-24", "2026-11-25", "2026-11-26", "2026-11-27", "2026-11-28"]);
    const lines = conversionHealth(
      [
        { day: "2026-11-27", event_name: "checkout", n: 3, matched: 1, clicked: 2 },
        { day: "2026-11-28", event_name: "checkout", n: 1, matched: 1, clicked: 0 },
        { day: "2026-11-28", event_name: "lead", n: 2, matched: 0, clicked: 0 },
      ],
      days,
      ["page_visit", "checkout", "lead"],
    );
    expect(lines).toEqual([
      { eventName: "checkout", perDay: [0, 0, 0, 0, 0, 3, 1], total: 4, matchedShare: 0.5, clickShare: 0.5 },
      { eventName: "lead", perDay: [0, 0, 0, 0, 0, 0, 2], total: 2, matchedShare: 0, clickShare: 0 },
    ]);
  });
});
