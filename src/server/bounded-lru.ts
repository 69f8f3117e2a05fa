// A small in-isolate memory: least recently used entries out first, bounded by entry count and
// by bytes, each entry living `ttlMs` from the time it was stored. An isolate serves many
// requests one after another, so what one request computed can answer the next from a Map.
// Used by the signed-out page cache (src/server/page-cache.ts) and the search answer cache
// (src/search/answer-cache.server.ts). Not shared between isolates, lost on eviction: a cache,
// never a store.

export interface LruLimits {
  /** Entries kept at most. */
  maxEntries: number;
  /** Sum of the entries' stated sizes kept at most. */
  maxBytes: number;
  /** How long an entry answers after its storedAt (ms). */
  ttlMs: number;
}

interface Slot<V> {
  value: V;
  bytes: number;
  storedAt: number;
}

export class BoundedLru<V> {
  readonly limits: LruLimits;
  private readonly slots = new Map<string, Slot<V>>();
  private totalBytes = 0;

  constructor(limits: LruLimits) {
    if (!(limits.maxEntries > 0 && limits.maxBytes > 0 && limits.ttlMs > 0)) throw new RangeError("BoundedLru limits must be positive");
    this.limits = limits;
  }

  get size(): number {
    return this.slots.size;
  }

  get bytes(): number {
    return this.totalBytes;
  }

  /**
   * Keeps `value` (stated size `bytes`, stored at `storedAt`), replacing any entry of the key,
   * then drops the least recently used until both bounds hold. A value larger than maxBytes
   * on its own is not kept.
   */
  set(key: string, value: V, bytes: number, storedAt: number): void {
    this.delete(key);
    if (bytes > this.limits.maxBytes) return;
    this.slots.set(key, { value, bytes, storedAt });
    this.totalBytes += bytes;
    for (const [oldest, slot] of this.slots) {
      if (this.slots.size <= this.limits.maxEntries && this.totalBytes <= this.limits.maxBytes) break;
      this.slots.delete(oldest);
      this.totalBytes -= slot.bytes;
    }
  }

  /** The value of a key still within its time (and now the most recently used), else undefined; an expired entry is dropped. */
  get(key: string, now: number): V | undefined {
    const slot = this.slots.get(key);
    if (!slot) return undefined;
    if (now - slot.storedAt >= this.limits.ttlMs) {
      this.delete(key);
      return undefined;
    }
    // Map order is insertion order: re-inserting makes it the most recently used.
    this.slots.delete(key);
    this.slots.set(key, slot);
    return slot.value;
  }

  delete(key: string): void {
    const slot = this.slots.get(key);
    if (!slot) return;
    this.slots.delete(key);
    this.totalBytes -= slot.bytes;
  }

  /** Drops every entry whose key (or value) passes `test` (a walk over at most maxEntries entries). */
  deleteWhere(test: (key: string, value: V) => boolean): void {
    for (const [key, slot] of [...this.slots]) if (test(key, slot.value)) this.delete(key);
  }

  clear(): void {
    this.slots.clear();
    this.totalBytes = 0;
  }
}
