// Who gets the next free Lua worker (ADR 0112): calls wait in arrival order, but a free worker goes
// to the waiting call whose key (its script, e.g. `tool:spin`) holds the fewest workers, and no key
// holds more than `perKeyMax` at once. Pure bookkeeping: no timers, no threads.

export interface Queued {
  readonly key: string;
}

export class FairQueue<T extends Queued> {
  private readonly waiting: T[] = [];
  private readonly held = new Map<string, number>();
  private readonly perKeyMax: number;

  constructor(perKeyMax: number) {
    this.perKeyMax = Math.max(1, perKeyMax);
  }

  get length(): number {
    return this.waiting.length;
  }

  /** Whether a call for `key` may take one more worker now. */
  mayHold(key: string): boolean {
    return (this.held.get(key) ?? 0) < this.perKeyMax;
  }

  hold(key: string): void {
    this.held.set(key, (this.held.get(key) ?? 0) + 1);
  }

  unhold(key: string): void {
    const n = (this.held.get(key) ?? 0) - 1;
    if (n > 0) this.held.set(key, n);
    else this.held.delete(key);
  }

  push(item: T): void {
    this.waiting.push(item);
  }

  /** Removes a waiting item (given up); false when it was not waiting. */
  remove(item: T): boolean {
    const i = this.waiting.indexOf(item);
    if (i < 0) return false;
    this.waiting.splice(i, 1);
    return true;
  }

  /** Waiting items that may take a worker now, oldest first. */
  eligible(): T[] {
    return this.waiting.filter((w) => this.mayHold(w.key));
  }

  /**
   * Removes and returns the item to serve next (fewest workers held by its key, then oldest); undefined when none may
   * take one.
   */
  take(): T | undefined {
    let best: T | undefined;
    for (const w of this.waiting) {
      if (!this.mayHold(w.key)) continue;
      if (best === undefined || (this.held.get(w.key) ?? 0) < (this.held.get(best.key) ?? 0)) best = w;
    }
    if (best !== undefined) this.remove(best);
    return best;
  }

  /** Empties the queue, returning what was waiting. */
  drain(): T[] {
    return this.waiting.splice(0);
  }
}
