// The live index's contract (the live-index plugin implements it): the plugin provides the
// `kbctx.live-index` service; `kbctx serve` opens it (watching or not) and hands the running index to
// the surfaces. The plugin builds its LiveIndexHost (connectors, sync under the server's lock,
// embedding) from the host's `kbctx.index` service. Types, one ref, and its hooks (`syncRun`).
import { SyncHook } from 'tapable';
import {
  createServiceRef,
  defineExtensionPoint,
  sectionOf,
  type Config,
  type PluginKernel,
  type Connector,
  type EmbedProgress,
  type EmbedReport,
  type Embedder,
  type SyncReport,
  type WatchTarget,
} from '../../core/api/plugin.ts';

import type { Worker } from 'node:cluster';

// What the surfaces see of the live index: `kbctx serve` hands it to them in the `kbctx.serve` state (the cli plugin's
// api.ts; formerly core's serve-service.ts, ADR 0238).
export type SyncState = 'idle' | 'running' | 'failed';

export interface SyncCounts {
  fetched: number;
  upserted: number;
  unchanged: number;
  deleted: number;
  skipped: number;
  errors: number;
  chunksWritten: number;
}

/** One connector's state in the live index (GET /sync/status, the MCP resource kbctx://sync/status). */
export interface ConnectorStatus {
  connector: string;
  state: SyncState;
  lastStartedAt: string | null;
  lastFinishedAt: string | null;
  lastCounts: SyncCounts | null;
  lastError: string | null;
  nextRunAt: string | null;
}

/** What the surfaces see: status and on-demand runs. */
export interface SyncControl {
  status(): Promise<ConnectorStatus[]>;
  /** Starts (or queues) a run of one connector; throws not_found for an unknown label. */
  trigger(label: string): Promise<ConnectorStatus>;
}

/** The live index as the server runs it (a cluster worker's is a proxy to the primary's). */
export interface LiveIndex {
  control: SyncControl;
  /** The status as its wire JSON (the MCP resource). */
  statusJson(): Promise<unknown>;
  /** After a sync changed documents; `connector`: its label (an MCP stream hears only of sources in its scope). */
  onIndexChanged(listener: (connector: string) => void): void;
  /** Primary only: serve this worker's status and trigger calls. */
  attachWorker(worker: Worker): void;
  close(): Promise<void>;
}

/** A folder to watch for a connector that has one (Connector.watchTarget: the filesystem's), `[server] watch`. */
export interface WatchSpec extends WatchTarget {
  /** Poll (periodic incremental rescans) even where file events exist: `[server] watch = "poll"`. */
  poll: boolean;
}

export interface LiveConnector {
  connector: Connector;
  /** Seconds between scheduled runs (0: none). */
  intervalSecs: number;
  /** Set for connectors with a watch target (filesystem) when watching is on. */
  watch: WatchSpec | null;
}

/** What the host gives the live index: its connectors, syncing under the server's lock, embedding. */
export interface LiveIndexHost {
  connectors: readonly LiveConnector[];
  /** One incremental sync of one connector; never rejects (a failure is in the report). */
  sync(
    connector: Connector,
    options: { paths: readonly string[] | undefined; skipIfSyncedWithinMs: number | undefined },
  ): Promise<SyncReport>;
  /** The report of a run that threw anyway. */
  failedReport(connector: string, error: unknown): SyncReport;
  /** Background embedding; null when [embedding] is disabled. `onProgress`: at the pass's start and per batch. */
  embedding: {
    embedder(): Embedder | null;
    embedPending(embedder: Embedder, onProgress?: (progress: EmbedProgress) => void): Promise<EmbedReport>;
  } | null;
  log: (line: string) => void;
  /** Told of each finished run (the `syncRun` hook's taps); absent: nobody listens. */
  onRun?: ((report: SyncReport) => void) | undefined;
}

/** The live index the plugin runs: start() starts watchers and runs every connector once. */
export interface LiveSyncHandle extends SyncControl {
  start(): Promise<void>;
  /** Called after any sync that added, changed or deleted documents; returns the unsubscribe. */
  onIndexChanged(listener: (connector: string) => void): () => void;
  close(): Promise<void>;
}

export interface LiveIndexService {
  /** `watch`: `[server] watch` (false with `serve --no-watch`); `log`: the server's log lines. */
  open(options: { watch: boolean | 'poll'; log: (line: string) => void }): Promise<LiveSyncHandle>;
  /**
   * The status as its wire JSON (GET /sync/status, the MCP resource), or a promise of it (its module loaded on first
   * use).
   */
  statusToWire(list: readonly ConnectorStatus[]): unknown;
}

/** Background embedding's progress (the `embedProgress` hook). */
export interface EmbedBatch {
  /** The embedder's model (`openai:text-embedding-3-small`). */
  model: string;
  /** Chunks this step embedded and wrote: a batch's; 0 when a pass starts or ends. */
  chunks: number;
  /**
   * Chunks of this pass not embedded yet: the pass's pending count at its start; 0 once it finished (what a failed pass
   * left stays).
   */
  waiting: number;
}

/**
 * live-index's hooks (sync, observation only: the metrics plugin). A tap's error is logged and never stops the live
 * index; runs of `kbctx sync` and `kbctx embed` in another process are not seen.
 * - `syncRun`: the report of each connector run the server makes (start-up, schedule, watcher,
 *   `POST /sync/:connector`), failed ones included, after the run.
 * - `embedProgress`: background embedding, when a pass starts, after each batch it writes, and when it ends (ADR 0226).
 */
export const liveIndexHooks = defineExtensionPoint({
  id: 'live-index',
  hooks: () => ({
    syncRun: new SyncHook<[SyncReport]>(['report'], 'syncRun'),
    embedProgress: new SyncHook<[EmbedBatch]>(['batch'], 'embedProgress'),
  }),
  tapTimeoutMs: { syncRun: 0, embedProgress: 0 },
});

export type LiveIndexHooks = ReturnType<typeof liveIndexHooks.hooks>;

/** live-index's hooks in this kernel: `getLiveIndexHooks(kernel).syncRun.tap('my-plugin', (report) => …)`. */
export const getLiveIndexHooks = (kernel: Pick<PluginKernel, 'hooksOf'>): LiveIndexHooks =>
  kernel.hooksOf(liveIndexHooks);

/** Provided by the live-index plugin; absent (`"!live-index"`): the server neither watches nor schedules. */
export const liveIndexService = createServiceRef<LiveIndexService>('kbctx.live-index');

export type { SyncReport, EmbedProgress, EmbedReport } from '../../core/api/plugin.ts';

/** `[sync]` (the live index's section, ADR 0250): the schedule of a connector that sets no `sync_interval`. */
export interface SyncConfig {
  /** Seconds between scheduled runs (0: none); default 900. */
  readonly intervalSecs: number;
}

/** The config's `[sync]`. */
export const syncConfigOf = (config: Config): SyncConfig => sectionOf<SyncConfig>(config, 'sync');

/** A connector's schedule in seconds (0: none): its own `sync_interval`, else `[sync] interval`. */
export const syncIntervalOf = (config: Config, label: string): number =>
  config.syncIntervals[label] ?? syncConfigOf(config).intervalSecs;
