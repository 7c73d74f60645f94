// Debounces a watcher's events into batches. A lone save is handed on once events pause for `quietMs`
// (fast: save-to-searchable). A burst (more than `burstPaths` in a batch, as a `git checkout` makes,
// or events again right after a burst's flush) waits for a longer pause, `burstQuietMs`, so it becomes one
// sync; `maxWaitMs` bounds any wait. Directory events and large batches become 'all' (rescan the folder).
import type { ChangeHint } from './connector-runner.ts';

export interface FolderEvent {
  /** '/'-separated, relative to the watched root. */
  relative: string;
  /** A directory appeared or vanished, or the watcher lost track ('' = the whole root). */
  structural: boolean;
}

export interface BatcherOptions {
  quietMs: number;
  burstQuietMs: number;
  /** A batch with more paths than this is a burst. */
  burstPaths: number;
  maxWaitMs: number;
  /** More paths than this in one batch: rescan everything instead. */
  maxPaths: number;
  flush(hint: ChangeHint): void;
}

export class ChangeBatcher {
  private readonly options: BatcherOptions;
  private paths = new Set<string>();
  private all = false;
  private burst = false;
  private lastFlush = -Infinity;
  private lastWasBurst = false;
  private quiet: NodeJS.Timeout | null = null;
  private deadline: NodeJS.Timeout | null = null;

  constructor(options: BatcherOptions) {
    this.options = options;
  }

  add(event: FolderEvent): void {
    const o = this.options;
    // the burst goes on
    if (!this.deadline && this.lastWasBurst && performance.now() - this.lastFlush < o.burstQuietMs) this.burst = true;
    if (event.structural) this.all = true;
    else if (!this.all) {
      this.paths.add(event.relative);
      if (this.paths.size > o.maxPaths) this.all = true;
    }
    if (this.all || this.paths.size > o.burstPaths) this.burst = true;
    if (this.quiet) clearTimeout(this.quiet);
    this.quiet = setTimeout(() => this.flush(), this.burst ? o.burstQuietMs : o.quietMs);
    this.deadline ??= setTimeout(() => this.flush(), o.maxWaitMs);
  }

  close(): void {
    if (this.quiet) clearTimeout(this.quiet);
    if (this.deadline) clearTimeout(this.deadline);
    this.quiet = this.deadline = null;
  }

  private flush(): void {
    this.close();
    const hint: ChangeHint = this.all ? 'all' : { paths: [...this.paths] };
    this.paths = new Set();
    this.lastWasBurst = this.burst;
    this.all = this.burst = false;
    this.lastFlush = performance.now();
    if (hint === 'all' || hint.paths.length > 0) this.options.flush(hint);
  }
}
