// One bounded least-recently-used map for the LanceDB store's read caches: decoded term lists
// (postings-table.ts, weighed by their postings) and chunk texts and document heads (row-reader.ts,
// one each). Holds values only; it must not read or write Lance.

/**
 * A map that forgets its least recently used entries once their summed weight passes `budget`.
 * A value heavier than the whole budget is never kept; `get` makes an entry the most recent.
 */
export class Lru<V> {
  private readonly entries = new Map<string, V>();
  private held = 0;
  private readonly budget: number;
  private readonly weigh: (value: V) => number;

  /** `weigh`: a value's weight (default 1, so `budget` is a count of entries). */
  constructor(budget: number, weigh: (value: V) => number = () => 1) {
    this.budget = budget;
    this.weigh = weigh;
  }

  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      // Map keeps insertion order: re-inserting makes it the most recent.
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.entries.delete(key);
      this.held -= this.weigh(old);
    }
    const weight = this.weigh(value);
    if (weight > this.budget) return;
    this.entries.set(key, value);
    this.held += weight;
    for (const [oldestKey, oldest] of this.entries) {
      if (this.held <= this.budget) break;
      this.entries.delete(oldestKey);
      this.held -= this.weigh(oldest);
    }
  }

  clear(): void {
    this.entries.clear();
    this.held = 0;
  }

  /** The summed weight of the entries held. */
  get weight(): number {
    return this.held;
  }

  get size(): number {
    return this.entries.size;
  }
}
