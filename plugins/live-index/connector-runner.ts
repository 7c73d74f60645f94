// Runs one connector's background syncs: never two at once (requests arriving during a run are merged
// into one follow-up run), on its schedule, and with backoff after a failure (the stored documents stay).
//
// 1. request(hint) merges the hint (some paths, or everything) into what is pending and starts a run
//    unless one is under way. 2. A run takes the pending hint, calls `sync`, records the outcome.
// 3. Then: pending work runs at once; otherwise the next run is timed (interval, or backoff after a failure).
import type { ConnectorStatus, SyncCounts, SyncReport } from './api.ts';

export type RunReason = 'start' | 'watch' | 'poll' | 'schedule' | 'request' | 'retry';

/** Which paths changed ('all': rescan everything). */
export type ChangeHint = { paths: readonly string[] } | 'all';

export interface RunnerOptions {
  label: string;
  /** Seconds between scheduled runs; 0: none. */
  intervalSecs: number;
  sync(paths: readonly string[] | undefined, reason: RunReason): Promise<SyncReport>;
  /** The report of a sync that threw (it should report instead). */
  failedReport(connector: string, error: unknown): SyncReport;
  /** Called after every run (one log line, change notifications). */
  onRun(report: SyncReport, reason: RunReason, next: string | null): void;
}

const BACKOFF_FIRST_MS = 15_000;
const BACKOFF_MAX_MS = 3_600_000;
const BUSY_RETRY_MS = 5_000; // another process (a hand-run `kbctx sync`) holds the connector

export class ConnectorRunner {
  private readonly options: RunnerOptions;
  private status: ConnectorStatus;
  private pending: { hint: ChangeHint; reason: RunReason } | null = null;
  private running: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private failures = 0;
  private closed = false;

  constructor(options: RunnerOptions) {
    this.options = options;
    this.status = {
      connector: options.label,
      state: 'idle',
      lastStartedAt: null,
      lastFinishedAt: null,
      lastCounts: null,
      lastError: null,
      nextRunAt: null,
    };
  }

  get label(): string {
    return this.options.label;
  }

  snapshot(): ConnectorStatus {
    return { ...this.status };
  }

  /** Asks for a run; merged with any pending request. Resolves when a run that covers it has finished. */
  request(hint: ChangeHint, reason: RunReason): void {
    if (this.closed) return;
    const merged = mergeHints(this.pending?.hint, hint);
    this.pending = {
      hint: merged,
      reason:
        this.pending && this.pending.reason !== 'watch' && this.pending.reason !== 'poll'
          ? this.pending.reason
          : reason,
    };
    if (!this.running) this.running = this.drain();
  }

  /** Resolves when no run is under way (used at shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  close(): void {
    this.closed = true;
    this.pending = null;
    if (this.timer) clearTimeout(this.timer);
  }

  private async drain(): Promise<void> {
    while (this.pending && !this.closed) {
      const { hint, reason } = this.pending;
      this.pending = null;
      if (this.timer) clearTimeout(this.timer);
      this.status = { ...this.status, state: 'running', lastStartedAt: new Date().toISOString(), nextRunAt: null };
      // A sync that throws (it should report instead) is a failed run, never an unhandled rejection.
      const report = await this.options
        .sync(hint === 'all' ? undefined : hint.paths, reason)
        .catch((error: unknown) => this.options.failedReport(this.label, error));
      this.finish(report, reason);
    }
    this.running = null;
  }

  private finish(report: SyncReport, reason: RunReason): void {
    const finishedAt = new Date().toISOString();
    let delay: number | null = this.options.intervalSecs > 0 ? this.options.intervalSecs * 1000 : null;
    if (report.failure?.code === 'conflict') {
      // Not this connector's fault: keep the last outcome, try again shortly.
      this.status = { ...this.status, state: this.failures > 0 ? 'failed' : 'idle' };
      delay = BUSY_RETRY_MS;
    } else if (report.failure) {
      this.failures++;
      delay = Math.min(BACKOFF_FIRST_MS * 2 ** (this.failures - 1), BACKOFF_MAX_MS);
      this.status = {
        ...this.status,
        state: 'failed',
        lastFinishedAt: finishedAt,
        lastError: `${report.failure.code}: ${report.failure.message}`,
      };
    } else {
      this.failures = 0;
      this.status = {
        ...this.status,
        state: 'idle',
        lastFinishedAt: finishedAt,
        lastCounts: toCounts(report),
        lastError: null,
      };
    }
    const next = delay === null ? null : new Date(Date.now() + delay).toISOString();
    this.status.nextRunAt = next;
    if (delay !== null && !this.closed) {
      const retry: RunReason = report.failure ? 'retry' : 'schedule';
      this.timer = setTimeout(() => this.request('all', retry), delay);
      this.timer.unref();
    }
    this.options.onRun(report, reason, next);
  }
}

function mergeHints(a: ChangeHint | undefined, b: ChangeHint): ChangeHint {
  if (a === undefined) return b;
  if (a === 'all' || b === 'all') return 'all';
  return { paths: [...new Set([...a.paths, ...b.paths])] };
}

function toCounts(r: SyncReport): SyncCounts {
  return {
    fetched: r.fetched,
    upserted: r.upserted,
    unchanged: r.unchanged,
    deleted: r.deleted,
    skipped: r.skipped,
    errors: r.errors,
    chunksWritten: r.chunksWritten,
  };
}
