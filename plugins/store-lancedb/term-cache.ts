// A bounded least-recently-used cache of decoded term lists for postings-table.ts, bounded by the
// postings it holds plus one per entry (so empty lists count too): a few common terms cannot push the
// memory past the budget.

export class TermCache<V extends { readonly size: number }> {
  private readonly entries = new Map<string, V>();
  private held = 0;
  private readonly budget: number;

  /** `budget`: the most postings held at once (a list larger than it is never kept). */
  constructor(budget: number) {
    this.budget = budget;
  }

  get(term: string): V | undefined {
    const value = this.entries.get(term);
    if (value !== undefined) {
      // Map keeps insertion order: re-inserting makes it the most recent.
      this.entries.delete(term);
      this.entries.set(term, value);
    }
    return value;
  }

  set(term: string, value: V): void {
    const old = this.entries.get(term);
    if (old !== undefined) {
      this.entries.delete(term);
      this.held -= old.size + 1;
    }
    if (value.size + 1 > this.budget) return;
    this.entries.set(term, value);
    this.held += value.size + 1;
    for (const [key, oldest] of this.entries) {
      if (this.held <= this.budget) break;
      this.entries.delete(key);
      this.held -= oldest.size + 1;
    }
  }

  clear(): void {
    this.entries.clear();
    this.held = 0;
  }

  /** Postings held, plus one per entry. */
  get postings(): number {
    return this.held;
  }
}
