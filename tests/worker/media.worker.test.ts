import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { fetchWorker } from "./fixtures.ts";

const BYTES = new Uint8Array(1000).map((_, i) => i % 251);

beforeAll(async () => {
  // The objects' owners: a public profile and its boardless pin, both visible to anyone.
  await env.DB.batch([
    env.DB.prepare("INSERT INTO users (id, username, email, image_key, created_at) VALUES (1, 'ana', 'ana@pinloom.test', 'users/1', 0)"),
    env.DB.prepare("INSERT INTO pins (id, pinner_id, kind, image_signature, created_at, updated_at) VALUES (1, 1, 'video', 'sig', 0, 0)"),
  ]);
  await env.MEDIA.put("pins/1/736x.jpg", BYTES);
  await env.MEDIA.put("pins/1/video.mp4", BYTES);
  await env.MEDIA.put("pins/1/video.webm", BYTES);
  await env.MEDIA.put("pins/1/captions.en_US.vtt", "WEBVTT\n");
  await env.MEDIA.put("users/1/medium.jpg", BYTES);
});

describe("GET /media/<key>", () => {
  it.each([
    ["pins/1/736x.jpg", "image/jpeg"],
    ["pins/1/video.mp4", "video/mp4"],
    ["pins/1/video.webm", "video/webm"],
    ["pins/1/captions.en_US.vtt", "text/vtt; charset=utf-8"],
    ["users/1/medium.jpg", "image/jpeg"],
  ])("serves %s as %s, publicly for five minutes, with an ETag", async (key, type) => {
    const response = await fetchWorker(`/media/${key}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe(type);
    expect(response.headers.get("cache-control")).toBe("public, max-age=300, must-revalidate");
    expect(response.headers.get("etag")).toMatch(/^"[0-9a-f]+"$/);
    expect(response.headers.get("accept-ranges")).toBe("bytes");
    await response.arrayBuffer();
  });

  it("serves the exact bytes", async () => {
    const body = new Uint8Array(await (await fetchWorker("/media/pins/1/736x.jpg")).arrayBuffer());
    expect(body).toEqual(BYTES);
  });

  it("answers a matching If-None-Match with 304 and no body", async () => {
    const etag = (await fetchWorker("/media/pins/1/736x.jpg")).headers.get("etag")!;
    const response = await fetchWorker("/media/pins/1/736x.jpg", { headers: { "if-none-match": etag } });
    expect(response.status).toBe(304);
    expect(await response.text()).toBe("");
  });

  it.each([
    ["bytes=0-99", 0, 99],
    ["bytes=900-", 900, 999],
    ["bytes=-10", 990, 999],
    ["bytes=995-5000", 995, 999],
  ])("Range %s is a 206 with those bytes", async (range, first, last) => {
    const response = await fetchWorker("/media/pins/1/video.mp4", { headers: { range } });
    expect(response.status).toBe(206);
    expect(response.headers.get("content-range")).toBe(`bytes ${first}-${last}/1000`);
    expect(response.headers.get("content-length")).toBe(String(last - first + 1));
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(BYTES.slice(first, last + 1));
  });

  it("a range past the end is a 416 saying the size", async () => {
    const response = await fetchWorker("/media/pins/1/video.mp4", { headers: { range: "bytes=1000-" } });
    expect(response.status).toBe(416);
    expect(response.headers.get("content-range")).toBe("bytes */1000");
  });

  it("ignores a range when If-Range names an older copy", async () => {
    const response = await fetchWorker("/media/pins/1/video.mp4", { headers: { range: "bytes=0-9", "if-range": '"stale"' } });
    expect(response.status).toBe(200);
    expect((await response.arrayBuffer()).byteLength).toBe(1000);
  });

  it("answers HEAD with headers only", async () => {
    const response = await fetchWorker("/media/pins/1/video.webm", { method: "HEAD" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-length")).toBe("1000");
    expect(await response.text()).toBe("");
  });

  it.each([
    "pins/1/missing.jpg",
    "pins/1/..736x.jpg",
    "pins/1/%2e%2e/%2e%2e/secret.jpg",
    "pins/1/736x",
    "pins/1/script.exe",
    "pins/1/736x.jpg.html",
    "PINS/1/736x.jpg",
    "",
  ])("%s is a 404", async (key) => {
    const response = await fetchWorker(`/media/${key}`);
    expect(response.status).toBe(404);
  });
});
