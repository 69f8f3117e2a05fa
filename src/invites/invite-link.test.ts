import { describe, expect, it, vi } from "vitest";
import { INVITE_CREATE_PATH, isSignedIn, pinIdOf, shareLink } from "./invite-link.ts";

const URL_ = "https://pinloom.example/pin/100001/";
const CODE = "AbCdEfGhIjKlMnOpQrStUv";
const created = (data: unknown, status = 200) => new Response(JSON.stringify({ resource_response: { data } }), { status });

describe("shareLink", () => {
  it("mints a copy-link invite (channel 12) with the CSRF header and adds its code", async () => {
    const fetcher = vi.fn<typeof fetch>(async () => created({ code: CODE, invite_channel: 12 }));
    await expect(shareLink(URL_, fetcher, "a=1; csrftoken=abc123; b=2")).resolves.toBe(`${URL_}?invite_code=${CODE}`);
    const [path, init] = fetcher.mock.calls[0]!;
    expect(path).toBe(INVITE_CREATE_PATH);
    expect(init?.method).toBe("POST");
    expect((init?.headers as Record<string, string>)["X-CSRFToken"]).toBe("abc123");
    expect(JSON.parse(String(init?.body))).toEqual({ options: { pin_id: "100001", invite_channel: 12 } });
  });

  it.each([
    ["a 401", async () => created(null, 401)],
    ["a 429", async () => created(null, 429)],
    ["a network failure", () => Promise.reject(new TypeError("offline"))],
    ["an answer without a code", async () => created({})],
    ["a code of the wrong shape", async () => created({ code: "<script>" })],
  ])("falls back to the plain link on %s", async (_name, respond) => {
    await expect(shareLink(URL_, respond as typeof fetch)).resolves.toBe(URL_);
  });

  it("does not call out for a link that is not a pin's", async () => {
    const fetcher = vi.fn<typeof fetch>();
    await expect(shareLink("https://pinloom.example/sam/", fetcher)).resolves.toBe("https://pinloom.example/sam/");
    expect(fetcher).not.toHaveBeenCalled();
  });
});

describe("pinIdOf", () => {
  it.each([
    [URL_, "100001"],
    ["https://pinloom.example/pin/100001", "100001"],
    ["https://pinloom.example/pin/abc/", null],
    ["https://pinloom.example/pin/100001/sent/", null],
    ["not a url", null],
  ])("%s → %s", (url, expected) => {
    expect(pinIdOf(url)).toBe(expected);
  });
});

describe("isSignedIn", () => {
  const doc = (text: string | null) => ({ getElementById: () => (text === null ? null : ({ textContent: text } as HTMLElement)) });
  it.each([
    ['{"loginState":"AUTH"}', true],
    ['{"loginState":"UNAUTH"}', false],
    ['{"loginState":"LIMITED_LOGIN"}', false],
    ["not json", false],
    [null, false],
  ])("%s → %s", (text, expected) => {
    expect(isSignedIn(doc(text))).toBe(expected);
  });
});
