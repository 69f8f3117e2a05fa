import { describe, expect, it } from "vitest";
import { countedStream, readAtMost, readHead, TooManyBytes } from "./byte-limit.ts";
import { MEDIA_UPLOAD_MAX_BYTES } from "./upload-file.ts";

/** `total` bytes made on demand, 1 MiB at a time (one chunk reused): nothing holds them all. */
function lazyBytes(total: number): { stream: ReadableStream<Uint8Array>; produced: () => number } {
  const chunk = new Uint8Array(1024 * 1024);
  let produced = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const size = Math.min(chunk.length, total - produced);
      produced += size;
      controller.enqueue(size === chunk.length ? chunk : chunk.subarray(0, size));
      if (produced >= total) controller.close();
    },
  });
  return { stream, produced: () => produced };
}

describe("the upload byte counter", () => {
  it("lets a file of the spec's 209,715,200 bytes through to its last byte", async () => {
    const source = lazyBytes(209_715_200);
    const reader = source.stream.getReader();
    const { head } = await readHead(reader, 64);
    const counted = countedStream(head, reader, MEDIA_UPLOAD_MAX_BYTES).getReader();
    let passed = 0;
    for (let next = await counted.read(); !next.done; next = await counted.read()) passed += next.value.length;
    expect(passed).toBe(209_715_200);
  });

  it("errors a stream of limit + 1 bytes the moment it passes the limit", async () => {
    const source = lazyBytes(MEDIA_UPLOAD_MAX_BYTES + 1);
    const reader = source.stream.getReader();
    const { head } = await readHead(reader, 64);
    const counted = countedStream(head, reader, MEDIA_UPLOAD_MAX_BYTES).getReader();
    let passed = 0;
    const error = await (async () => {
      for (;;) {
        const next = await counted.read();
        if (next.done) return null;
        passed += next.value.byteLength;
      }
    })().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TooManyBytes);
    expect(passed).toBeLessThanOrEqual(MEDIA_UPLOAD_MAX_BYTES);
    expect(source.produced()).toBe(MEDIA_UPLOAD_MAX_BYTES + 1);
  });

  it("passes a stream of exactly the limit whole", async () => {
    const source = lazyBytes(3 * 1024 * 1024);
    const reader = source.stream.getReader();
    const { head } = await readHead(reader, 64);
    const all = await readAtMost(countedStream(head, reader, 3 * 1024 * 1024), 3 * 1024 * 1024);
    expect(all.length).toBe(3 * 1024 * 1024);
  });

  it("stops reading a body as soon as it passes readAtMost's limit", async () => {
    const source = lazyBytes(10 * 1024 * 1024);
    await expect(readAtMost(source.stream, 2 * 1024 * 1024)).rejects.toBeInstanceOf(TooManyBytes);
    expect(source.produced()).toBeLessThanOrEqual(4 * 1024 * 1024);
  });
});
