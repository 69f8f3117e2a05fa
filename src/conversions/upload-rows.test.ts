import { describe, expect, it } from "vitest";
import { checkOfflineFile, checkPcaFile, parseEventTime, uploadTemplate } from "./upload-rows.ts";

const NOW = Date.UTC(2026, 10, 28, 12, 0, 0);
const HASH = "B".repeat(64);

describe("an offline conversions file", () => {
  it("reads good rows: the time as UTC, the amount in micro-units, addresses trimmed and lower-cased, hashes lower-cased", () => {
    const file = [
      "event_name,event_id,event_time,email,email_sha256,value,currency,quantity,click_id",
      "checkout,order-1,2026-11-27T14:30:00Z, Ana@Example.COM ,,42.50,eur,2,",
      "lead,lead-9,2026-11-28 09:15,,BBBB" + "B".repeat(60) + ",,,,123",
    ].join("\r\n");
    expect(checkOfflineFile(file, NOW)).toEqual({
      ok: true,
      rows: [
        { row: 2, eventName: "checkout", eventId: "order-1", eventTime: Date.UTC(2026, 10, 27, 14, 30), valueMicro: 42_500_000, currency: "EUR", orderQuantity: 2, clickId: null, person: { email: "ana@example.com" } },
        { row: 3, eventName: "lead", eventId: "lead-9", eventTime: Date.UTC(2026, 10, 28, 9, 15), valueMicro: null, currency: null, orderQuantity: null, clickId: "123", person: { sha256: "b".repeat(64) } },
      ],
    });
  });

  it("names each bad cell's row, column and code, and keeps no rows", () => {
    const file = [
      "event_name,event_id,event_time,email,value,currency,quantity",
      "checkout,order-1,2026-11-27T14:30:00Z,,10,USD,1",
      "purchase,,yesterday,not-an-address,ten,,x",
      "signup,s-1,2026-11-01T00:00:00Z,,5,US,",
      "lead,l-1,2026-11-29T00:00:00Z,,,,",
    ].join("\n");
    expect(checkOfflineFile(file, NOW)).toEqual({
      ok: false,
      rows: 4,
      errors: [
        { row: 3, column: "event_name", code: "UNKNOWN_EVENT_NAME" },
        { row: 3, column: "event_id", code: "REQUIRED" },
        { row: 3, column: "event_time", code: "BAD_TIME" },
        { row: 3, column: "value", code: "BAD_AMOUNT" },
        { row: 3, column: "currency", code: "CURRENCY_REQUIRED" },
        { row: 3, column: "quantity", code: "BAD_QUANTITY" },
        { row: 3, column: "email", code: "BAD_EMAIL" },
        { row: 4, column: "event_time", code: "TOO_OLD" },
        { row: 4, column: "currency", code: "BAD_CURRENCY" },
        { row: 5, column: "event_time", code: "IN_FUTURE" },
      ],
    });
  });

  it("refuses unknown and missing columns on the header's row, and a file without rows", () => {
    expect(checkOfflineFile("event_name,event_id,colour\n", NOW)).toEqual({
      ok: false,
      rows: 0,
      errors: [
        { row: 1, column: "colour", code: "UNKNOWN_COLUMN" },
        { row: 1, column: "event_time", code: "MISSING_COLUMN" },
        { row: 0, column: "", code: "NO_ROWS" },
      ],
    });
    expect(checkOfflineFile("", NOW)).toEqual({ ok: false, rows: 0, errors: [{ row: 0, column: "", code: "FILE_EMPTY" }] });
  });

  it("bounds the file at 5,000 rows", () => {
    const rows = Array.from({ length: 5_001 }, (_, at) => `checkout,o-${at},2026-11-27T10:00:00Z`);
    expect(checkOfflineFile(["event_name,event_id,event_time", ...rows].join("\n"), NOW)).toEqual({ ok: false, rows: 5001, errors: [{ row: 0, column: "", code: "TOO_MANY_ROWS" }] });
  });

  it("reads times as ISO 8601 with or without a zone, or epoch seconds", () => {
    expect(parseEventTime("2026-11-27T14:30:00+02:00")).toBe(Date.UTC(2026, 10, 27, 12, 30));
    expect(parseEventTime("1795000000")).toBe(1_795_000_000_000);
    expect([parseEventTime("27/11/2026"), parseEventTime("2026-13-01T00:00")]).toEqual([null, null]);
  });

  it("offers a template whose example row is itself a valid file", () => {
    const template = uploadTemplate("offline", NOW);
    expect(template.startsWith("\uFEFFevent_name,event_id,event_time,email,email_sha256,value,currency,quantity,click_id\r\n")).toBe(true);
    expect(checkOfflineFile(template, NOW).ok).toBe(true);
  });
});

describe("a PCA list", () => {
  it("reads one person per row by address or hash", () => {
    expect(checkPcaFile(`email,email_sha256\nana@example.com,\n,${HASH}\n`)).toEqual({
      ok: true,
      rows: [
        { row: 2, person: { email: "ana@example.com" } },
        { row: 3, person: { sha256: "b".repeat(64) } },
      ],
    });
  });

  it("skips blank rows, refuses a bad hash on its row, and a file with neither column", () => {
    expect(checkPcaFile("email,email_sha256\n,\n,xyz\nok@example.com,\n")).toEqual({
      ok: false,
      rows: 2,
      errors: [{ row: 3, column: "email_sha256", code: "BAD_SHA256" }],
    });
    expect(checkPcaFile("name\nAna\n")).toEqual({
      ok: false,
      rows: 1,
      errors: [
        { row: 1, column: "name", code: "UNKNOWN_COLUMN" },
        { row: 1, column: "email", code: "MISSING_COLUMN" },
      ],
    });
  });
});
