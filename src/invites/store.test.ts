import { beforeEach, describe, expect, it, vi } from "vitest";
import type { InviteMetadata } from "./invite.ts";
import { $invite, EMPTY_INVITE, clearInvite, inviteMetadataPath, lookupInvite } from "./store.ts";

const CODE = "demoInviteEmailPin0001";
const metadata: InviteMetadata = {
  sender: { id: "1", should_show_messaging: true, image_medium_url: "/media/users/1/medium.jpg", first_name: "Ava", full_name: "Ava Thompson" },
  invite_channel: 1,
};
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
const ok = () => json(200, { resource_response: { status: "success", code: 0, message: "ok", data: metadata } });

beforeEach(() => clearInvite());

describe("lookupInvite", () => {
  it("asks InviteMetadataResource by invite_code and keeps the metadata", async () => {
    const fetcher = vi.fn<typeof fetch>(async () => ok());
    await expect(lookupInvite(CODE, fetcher)).resolves.toEqual(metadata);
    expect(fetcher).toHaveBeenCalledOnce();
    const url = new URL(String(fetcher.mock.calls[0]![0]), "https://pinloom.test");
    expect(url.pathname).toBe("/resource/InviteMetadataResource/get/");
    expect(JSON.parse(url.searchParams.get("data")!)).toEqual({ options: { invite_code: CODE } });
    expect($invite.get()).toEqual({ code: CODE, fetching: false, data: metadata, error: null });
  });

  it("is fetching while the call is out, with no data", async () => {
    let release!: (response: Response) => void;
    const pending = lookupInvite(CODE, () => new Promise((resolve) => (release = resolve)));
    expect($invite.get()).toEqual({ code: CODE, fetching: true, data: null, error: null });
    release(ok());
    await pending;
    expect($invite.get().fetching).toBe(false);
  });

  const failures: Array<[string, () => Promise<Response>, number | null]> = [
    ["a 404 (unknown, expired or hidden)", async () => json(404, { resource_response: { status: "failure" } }), 404],
    ["a 429 (throttled)", async () => json(429, {}), 429],
    ["a 500", async () => json(500, {}), 500],
    ["a network failure", () => Promise.reject(new TypeError("offline")), null],
    ["a malformed answer", async () => json(200, { resource_response: { data: { sender: "Ava" } } }), null],
    ["a body that is not JSON", async () => new Response("<html>", { status: 200 }), null],
  ];
  it.each(failures)("clears the invite data on %s (spec 000 §8)", async (_name, respond, status) => {
    await lookupInvite(CODE, async () => ok());
    expect($invite.get().data).not.toBeNull();
    await expect(lookupInvite(CODE, respond)).resolves.toBeNull();
    expect($invite.get()).toEqual({ code: CODE, fetching: false, data: null, error: { status } });
  });

  it("never sends a code that is not of our shape", async () => {
    const fetcher = vi.fn<typeof fetch>(async () => ok());
    await expect(lookupInvite("x'; DROP TABLE invites;--", fetcher)).resolves.toBeNull();
    expect(fetcher).not.toHaveBeenCalled();
    expect($invite.get().data).toBeNull();
  });

  it("encodes the code into the query", () => {
    expect(inviteMetadataPath(CODE)).toBe(`/resource/InviteMetadataResource/get/?data=${encodeURIComponent(`{"options":{"invite_code":"${CODE}"}}`)}`);
  });

  it("clearInvite forgets everything", async () => {
    await lookupInvite(CODE, async () => ok());
    clearInvite();
    expect($invite.get()).toEqual(EMPTY_INVITE);
  });
});

