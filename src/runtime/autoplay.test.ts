import { describe, expect, it } from "vitest";
import { AUTOPLAY_VISIBLE_RATIO, playing, type Candidate } from "./autoplay.ts";

const video = (id: string, ratio: number, over: Partial<Candidate> = {}): Candidate => ({ id, ratio, promoted: false, userPaused: false, ...over });

describe("autoplay (spec 000 §4)", () => {
  it("plays once half a video is in view", () => {
    expect(AUTOPLAY_VISIBLE_RATIO).toBe(0.5);
    expect(playing([video("a", 0.49)], false)).toEqual(new Set());
    expect(playing([video("a", 0.5)], false)).toEqual(new Set(["a"]));
  });

  it("plays only the organic video most in view", () => {
    expect(playing([video("a", 0.6), video("b", 0.9), video("c", 0.75)], false)).toEqual(new Set(["b"]));
  });

  it("keeps document order on a tie", () => {
    expect(playing([video("a", 1), video("b", 1)], false)).toEqual(new Set(["a"]));
  });

  it("plays promoted videos outside the organic slot", () => {
    const candidates = [video("a", 0.6), video("p", 1, { promoted: true }), video("q", 0.8, { promoted: true }), video("r", 0.1, { promoted: true })];
    expect(playing(candidates, false)).toEqual(new Set(["a", "p", "q"]));
  });

  it("never restarts a video the person paused; the next organic one takes the slot", () => {
    expect(playing([video("a", 1, { userPaused: true }), video("b", 0.7)], false)).toEqual(new Set(["b"]));
  });

  it("plays nothing for reduced motion", () => {
    expect(playing([video("a", 1), video("p", 1, { promoted: true })], true)).toEqual(new Set());
  });
});
