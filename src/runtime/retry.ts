// Chunk-load retry (spec 000 §9: 3 tries, first wait 500 ms, doubling). A deploy removes the
// previous build's files, and a flaky network drops one; a lazy import is tried up to three
// times, waiting 500 ms and then 1,000 ms between tries.

export const CHUNK_LOAD_TRIES = 3;
export const CHUNK_RETRY_FIRST_MS = 500;

export type Sleep = (ms: number) => Promise<void>;
const sleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The waits between tries: 500, 1000 for three tries. */
export function retryDelays(tries = CHUNK_LOAD_TRIES, firstMs = CHUNK_RETRY_FIRST_MS): number[] {
  return Array.from({ length: Math.max(0, tries - 1) }, (_, index) => firstMs * 2 ** index);
}

/** Runs load(attempt) until it resolves or the tries are spent; rejects with the last error. */
export async function loadChunk<T>(load: (attempt: number) => Promise<T>, wait: Sleep = sleep, tries = CHUNK_LOAD_TRIES): Promise<T> {
  const delays = retryDelays(tries);
  for (let attempt = 0; ; attempt++) {
    try {
      return await load(attempt);
    } catch (error) {
      const delay = delays[attempt];
      if (delay === undefined) throw error;
      await wait(delay);
    }
  }
}
