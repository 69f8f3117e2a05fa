import { describe, expect, it } from "vitest";
import { notificationUpdateSchema, optionsOf, readNotificationGroup } from "./news.ts";
import { newsText, newsUrl } from "./news-text.ts";
import { badgeText } from "./news-view.ts";

const ALL_ON = { saves: true, follows: true, comments: true, mentions: true, messages: true, board_invites: true, scheduled_pins: true };

describe("notification settings", () => {
  it.each([
    ["nothing", null],
    ["a list", []],
    ["text", "off"],
  ])("%s stored reads as everything on", (_name, stored) => {
    expect(readNotificationGroup(stored)).toEqual(ALL_ON);
  });

  it("keeps stored booleans and defaults anything else, field by field", () => {
    expect(readNotificationGroup({ saves: false, follows: "no", mentions: 0 })).toEqual({ ...ALL_ON, saves: false });
  });

  it("lists the options in a fixed order", () => {
    expect(optionsOf({ ...ALL_ON, messages: false }).map((option) => `${option.key}=${option.enabled}`)).toEqual([
      "saves=true",
      "follows=true",
      "comments=true",
      "mentions=true",
      "messages=false",
      "board_invites=true",
      "scheduled_pins=true",
    ]);
  });

  it("accepts any of the keys as booleans (forms send them as text) and nothing else", () => {
    expect(notificationUpdateSchema.parse({ saves: "false", follows: true })).toEqual({ saves: false, follows: true });
    expect(notificationUpdateSchema.safeParse({}).success).toBe(false);
    expect(notificationUpdateSchema.safeParse({ saves: "maybe" }).success).toBe(false);
    expect(notificationUpdateSchema.safeParse({ sparkles: true }).success).toBe(false);
  });
});

describe("the bell's badge", () => {
  it.each([
    [0, ""],
    [-3, ""],
    [1, "1"],
    [99, "99"],
    [100, "99+"],
    [Number.NaN, ""],
  ])("%s unseen reads %j", (count, shown) => {
    expect(badgeText(count)).toBe(shown);
  });
});

describe("an item's sentence and link", () => {
  const t = (key: string, values: Record<string, string> = {}) => `${key}(${Object.entries(values).map(([name, value]) => `${name}=${value}`).join(",")})`;
  const actor = { id: "7", username: "sam", full_name: "Sam Okafor", image_medium_url: null };

  it("names the actor by full name, or someone when they may not be shown", () => {
    expect(newsText({ type: "save", actor, board: null, comment: null }, t)).toBe("news:item.save(actor=Sam Okafor)");
    expect(newsText({ type: "save", actor: null, board: null, comment: null }, t)).toBe("news:item.save(actor=news:item.someone())");
  });

  it("names the board only when the item carries it", () => {
    expect(newsText({ type: "save", actor, board: { id: "1", name: "Dinners", url: null }, comment: null }, t)).toBe("news:item.saveToBoard(actor=Sam Okafor,board=Dinners)");
    expect(newsText({ type: "board_invite", actor, board: null, comment: null }, t)).toBe("news:item.inviteUnnamed(actor=Sam Okafor)");
  });

  it("tells a mention in a comment with the comment, and one on a story pin's sticker without", () => {
    expect(newsText({ type: "mention", actor, board: null, comment: { id: "3", text: "look" } }, t)).toBe("news:item.mention(actor=Sam Okafor,comment=look)");
    expect(newsText({ type: "mention", actor, board: null, comment: null }, t)).toBe("news:item.storyMention(actor=Sam Okafor)");
  });

  it("leads to the pin, else the board, else the follower", () => {
    expect(newsUrl({ type: "comment", actor, board: null, pin: { id: "5", title: "", image_url: null } })).toBe("/pin/5/");
    expect(newsUrl({ type: "follow", actor, board: { id: "1", name: "Dinners", url: "/demo/dinners/" }, pin: null })).toBe("/demo/dinners/");
    expect(newsUrl({ type: "follow", actor, board: null, pin: null })).toBe("/sam/");
    expect(newsUrl({ type: "follow", actor: null, board: null, pin: null })).toBeNull();
  });
});
