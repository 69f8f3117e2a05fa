// Bounded reads of a request body: bytes are counted as they arrive, so a body larger than its
// limit is refused as soon as it passes the limit, never after it was held in memory or stored.
import { concatBytes } from "~/runtime/bytes.ts";

/** Thrown (or used to error a stream) once more than `limit` bytes have passed. */
export class TooManyBytes extends Error {
  constructor(readonly limit: number) {
    super(`more than ${limit} bytes`);
    this.name = "TooManyBytes";
  }
}

/**
 * The first `count` bytes of the stream (fewer when it ends sooner), read chunk by chunk, and
 * what arrived past them: the rest of the stream is left to the returned reader.
 */
export async function readHead(reader: ReadableStreamDefaultReader<Uint8Array>, count: number): Promise<{ head: Uint8Array[]; headBytes: number; done: boolean }> {
  const head: Uint8Array[] = [];
  let headBytes = 0;
  while (headBytes < count) {
    const { done, value } = await reader.read();
    if (done) return { head, headBytes, done: true };
    head.push(value);
    headBytes += value.byteLength;
  }
  return { head, headBytes, done: false };
}

/**
 * Every chunk of `first` then the rest of `reader`, as one stream that errors with TooManyBytes
 * the moment more than `limit` bytes have passed through it (whoever reads it, R2 included,
 * then fails and keeps nothing). The source is cancelled at that point, so it is never read on.
 */
export function countedStream(first: readonly Uint8Array[], reader: ReadableStreamDefaultReader<Uint8Array>, limit: number): ReadableStream<Uint8Array> {
  let seen = 0;
  let index = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = index < first.length ? { done: false as const, value: first[index++]! } : await reader.read();
      if (next.done) {
        controller.close();
        return;
      }
      seen += next.value.byteLength;
      if (seen > limit) {
        await reader.cancel().catch(() => undefined);
        controller.error(new TooManyBytes(limit));
        return;
      }
      controller.enqueue(next.value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

/** The whole stream in one array, or TooManyBytes as soon as it passes `limit` (what was read is dropped). */
export async function readAtMost(stream: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  const reader = stream.getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const next = await reader.read();
    if (next.done) return concatBytes(parts);
    total += next.value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      throw new TooManyBytes(limit);
    }
    parts.push(next.value);
  }
}
