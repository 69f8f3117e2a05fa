import { describe, expect, it } from "vitest";
import { deliveryFor } from "./delivery.ts";

describe("where a first message lands", () => {
  it.each([
    ["off refuses even someone they follow", { from: "off", contact_requests: true }, true, "refused"],
    ["off refuses strangers", { from: "off", contact_requests: false }, false, "refused"],
    ["someone they follow goes to the inbox", { from: "following", contact_requests: true }, true, "active"],
    ["a stranger is a contact request while requests are on", { from: "following", contact_requests: true }, false, "request"],
    ["a stranger is a contact request even when anyone may write", { from: "anyone", contact_requests: true }, false, "request"],
    ["with requests off, anyone means straight in", { from: "anyone", contact_requests: false }, false, "active"],
    ["with requests off, following refuses a stranger", { from: "following", contact_requests: false }, false, "refused"],
  ] as const)("%s", (_name, settings, follows, expected) => {
    expect(deliveryFor(settings, follows)).toBe(expected);
  });
});
