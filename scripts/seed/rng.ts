// The seeded random source: one Faker instance, no Math.random, no clock.
import { Faker, base, en } from "@faker-js/faker";

export const SECOND = 1000;

export function at<T>(items: readonly T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new Error(`index ${index} out of range (${items.length})`);
  return item;
}

// ---------------------------------------------------------------------------------------
// Random source: one seeded Faker instance
// ---------------------------------------------------------------------------------------

/** Cumulative weights, so a draw from a big list costs a binary search. */
export class WeightedTable<T> {
  readonly items: T[];
  readonly cumulative: number[];
  readonly total: number;

  constructor(entries: ReadonlyArray<readonly [T, number]>) {
    this.items = [];
    this.cumulative = [];
    let total = 0;
    for (const [item, weight] of entries) {
      if (weight <= 0) continue;
      total += weight;
      this.items.push(item);
      this.cumulative.push(total);
    }
    if (this.items.length === 0) throw new Error("weighted table without positive weights");
    this.total = total;
  }
}

export class Rng {
  readonly faker: Faker;

  constructor(seed: number) {
    this.faker = new Faker({ locale: [en, base] });
    this.faker.seed(seed);
  }

  int(min: number, max: number): number {
    if (max <= min) return min;
    return this.faker.number.int({ min, max });
  }

  chance(probability: number): boolean {
    if (probability <= 0) return false;
    if (probability >= 1) return true;
    return this.faker.number.float({ min: 0, max: 1 }) < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error("pick from an empty list");
    return at(items, this.int(0, items.length - 1));
  }

  weighted<T>(items: ReadonlyArray<readonly [T, number]>): T {
    let total = 0;
    for (const [, weight] of items) total += weight;
    let roll = this.faker.number.float({ min: 0, max: total });
    for (const [item, weight] of items) {
      roll -= weight;
      if (roll <= 0) return item;
    }
    return at(items, items.length - 1)[0];
  }

  draw<T>(table: WeightedTable<T>): T {
    const roll = this.faker.number.float({ min: 0, max: table.total });
    let lo = 0;
    let hi = table.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (at(table.cumulative, mid) < roll) lo = mid + 1;
      else hi = mid;
    }
    return at(table.items, lo);
  }

  shuffle<T>(items: readonly T[]): T[] {
    return this.faker.helpers.shuffle([...items]);
  }

  /** Up to `count` distinct items, without copying big arrays. */
  sample<T>(items: readonly T[], count: number): T[] {
    const wanted = Math.min(count, items.length);
    if (wanted * 3 >= items.length) return this.shuffle(items).slice(0, wanted);
    const chosen = new Set<number>();
    while (chosen.size < wanted) chosen.add(this.int(0, items.length - 1));
    return [...chosen].map((index) => at(items, index));
  }

  /** A whole-second time in [lo, hi] (hi when the range is empty). */
  time(lo: number, hi: number): number {
    if (hi <= lo) return Math.floor(hi / SECOND) * SECOND;
    return this.int(Math.ceil(lo / SECOND), Math.floor(hi / SECOND)) * SECOND;
  }

  hex(length: number): string {
    return this.faker.string.hexadecimal({ length, casing: "lower", prefix: "" });
  }
}
