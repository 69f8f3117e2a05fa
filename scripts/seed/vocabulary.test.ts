import { describe, expect, it } from "vitest";
import { parseJsonColumn, richMetadataSchema } from "../../src/pins/pin.ts";
import { BRAND_COUNT, Vocabulary, cleanWords } from "./vocabulary.ts";
import { FIXTURES, POOL_THRESHOLD, buildWorld } from "./world.ts";

function tokens(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

describe("Vocabulary", () => {
  it("is deterministic for a seed and differs between seeds", () => {
    const draw = (seed: number): string[] => {
      const vocabulary = new Vocabulary(seed);
      return [vocabulary.sentence(), vocabulary.sentence(), vocabulary.brand(), vocabulary.productName("linen shirt")];
    };
    expect(draw(7)).toEqual(draw(7));
    expect(draw(7)).not.toEqual(draw(8));
  });

  it("keeps only letters-only words of 4+ letters, once", () => {
    expect(cleanWords(["Apple", "apple", "ox", "well-made", "river", "x1yz"])).toEqual(["apple", "river"]);
  });

  it("draws words with a Zipf law: a common head and a rare tail", () => {
    const vocabulary = new Vocabulary(20261122);
    const counts = new Map<string, number>();
    for (let i = 0; i < 50_000; i++) {
      const noun = vocabulary.noun();
      counts.set(noun, (counts.get(noun) ?? 0) + 1);
    }
    const head = counts.get(vocabulary.nouns[0] as string) ?? 0;
    const tail = vocabulary.nouns.slice(-100).reduce((sum, noun) => sum + (counts.get(noun) ?? 0), 0) / 100;
    expect(head).toBeGreaterThan(3000);
    expect(tail).toBeLessThan(10);
    expect(head / Math.max(tail, 1)).toBeGreaterThan(300);
  });

  it("has BRAND_COUNT distinct brands and product names around the keyword", () => {
    const vocabulary = new Vocabulary(1);
    expect(new Set(vocabulary.brands).size).toBe(BRAND_COUNT);
    const name = vocabulary.productName("wool overcoat");
    expect(name).toMatch(/^[A-Z][a-z]+ wool overcoat$/);
  });
});

describe("bench worlds carry the vocabulary; the demo world does not", () => {
  const pooled = buildWorld({ pins: POOL_THRESHOLD + 500 });
  const demo = buildWorld({ pins: 1000 });

  it("leaves the demo world's descriptions to the demo text banks", () => {
    const openers = /(Notes on a|Think of a|Pairs with a|Inspired by a|Tagged:|Also: a) /;
    expect(demo.tables.pins.filter((pin) => openers.test(pin.description))).toEqual([]);
    expect(pooled.tables.pins.filter((pin) => openers.test(pin.description)).length).toBeGreaterThan(pooled.tables.pins.length * 0.9);
  });

  it("keeps every fixed pin's title and the fixture ids of a bench world", () => {
    for (const id of Object.values(FIXTURES.pins)) {
      expect(pooled.tables.pins.find((pin) => pin.id === id)?.title).toBe(demo.tables.pins.find((pin) => pin.id === id)?.title);
    }
  });

  it("keeps descriptions within 500 characters and product metadata valid", () => {
    for (const pin of pooled.tables.pins) expect(pin.description.length).toBeLessThanOrEqual(500);
    for (const board of pooled.tables.boards) expect(board.description.length).toBeLessThanOrEqual(500);
    const products = pooled.tables.pins.filter((pin) => pin.kind === "product");
    const brands = new Set<string>();
    for (const pin of products) {
      const meta = parseJsonColumn(richMetadataSchema, pin.rich_metadata);
      for (const product of meta?.products ?? []) if (product.brand) brands.add(product.brand);
    }
    expect(brands.size).toBeGreaterThan(30);
  });

  it("makes the text far more varied than the demo banks alone", () => {
    const distinct = (pins: ReadonlyArray<{ title: string; description: string }>): number => new Set(pins.flatMap((pin) => tokens(`${pin.title} ${pin.description}`))).size;
    expect(distinct(pooled.tables.pins)).toBeGreaterThan(distinct(demo.tables.pins) * 1.5);
  });
});
