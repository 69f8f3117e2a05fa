import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  EXPERIMENTS,
  HOME_FEED_RESTORE_EXPERIMENT,
  assignExperiments,
  bucketOf,
} from "./experiments.ts";

describe("experiment assignment", () => {
  it("enrolls only a signed-in person (an account id)", () => {
    expect(assignExperiments(null)).toEqual({});
    expect(assignExperiments(undefined)).toEqual({});
    expect(assignExperiments("")).toEqual({});
    expect(Object.keys(assignExperiments(42))).toEqual(
      Object.keys(EXPERIMENTS),
    );
  });

  it("gives a person the same group every time, from a number or its string", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 }), (id) => {
        expect(assignExperiments(id)).toEqual(assignExperiments(id));
        expect(assignExperiments(String(id))).toEqual(assignExperiments(id));
        for (const [name, group] of Object.entries(assignExperiments(id))) {
          expect(EXPERIMENTS[name as keyof typeof EXPERIMENTS]).toContain(
            group,
          );
        }
      }),
    );
  });

  it("splits consecutive account ids evenly between the restore windows", () => {
    const counts = { default: 0, extended: 0 } as Record<string, number>;
    for (let id = 1; id <= 20_000; id++)
      counts[assignExperiments(id)[HOME_FEED_RESTORE_EXPERIMENT]!]!++;
    // 10,000 each expected; a fair coin stays within ±3% (about 8.5 standard deviations).
    expect(counts["default"]).toBeGreaterThan(9_700);
    expect(counts["extended"]).toBeGreaterThan(9_700);
  });

  it("hashes the experiment's name with the id, so experiments do not share their split", () => {
    const a = Array.from(
      { length: 2000 },
      (_, id) => bucketOf(`one:${id}`) % 2,
    );
    const b = Array.from(
      { length: 2000 },
      (_, id) => bucketOf(`two:${id}`) % 2,
    );
    const same = a.filter((bit, index) => bit === b[index]).length;
    expect(same).toBeGreaterThan(850);
    expect(same).toBeLessThan(1150);
  });

  it("keeps everyone's group across releases (golden values: changing the hash reshuffles people)", () => {
    expect(bucketOf("")).toBe(2_872_998_923); // FNV-1a offset basis 0x811c9dc5, then murmur3's fmix32
    expect(bucketOf("web_home_feed_restore:1")).toBe(441_695_075);
    expect(
      [1, 2, 3, 4, 5, 6, 7, 8].map(
        (id) => assignExperiments(id)[HOME_FEED_RESTORE_EXPERIMENT],
      ),
    ).toEqual([
      "extended",
      "extended",
      "extended",
      "extended",
      "default",
      "default",
      "default",
      "extended",
    ]);
  });
});
