import { describe, expect, it } from "vitest";
import { buildSocial } from "./social.ts";
import { FIXTURES, MIN_PINS, buildWorld } from "./world.ts";

describe("the demo world's topics", () => {
  const world = buildWorld({ pins: MIN_PINS });
  const tables = buildSocial(world);

  it("has one interest per pin category, named, with ids 1..n", () => {
    const categories = new Set(world.tables.pins.map((pin) => pin.category).filter(Boolean));
    expect(tables.interests.map((interest) => interest.key).sort()).toEqual([...categories].sort());
    expect(tables.interests.map((interest) => interest.id)).toEqual(tables.interests.map((_, index) => index + 1));
    expect(tables.interests.find((interest) => interest.key === "food_drinks")?.name).toBe("Recipes");
  });

  it("links every categorised pin to its category's interest, deterministically", () => {
    expect(tables.pin_interests.length).toBe(world.tables.pins.filter((pin) => pin.category !== null).length);
    expect(buildSocial(buildWorld({ pins: MIN_PINS }))).toEqual(tables);
  });

  it("sponsors pin 100012: bakeandbloom with marlowandmain, pending", () => {
    const pin = world.tables.pins.find((row) => row.id === FIXTURES.pins.promoted);
    expect(JSON.parse(pin!.sponsorship!)).toEqual({ creatorId: String(FIXTURES.users.business), sponsorId: String(FIXTURES.users.merchant), status: 0 });
  });
});
