import { describe, expect, it } from "vitest";
import { sha256Hex, toHex } from "./sha256.ts";

describe("hex", () => {
  it("writes every byte as two lowercase digits", () => {
    expect(toHex(new Uint8Array([0, 15, 16, 171, 255]))).toBe("000f10abff");
    expect(toHex(new Uint8Array(0))).toBe("");
    expect(toHex(Uint8Array.from({ length: 256 }, (_, byte) => byte))).toBe(Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0")).join(""));
  });

  it("gives SHA-256 as the standard's test vector says", async () => {
    expect(await sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });
});
