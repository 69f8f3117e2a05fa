import { describe, expect, it } from "vitest";
import { CHUNK_LOAD_TRIES, CHUNK_RETRY_FIRST_MS, loadChunk, retryDelays } from "./retry.ts";

describe("chunk-load retry (spec 000 §9)", () => {
  it("is 3 tries, 500 ms first, doubling", () => {
    expect(CHUNK_LOAD_TRIES).toBe(3);
    expect(CHUNK_RETRY_FIRST_MS).toBe(500);
    expect(retryDelays()).toEqual([500, 1000]);
    expect(retryDelays(5, 100)).toEqual([100, 200, 400, 800]);
    expect(retryDelays(1)).toEqual([]);
  });

  it("resolves on the third try after waiting 500 then 1000 ms", async () => {
    const waits: number[] = [];
    const attempts: number[] = [];
    const value = await loadChunk(
      async (attempt) => {
        attempts.push(attempt);
        if (attempt < 2) throw new Error("chunk failed");
        return "module";
      },
      async (ms) => void waits.push(ms),
    );
    expect(value).toBe("module");
    expect(attempts).toEqual([0, 1, 2]);
    expect(waits).toEqual([500, 1000]);
  });

  it("gives up after three tries with the last error", async () => {
    let calls = 0;
    const waits: number[] = [];
    await expect(
      loadChunk(
        async (attempt) => {
          calls++;
          throw new Error(`try ${attempt}`);
        },
        async (ms) => void waits.push(ms),
      ),
    ).rejects.toThrow("try 2");
    expect(calls).toBe(3);
    expect(waits).toEqual([500, 1000]);
  });

  it("does not wait when the first try works", async () => {
    const waits: number[] = [];
    await loadChunk(async () => 1, async (ms) => void waits.push(ms));
    expect(waits).toEqual([]);
  });
});
