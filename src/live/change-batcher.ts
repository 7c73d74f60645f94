// Debounces a watcher's events into batches: a batch is handed on once events pause for `quietMs`,
// or after `maxWaitMs` of continuous events. Directory events and large batches become 'all' (rescan
// the folder) so a 5,000-file checkout is one sync, and a moved directory is seen whole.
import type { ChangeHint } from './connector-runner.ts';

export interface FolderEvent {
  /** '/'-separated, relative to the watched root. */
  relative: string;
  /** A directory appeared or vanished, or the watcher lost track ('' = the whole root). */
  structural: boolean;
}

export interface BatcherOptions {
  quietMs: number;
  maxWaitMs: number;
  /** More paths than this in one batch: rescan everything instead. */
  maxPaths: number;
  flush(hint: ChangeHint): void;
}

export class ChangeBatcher {
  private readonly options: BatcherOptions;
  private paths = new Set<string>();
  private all = false;
  private quiet: NodeJS.Timeout | null = null;
  private deadline: NodeJS.Timeout | null = null;

  constructor(options: BatcherOptions) {
    this.options = options;
  }

  add(event: FolderEvent): void {
    if (event.structural) this.all = true;
    else if (!this.all) {
      this.paths.add(event.relative);
      if (this.paths.size > this.options.maxPaths) this.all = true;
    }
    if (this.quiet) clearTimeout(this.quiet);
    this.quiet = setTimeout(() => this.flush(), this.options.quietMs);
    this.deadline ??= setTimeout(() => this.flush(), this.options.maxWaitMs);
  }

  close(): void {
    if (this.quiet) clearTimeout(this.quiet);
    if (this.deadline) clearTimeout(this.deadline);
  }

  private flush(): void {
    this.close();
    this.quiet = this.deadline = null;
    const hint: ChangeHint = this.all ? 'all' : { paths: [...this.paths] };
    this.paths = new Set();
    this.all = false;
    if (hint === 'all' || hint.paths.length > 0) this.options.flush(hint);
  }
}
