// A signed-out page held fresh in the page cache is answered before the request context, CSRF
// and session middleware (src/app.ts, src/server/page-cache.ts). These tests hold that early
// answer to the full path's, byte for byte, and keep every request that carries a session
// cookie off it.
import { beforeAll, describe, expect, it } from "vitest";
import { createSession } from "./session-fixture.ts";
import { BROWSER_UA, fetchWorker, get, seedWorld } from "./fixtures.ts";

beforeAll(async () => {
  await seedWorld([
    { id: 201, title: "Saffron buns" },
    { id: 202, title: "Rhubarb fool" },
    { id: 203, title: "Quince paste" },
  ]);
});

const TOKEN = "c".repeat(64);
const RAY = "8f00early0ray";
const cacheStatus = (response: Response) => response.headers.get("x-pinloom-cache");

/** Asks until the page is a fresh hit (its store runs after the first answer), bounded. */
async function warm(path: string): Promise<void> {
  for (let attempt = 0; attempt < 40; attempt++) {
    const response = await get(path, { cookie: `csrftoken=${TOKEN}` });
    await response.arrayBuffer();
    if (cacheStatus(response) === "HIT") return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${path} never became a cache hit`);
}

/** Every header as `name: value` lines, sorted, Set-Cookie lines one each. */
function headerLines(response: Response, leaveOut: (line: string) => boolean = () => false): string[] {
  const lines: string[] = [];
  for (const [name, value] of response.headers) if (name !== "set-cookie") lines.push(`${name}: ${value}`);
  for (const cookie of response.headers.getSetCookie()) lines.push(`set-cookie: ${cookie}`);
  return lines.filter((line) => !leaveOut(line)).sort();
}

describe("a cached page is answered before the middleware", () => {
  it("answers exactly what the full path answers: status, every header and every byte", async () => {
    await warm("/pin/201/");
    const early = await get("/pin/201/", { "cf-ray": RAY, cookie: `csrftoken=${TOKEN}` });
    // A cookie that may name a session sends the request down the full path; this one names
    // none (it is not a token), so the full path answers it from the same cache entry, and
    // adds one thing of its own: it clears the cookie that named no session.
    const full = await get("/pin/201/", { "cf-ray": RAY, cookie: `csrftoken=${TOKEN}; __Host-pinloom_sess=not-a-token` });
    expect(early.status).toBe(200);
    expect(full.status).toBe(200);
    expect(cacheStatus(early)).toBe("HIT");
    expect(cacheStatus(full)).toBe("HIT");
    expect(full.headers.getSetCookie()).toEqual(["__Host-pinloom_sess=; Path=/; Max-Age=0; Secure; SameSite=Lax; HttpOnly"]);
    expect(headerLines(early)).toEqual(headerLines(full, (line) => line.startsWith("set-cookie: __Host-pinloom_sess=")));
    expect(early.headers.get("x-request-id")).toBe(RAY);
    const [earlyBytes, fullBytes] = [new Uint8Array(await early.arrayBuffer()), new Uint8Array(await full.arrayBuffer())];
    expect(earlyBytes.byteLength).toBeGreaterThan(1000);
    expect(earlyBytes).toEqual(fullBytes);
  });

  it("gives a visitor without a CSRF token one of their own, as the full path does", async () => {
    await warm("/pin/202/");
    const first = await get("/pin/202/");
    const second = await get("/pin/202/");
    expect(cacheStatus(first)).toBe("HIT");
    const pattern = /^csrftoken=([a-f0-9]{64}); Max-Age=31449600; Path=\/; Secure; SameSite=Lax$/;
    const [firstCookie] = first.headers.getSetCookie();
    const [secondCookie] = second.headers.getSetCookie();
    expect(firstCookie).toMatch(pattern);
    expect(secondCookie).toMatch(pattern);
    expect(pattern.exec(firstCookie!)![1]).not.toBe(pattern.exec(secondCookie!)![1]);
    // Each answer has a request id of its own.
    expect(first.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.headers.get("x-request-id")).not.toBe(second.headers.get("x-request-id"));
    await Promise.all([first.arrayBuffer(), second.arrayBuffer()]);
  });

  it("never answers a signed-in person with the shared page", async () => {
    await warm("/pin/203/");
    const { cookie } = await createSession(1);
    const signedIn = await get("/pin/203/", { cookie: `csrftoken=${TOKEN}; ${cookie}` });
    expect(signedIn.status).toBe(200);
    expect(cacheStatus(signedIn)).toBeNull();
    expect(signedIn.headers.get("cache-control")).toBe("private, no-store");
    const html = await signedIn.text();
    expect(html).not.toContain('"renderMode":"shared"');
    expect(html).toContain("Quince paste");
  });

  it("leaves methods other than GET to the full path", async () => {
    await warm("/pin/201/");
    const head = await fetchWorker("/pin/201/", { method: "HEAD", headers: { "user-agent": BROWSER_UA, cookie: `csrftoken=${TOKEN}` } });
    expect(head.status).toBe(200);
    expect(cacheStatus(head)).toBeNull();
    expect(head.headers.get("cache-control")).toBe("private, no-store");
  });
});
