import { describe, expect, it } from "vitest";
import { EVENTS_ENDPOINT, eventHeaders } from "./page-events.ts";

describe("the events module's request", () => {
  it("carries the spec 000 §7 headers: JSON, the CSRF cookie echoed, XHR, source URL and app state", () => {
    expect(eventHeaders("a=1; csrftoken=abc%2F; b=2", "background", "https://pinloom.test/pin/1/?x=2")).toEqual({
      Accept: "application/json",
      "Content-Type": "application/json",
      "X-CSRFToken": "abc/",
      "X-Requested-With": "XMLHttpRequest",
      "X-Pinloom-Source-Url": "/pin/1/?x=2",
      "X-Pinloom-App-State": "background",
    });
    expect(EVENTS_ENDPOINT).toBe("/resource/ApiCResource/create/");
  });
});
