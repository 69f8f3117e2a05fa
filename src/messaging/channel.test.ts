import { describe, expect, it } from "vitest";
import { channelSocketUrl, parseCountsFrame } from "./channel.ts";

describe("the person's channel", () => {
  it("is reached over wss on https and ws on http, at the person's own path", () => {
    expect(channelSocketUrl("https://pinloom.example", "42")).toBe("wss://pinloom.example/v3/channel/42/socket/");
    expect(channelSocketUrl("http://localhost:8787", "42")).toBe("ws://localhost:8787/v3/channel/42/socket/");
  });

  it("takes a counts frame and nothing else", () => {
    expect(parseCountsFrame('{"type":"counts","conversations_unseen_count":2,"news_hub_unseen_count":5}')).toEqual({ type: "counts", conversations_unseen_count: 2, news_hub_unseen_count: 5 });
    expect(parseCountsFrame('{"type":"counts","conversations_unseen_count":-1,"news_hub_unseen_count":5}')).toBeNull();
    expect(parseCountsFrame('{"type":"messages","messages":[]}')).toBeNull();
    expect(parseCountsFrame("not json")).toBeNull();
    expect(parseCountsFrame(new ArrayBuffer(4))).toBeNull();
  });
});
