import { describe, expect, it } from "vitest";
import { deviceOf } from "~/shell/shell.ts";
import {
  INVITE_CHANNEL_IDS,
  NO_POPOVER_CHANNELS,
  inviteCodeFromSearch,
  inviteDisplay,
  isDesktopViewer,
  isInviteChannel,
  parseInviteMetadata,
  withInviteCode,
  type InviteDisplay,
  type InviteDisplayInput,
  type InviteMetadata,
  type ViewerType,
} from "./invite.ts";

const invite = (channel: number, sender: Partial<InviteMetadata["sender"]> = {}): InviteMetadata => ({
  sender: { id: "7", should_show_messaging: true, image_medium_url: "/media/users/7/medium.jpg", first_name: "Sam", full_name: "Sam Okafor", ...sender },
  invite_channel: channel,
});

describe("inviteDisplay (spec 000 §6)", () => {
  type Row = [string, Omit<InviteDisplayInput, "invite"> & { invite: InviteMetadata | null }, InviteDisplay];
  const signedIn = (over: Partial<InviteDisplayInput> = {}) => ({ viewerType: "AUTH" as ViewerType, isDesktop: true, viewerId: "1", viewerShowsMessaging: true, invite: invite(1), ...over });
  const signedOut = (over: Partial<InviteDisplayInput> = {}) => ({ viewerType: "UNAUTH" as ViewerType, isDesktop: true, viewerId: null, viewerShowsMessaging: false, invite: invite(1), ...over });
  const rows: Row[] = [
    ["no invite: nothing, signed in", signedIn({ invite: null }), null],
    ["no invite: nothing, signed out", signedOut({ invite: null }), null],
    ["signed in, another sender, both messaging: toast", signedIn(), "toast"],
    ["signed in on a phone: toast too", signedIn({ isDesktop: false }), "toast"],
    ["signed in, channel 12 does not matter for the toast", signedIn({ invite: invite(12) }), "toast"],
    ["signed in, the viewer is the inviter: nothing", signedIn({ viewerId: "7" }), null],
    ["signed in, viewer without messaging: nothing", signedIn({ viewerShowsMessaging: false }), null],
    ["signed in, sender without messaging: nothing", signedIn({ invite: invite(1, { should_show_messaging: false }) }), null],
    ["signed in, neither has messaging: nothing", signedIn({ viewerShowsMessaging: false, invite: invite(1, { should_show_messaging: false }) }), null],
    ["signed in without a viewer id: nothing", signedIn({ viewerId: null }), null],
    ["signed out desktop, channel 1: popover", signedOut(), "popover"],
    ["signed out desktop, sender without messaging: popover all the same", signedOut({ invite: invite(3, { should_show_messaging: false }) }), "popover"],
    ["signed out desktop, channel 5: nothing", signedOut({ invite: invite(5) }), null],
    ["signed out desktop, channel 9: nothing", signedOut({ invite: invite(9) }), null],
    ["signed out desktop, channel 12: nothing", signedOut({ invite: invite(12) }), null],
    ["signed out desktop, channel 16: nothing", signedOut({ invite: invite(16) }), null],
    ["signed out phone or tablet: nothing", signedOut({ isDesktop: false }), null],
    ["limited login on desktop: nothing", signedOut({ viewerType: "LIMITED_LOGIN" }), null],
    ["limited login, messaging on both: no toast", signedIn({ viewerType: "LIMITED_LOGIN" }), null],
  ];
  it.each(rows)("%s", (_name, input, expected) => {
    expect(inviteDisplay(input)).toBe(expected);
  });

  it("gives the popover for every documented channel but 5, 9, 12 and 16", () => {
    const popover = INVITE_CHANNEL_IDS.filter((channel) => inviteDisplay(signedOut({ invite: invite(channel) })) === "popover");
    expect(INVITE_CHANNEL_IDS.filter((channel) => !popover.includes(channel))).toEqual([5, 9, 12, 16]);
    expect([...NO_POPOVER_CHANNELS].sort((a, b) => a - b)).toEqual([5, 9, 12, 16]);
  });
});

describe("invite channels", () => {
  it("are 1 to 16 with 12 as copy link", () => {
    expect(INVITE_CHANNEL_IDS).toEqual(Array.from({ length: 16 }, (_, index) => index + 1));
    expect(isInviteChannel(12)).toBe(true);
    for (const value of [0, 17, -1, 1.5, "12", null]) expect(isInviteChannel(value), String(value)).toBe(false);
  });
});

describe("isDesktopViewer", () => {
  it("agrees with the app shell's device rule at every width and user agent", () => {
    const agents = [undefined, {}, { isMobile: true }, { isTablet: true }];
    for (const ua of agents) {
      for (const width of [320, 639, 767, 768, 1023, 1024, 1280, 1920]) {
        expect(isDesktopViewer(width, ua), `${width} ${JSON.stringify(ua)}`).toBe(deviceOf(width, ua) === "desktop");
      }
    }
  });
});

describe("parseInviteMetadata", () => {
  it("keeps exactly the spec's fields", () => {
    const extra = { ...invite(1), sender: { ...invite(1).sender, email: "sam@pinloom.example", username: "sam" }, board: { name: "x" } };
    expect(parseInviteMetadata(extra)).toEqual(invite(1));
  });

  it.each([
    ["null", null],
    ["a string", "invite"],
    ["no sender", { invite_channel: 1 }],
    ["no channel", { sender: invite(1).sender }],
    ["a numeric sender id", { ...invite(1), sender: { ...invite(1).sender, id: 7 } }],
    ["an off-site avatar", { ...invite(1), sender: { ...invite(1).sender, image_medium_url: "https://evil.example/a.jpg" } }],
    ["a protocol-relative avatar", { ...invite(1), sender: { ...invite(1).sender, image_medium_url: "//evil.example/a.jpg" } }],
    ["a javascript avatar", { ...invite(1), sender: { ...invite(1).sender, image_medium_url: "javascript:alert(1)" } }],
  ])("refuses %s", (_name, value) => {
    expect(parseInviteMetadata(value)).toBeNull();
  });

  it("accepts a sender without an avatar", () => {
    expect(parseInviteMetadata(invite(1, { image_medium_url: null }))?.sender.image_medium_url).toBeNull();
  });
});

describe("invite codes in URLs", () => {
  it.each([
    ["?invite_code=demoInviteEmailPin0001", "demoInviteEmailPin0001"],
    ["?utm_campaign=x&invite_code=demoInviteEmailPin0001", "demoInviteEmailPin0001"],
    ["?invite_code=short", null],
    ["?invite_code=" + "a".repeat(23), null],
    ["?invite_code=" + "a".repeat(65), null],
    ["?invite_code=demoInviteEmailPin000%27", null],
    ["?invite_code=", null],
    ["", null],
  ])("%s → %s", (search, expected) => {
    expect(inviteCodeFromSearch(search)).toBe(expected);
  });

  it("adds the code to a pin link, keeping its other parameters", () => {
    expect(withInviteCode("https://pinloom.example/pin/100001/", "demoInviteEmailPin0001")).toBe("https://pinloom.example/pin/100001/?invite_code=demoInviteEmailPin0001");
    expect(withInviteCode("https://pinloom.example/pin/1/?locale=fr&invite_code=old", "abc")).toBe("https://pinloom.example/pin/1/?locale=fr&invite_code=abc");
  });
});
