// The live index (docs/sync.md): keeps every connector current while the server runs. One runner per
// connector (schedules, backoff, no overlap), file watchers for filesystem connectors feeding
// debounced batches, background embedding, and change notifications for the surfaces.
import { notFound, type Connector, type SyncReport } from '../../core/api/plugin.ts';
import type { ConnectorStatus, LiveIndexHost, LiveSyncHandle } from './api.ts';
import { ChangeBatcher } from './change-batcher.ts';
import { ConnectorRunner, type RunReason } from './connector-runner.ts';
import { EmbedFollower } from './embed-follower.ts';
import type { FolderWatch, WatchFolder } from './folder-watcher.ts';
import { describeRun } from './run-line.ts';

// Debouncing (docs/adr/0081-live-index.md): a lone save waits 100 ms of quiet, a burst 1 s.
const BATCHING = { quietMs: 100, burstQuietMs: 1_000, burstPaths: 50, maxWaitMs: 30_000, maxPaths: 500 };

export class LiveSync implements LiveSyncHandle {
  private readonly host: LiveIndexHost;
  private readonly watchFolder: WatchFolder;
  private readonly embed: EmbedFollower | null;
  private readonly runners = new Map<string, ConnectorRunner>();
  private readonly batchers: ChangeBatcher[] = [];
  private readonly watches: FolderWatch[] = [];
  private readonly listeners = new Set<(connector: string) => void>();
  private closed = false;

  constructor(host: LiveIndexHost, watchFolder: WatchFolder) {
    this.host = host;
    this.watchFolder = watchFolder;
    this.embed = host.embedding && new EmbedFollower(host.embedding, host.log);
    for (const { connector, intervalSecs } of host.connectors) {
      // Timed runs (schedule, retry) skip a connector synced within 90% of its
      // interval by anyone: replicas over one PostgreSQL store run each schedule once (ADR 0111).
      const fresh = intervalSecs > 0 ? intervalSecs * 900 : undefined;
      this.runners.set(
        connector.label,
        new ConnectorRunner({
          label: connector.label,
          intervalSecs,
          sync: (paths, reason) =>
            this.syncOne(connector, paths, reason === 'schedule' || reason === 'retry' ? fresh : undefined),
          failedReport: host.failedReport,
          onRun: (report, reason, next) => this.afterRun(report, reason, next),
        }),
      );
    }
  }

  /** Starts watchers, then runs every connector once (changes made while the server was down). */
  async start(): Promise<void> {
    for (const { connector, watch } of this.host.connectors) {
      const runner = this.runners.get(connector.label)!;
      if (watch) {
        let reason: RunReason = 'watch';
        const batcher = new ChangeBatcher({ ...BATCHING, flush: (hint) => runner.request(hint, reason) });
        this.batchers.push(batcher);
        try {
          const handle = await this.watchFolder(watch, (e) => batcher.add(e), this.host.log);
          this.watches.push(handle);
          if (handle.mode === 'polling') reason = 'poll';
          if (this.closed) break; // closed while the watcher started: close() did not see this handle
          this.host.log(
            `watching ${connector.label} (${watch.root}) with ${handle.mode === 'events' ? 'file events' : 'polling'}`,
          );
        } catch (error) {
          this.host.log(`watch ${connector.label}: ${(error as Error).message}; relying on its schedule`);
        }
      }
      runner.request('all', 'start');
    }
    if (this.closed) await Promise.all(this.watches.map((w) => w.close()));
  }

  status(): Promise<ConnectorStatus[]> {
    return Promise.resolve([...this.runners.values()].map((r) => r.snapshot()));
  }

  trigger(label: string): Promise<ConnectorStatus> {
    const runner = this.runners.get(label);
    if (!runner)
      throw notFound(
        `connector ${label} is not configured (configured: ${[...this.runners.keys()].join(', ') || 'none'})`,
      );
    runner.request('all', 'request');
    return Promise.resolve(runner.snapshot());
  }

  /** Called after any sync that added, changed or deleted documents, with its connector's label. */
  onIndexChanged(listener: (connector: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stops watching and scheduling; waits for runs under way (each document write is atomic anyway). */
  async close(): Promise<void> {
    this.closed = true;
    for (const b of this.batchers) b.close();
    for (const r of this.runners.values()) r.close();
    await Promise.all(this.watches.map((w) => w.close()));
    this.embed?.close();
    await Promise.all([...this.runners.values()].map((r) => r.idle()));
  }

  private async syncOne(
    connector: Connector,
    paths: readonly string[] | undefined,
    skipIfSyncedWithinMs: number | undefined,
  ): Promise<SyncReport> {
    return this.host.sync(connector, { paths, skipIfSyncedWithinMs });
  }

  private afterRun(report: SyncReport, reason: RunReason, next: string | null): void {
    this.host.onRun?.(report);
    const changed = report.upserted > 0 || report.deleted > 0;
    // A poll that found nothing is not news: polling would otherwise log a line every few seconds.
    if (reason !== 'poll' || changed || report.failure) this.host.log(describeRun(report, reason, next));
    if (report.failure || !changed) return;
    if (report.chunksWritten > 0) this.embed?.request();
    for (const listener of this.listeners) listener(report.connector);
  }
}
