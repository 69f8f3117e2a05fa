import { describe, expect, it } from "vitest";
import { amountMicro, curlCommand, examplePayload, readBatch } from "./api-payload.ts";

const NOW = Date.UTC(2026, 10, 28, 12, 0, 0);
const SECONDS = NOW / 1000;
const HASH = "a".repeat(64);

const good = {
  event_name: "checkout",
  action_source: "web",
  event_time: SECONDS - 60,
  event_id: "order-1",
  user_data: { em: [HASH] },
  custom_data: { value: "72.39", currency: "usd", num_items: 2 },
};

describe("reading a conversions API call", () => {
  it("reads a valid event into the shared shape: seconds to milliseconds, the value in micro-units, the currency upper-cased, the first hash", () => {
    const batch = readBatch({ data: [good] }, NOW);
    expect(batch).toEqual({
      ok: true,
      test: false,
      events: [
        {
          index: 0,
          ok: true,
          event: {
            eventName: "checkout",
            eventId: "order-1",
            eventTime: NOW - 60_000,
            isTest: false,
            valueMicro: 72_390_000,
            currency: "USD",
            orderQuantity: 2,
            clickId: null,
            emailSha256: HASH,
          },
        },
      ],
    });
  });

  it("marks every event of a test call as a test", () => {
    const batch = readBatch({ test: true, data: [good] }, NOW);
    expect(batch.ok && batch.events[0]!.ok && batch.events[0]!.event.isTest).toBe(true);
  });

  it("answers each bad event with its index, field and reason, and keeps the good ones", () => {
    const batch = readBatch(
      {
        data: [
          good,
          { ...good, event_name: "purchase", action_source: undefined },
          { ...good, event_time: SECONDS - 8 * 86_400 },
          { ...good, event_time: SECONDS + 3_600, event_id: "" },
          { ...good, user_data: { em: ["someone@example.com"] }, custom_data: { value: "12,50" } },
          { ...good, click_id: "0123" },
          "not an event",
        ],
      },
      NOW,
    );
    if (!batch.ok) throw new Error("batch refused");
    expect(batch.events.map((event) => (event.ok ? "ok" : event.errors.map((error) => `${error.index} ${error.field} ${error.reason}`)))).toEqual([
      "ok",
      ["1 event_name unknown_value", "1 action_source required"],
      ["2 event_time too_old"],
      ["3 event_time in_future", "3 event_id required"],
      ["4 user_data.em.0 not_sha256", "4 custom_data.value not_amount", "4 custom_data.currency currency_required"],
      ["5 click_id not_click_id"],
      ["6  not_object"],
    ]);
  });

  it("refuses a body that is not a batch, names the field, and bounds the batch at 1,000 events", () => {
    expect(readBatch([], NOW)).toEqual({ ok: false, problems: [{ field: "data", reason: "validation.required" }] });
    expect(readBatch({ data: [] }, NOW)).toEqual({ ok: false, problems: [{ field: "data", reason: "validation.required" }] });
    expect(readBatch({ test: "yes", data: [good] }, NOW)).toEqual({ ok: false, problems: [{ field: "test", reason: "validation.invalidType", values: { expected: "boolean" } }] });
    expect(readBatch({ data: Array.from({ length: 1_001 }, () => good) }, NOW)).toEqual({ ok: false, problems: [{ field: "data", reason: "validation.tooBig", values: { maximum: 1000 } }] });
    const full = readBatch({ data: Array.from({ length: 1_000 }, () => good) }, NOW);
    expect(full.ok && full.events.length).toBe(1000);
  });

  it("reads amounts with up to six decimals, as text or number, and nothing else", () => {
    expect([amountMicro("72.39"), amountMicro(5), amountMicro("0.000001"), amountMicro(" 3 ")]).toEqual([72_390_000, 5_000_000, 1, 3_000_000]);
    expect([amountMicro("-1"), amountMicro("1e3"), amountMicro("1.0000001"), amountMicro(-2), amountMicro(null)]).toEqual([null, null, null, null, null]);
  });
});

describe("the payload helper", () => {
  it("builds a body the API accepts from the helper's choices", () => {
    const body = examplePayload({ eventName: "add_to_cart", actionSource: "app_ios", value: "19.99", currency: "EUR", numItems: 3, emailSha256: HASH, test: true }, NOW);
    expect(body).toEqual({
      test: true,
      data: [{ event_name: "add_to_cart", action_source: "app_ios", event_time: SECONDS, event_id: `add_to_cart-${SECONDS}`, user_data: { em: [HASH] }, custom_data: { value: "19.99", currency: "EUR", num_items: 3 } }],
    });
    const batch = readBatch(body, NOW);
    expect(batch.ok && batch.events.every((event) => event.ok)).toBe(true);
  });

  it("leaves out what was not chosen", () => {
    expect(examplePayload({ eventName: "lead", actionSource: "web", value: "", currency: "USD", numItems: null, emailSha256: null, test: false }, NOW)).toEqual({
      data: [{ event_name: "lead", action_source: "web", event_time: SECONDS, event_id: `lead-${SECONDS}` }],
    });
  });

  it("writes the curl command with the token from the environment and the body quoted for the shell", () => {
    expect(curlCommand("https://pinloom.test/v5/ad_accounts/7/events", { data: [{ event_id: "it's" }] })).toBe(
      `curl -X POST 'https://pinloom.test/v5/ad_accounts/7/events' \\\n  -H "Authorization: Bearer $PINLOOM_CONVERSIONS_TOKEN" \\\n  -H 'Content-Type: application/json' \\\n  -d '{"data":[{"event_id":"it'\\''s"}]}'`,
    );
  });
});
