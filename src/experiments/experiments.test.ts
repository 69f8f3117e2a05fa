import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  EXPERIMENTS,
  HOLDOUTS,
  HOME_FEED_RESTORE_EXPERIMENT,
  PIN_GRID_FOOTER_EXPERIMENT,
  assignExperiments,
  bucketOf,
  inHoldout,
  isEligible,
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

  it("splits consecutive account ids evenly between the restore windows, the held-out 5% in the control", () => {
    const counts = { default: 0, extended: 0 } as Record<string, number>;
    for (let id = 1; id <= 20_000; id++)
      counts[assignExperiments(id)[HOME_FEED_RESTORE_EXPERIMENT]!]!++;
    // 95% are eligible and split evenly: 9,500 extended; the 5% held out join the 9,500 default.
    expect(counts["extended"]).toBeGreaterThan(9_200);
    expect(counts["extended"]).toBeLessThan(9_800);
    expect(counts["default"]).toBeGreaterThan(10_200);
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

describe("holdouts (spec 001 §9)", () => {
  it("are the first half of 2023, the second half of 2023 and the first half of 2024", () => {
    expect(HOLDOUTS).toEqual(["holdout_2023_h1", "holdout_2023_h2", "holdout_2024_h1"]);
  });

  it("hold back the same accounts every time (golden values for ids 1 to 100)", () => {
    const heldOut = (holdout: (typeof HOLDOUTS)[number]) => Array.from({ length: 100 }, (_, index) => index + 1).filter((id) => inHoldout(holdout, id));
    expect(heldOut("holdout_2023_h1")).toEqual([9, 17, 19, 25, 30, 31, 45, 50, 56, 86, 92]);
    expect(heldOut("holdout_2023_h2")).toEqual([7, 17, 46, 76, 81, 85]);
    expect(heldOut("holdout_2024_h1")).toEqual([11, 13, 26, 43, 62, 72, 82]);
    expect(inHoldout("holdout_2024_h1", "13")).toBe(true);
  });

  it("hold back about 5% of accounts each, drawn independently", () => {
    for (const holdout of HOLDOUTS) {
      let held = 0;
      for (let id = 1; id <= 20_000; id++) if (inHoldout(holdout, id)) held++;
      // 1,000 expected; ±250 is more than 8 standard deviations.
      expect(held, holdout).toBeGreaterThan(750);
      expect(held, holdout).toBeLessThan(1_250);
    }
  });

  it("make a held-out person ineligible: the control group, whatever their draw", () => {
    // 13, 26 and 62 draw extended and hide_footer but are in the first-half-2024 holdout.
    for (const id of [13, 26, 62]) {
      expect(isEligible(HOME_FEED_RESTORE_EXPERIMENT, id)).toBe(false);
      expect(assignExperiments(id)).toEqual({ [HOME_FEED_RESTORE_EXPERIMENT]: "default", [PIN_GRID_FOOTER_EXPERIMENT]: "control", web_business_navigation: "off" });
    }
    // 1 is in no holdout of these experiments and keeps its draw.
    expect(isEligible(HOME_FEED_RESTORE_EXPERIMENT, 1)).toBe(true);
    expect(assignExperiments(1)[HOME_FEED_RESTORE_EXPERIMENT]).toBe("extended");
  });

  it("leave nobody eligible who is not signed in", () => {
    expect(isEligible(HOME_FEED_RESTORE_EXPERIMENT, null)).toBe(false);
    expect(isEligible(HOME_FEED_RESTORE_EXPERIMENT, "")).toBe(false);
  });
});
