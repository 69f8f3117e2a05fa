// Searchable variety for bench-size worlds (pooled, > POOL_THRESHOLD pins). PURE and seeded.
//
// The demo world's text banks are small: at 100,000 pins nearly every word of a title or a
// description matches hundreds of pins, so a search bench on it would only ever measure common
// terms. A bench world adds to each pin's description a short phrase of real English words
// (Faker's adjective and noun lists) drawn with a Zipf law, to product pins a brand and a
// product name from the same words, and to board descriptions a phrase: the head words match
// thousands of pins, the tail words a handful, as real queries do.
//
// It draws from its OWN seeded random source: the world's main stream (and so every id,
// fixture and row of the world) is exactly what it would be without it, and the default
// 1,000-pin demo world never uses it.
import { Rng, WeightedTable } from "./rng.ts";

/** Zipf exponent: ~1 is natural language; a little above keeps the tail genuinely rare. */
const ZIPF_EXPONENT = 1.1;
/** Distinct brand names of product pins in a bench world. */
export const BRAND_COUNT = 160;

/** Offset from the world seed for the vocabulary's own stream. */
const STREAM_OFFSET = 0x5eed;

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Letters-only lowercase words of at least 4 letters, deduplicated, in the source order. */
export function cleanWords(words: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const word of words) {
    const lower = word.toLowerCase();
    if (!/^[a-z]{4,}$/.test(lower) || seen.has(lower)) continue;
    seen.add(lower);
    out.push(lower);
  }
  return out;
}

function zipfTable(words: readonly string[]): WeightedTable<string> {
  return new WeightedTable(words.map((word, rank) => [word, 1 / (rank + 1) ** ZIPF_EXPONENT] as const));
}

export class Vocabulary {
  readonly rng: Rng;
  /** Words in rank order (most frequent first): a seeded shuffle of Faker's lists. */
  readonly adjectives: readonly string[];
  readonly nouns: readonly string[];
  readonly brands: readonly string[];
  private readonly adjectiveTable: WeightedTable<string>;
  private readonly nounTable: WeightedTable<string>;
  private readonly brandTable: WeightedTable<string>;

  constructor(seed: number) {
    this.rng = new Rng((seed + STREAM_OFFSET) >>> 0);
    const words = this.rng.faker.definitions.word;
    // Words are ranked separately from the other banks: "pasta" may be a rare noun here and a
    // common title word there, which is realistic too.
    this.adjectives = this.rng.shuffle(cleanWords(words.adjective ?? []));
    this.nouns = this.rng.shuffle(cleanWords(words.noun ?? []));
    if (this.adjectives.length < 100 || this.nouns.length < 100) throw new Error("Vocabulary: Faker's word lists are missing");
    this.adjectiveTable = zipfTable(this.adjectives);
    this.nounTable = zipfTable(this.nouns);
    const brands = new Set<string>();
    while (brands.size < BRAND_COUNT) {
      const a = capitalize(this.rng.pick(this.nouns));
      const b = capitalize(this.rng.pick(this.nouns));
      brands.add(this.rng.chance(0.5) && a !== b ? `${a} & ${b}` : `${a} ${this.rng.pick(["Studio", "Supply", "Goods", "Co.", "Works", "House"])}`);
    }
    this.brands = [...brands];
    this.brandTable = zipfTable(this.brands);
  }

  adjective(): string {
    return this.rng.draw(this.adjectiveTable);
  }

  noun(): string {
    return this.rng.draw(this.nounTable);
  }

  /** A short sentence of 4 to 6 vocabulary words, e.g. "Notes on a velvety harbor and the plastic lantern." */
  sentence(): string {
    const a = `${this.adjective()} ${this.noun()}`;
    const b = this.rng.chance(0.5) ? `${this.adjective()} ${this.noun()}` : this.noun();
    const opener = this.rng.pick(["Notes on a", "Think of a", "Pairs with a", "Inspired by a", "Tagged:", "Also: a"]);
    return `${opener} ${a} and ${this.rng.pick(["a", "the", "some"])} ${b}.`;
  }

  /** A product brand (Zipf over BRAND_COUNT names: a few big brands, a long tail). */
  brand(): string {
    return this.rng.draw(this.brandTable);
  }

  /** A product name around its keyword, e.g. "Rustic linen shirt". */
  productName(keyword: string): string {
    return capitalize(`${this.adjective()} ${keyword}`).slice(0, 100);
  }
}
