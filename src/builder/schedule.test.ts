import { describe, expect, it } from "vitest";
import { scheduleProblems, zonedTimeToUtc } from "./schedule.ts";

describe("a chosen date and time in the person's time zone", () => {
  it.each([
    ["Paris in winter (UTC+1)", "2026-12-01", "09:00", "Europe/Paris", "2026-12-01T08:00:00Z"],
    ["Paris in summer (UTC+2)", "2026-07-01", "09:00", "Europe/Paris", "2026-07-01T07:00:00Z"],
    ["New York in summer (UTC-4)", "2026-07-01", "09:00", "America/New_York", "2026-07-01T13:00:00Z"],
    ["Kolkata, a half-hour zone (UTC+5:30)", "2026-12-01", "00:15", "Asia/Kolkata", "2026-11-30T18:45:00Z"],
    ["Auckland crossing the date line backwards (UTC+13)", "2026-12-25", "08:00", "Pacific/Auckland", "2026-12-24T19:00:00Z"],
    ["UTC itself", "2026-12-01", "23:59", "UTC", "2026-12-01T23:59:00Z"],
    ["a time the spring-forward skips is placed after the change", "2026-03-29", "02:30", "Europe/Paris", "2026-03-29T01:30:00Z"],
    ["a time the fall-back repeats takes its first occurrence", "2026-10-25", "02:30", "Europe/Paris", "2026-10-25T00:30:00Z"],
  ])("%s", (_, date, time, zone, expected) => {
    expect(new Date(zonedTimeToUtc(date, time, zone)).toISOString()).toBe(new Date(expected).toISOString());
  });
});

describe("the window a schedule must fall in", () => {
  const now = Date.parse("2026-11-27T12:00:00Z");
  const at = (date: string, time: string) => ({ scheduledDate: date, scheduledTime: time, timeZone: "UTC" });

  it("asks for each missing part by its own field", () => {
    expect(scheduleProblems({ scheduledDate: null, scheduledTime: null, timeZone: null }, now).map((problem) => problem.field)).toEqual(["scheduledDate", "scheduledTime", "timeZone"]);
  });

  it.each([
    ["9 minutes ahead is too soon", "2026-11-27", "12:09", [{ field: "scheduledTime", reason: "builder:validation.scheduleTooSoon", values: { minutes: 10 } }]],
    ["10 minutes ahead is allowed", "2026-11-27", "12:10", []],
    ["a time already past is too soon", "2026-11-26", "12:00", [{ field: "scheduledTime", reason: "builder:validation.scheduleTooSoon", values: { minutes: 10 } }]],
    ["30 days ahead is allowed", "2026-12-27", "12:00", []],
    ["30 days and a minute ahead is too far", "2026-12-27", "12:01", [{ field: "scheduledDate", reason: "builder:validation.scheduleTooFar", values: { days: 30 } }]],
  ])("%s", (_, date, time, expected) => {
    expect(scheduleProblems(at(date, time), now)).toEqual(expected);
  });
});
