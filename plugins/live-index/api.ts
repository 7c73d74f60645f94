// The live index's contract (the live-index plugin implements it): the plugin provides the
// `kbctx.live-index` service; `kbctx serve` opens it (watching or not) and hands the running index to
// the surfaces. The plugin builds its LiveIndexHost (connectors, sync under the server's lock,
// embedding) from the host's `kbctx.index` service. Types, one ref, and its hooks (`syncRun`).
import { SyncHook } from 'tapable';
import {
  createServiceRef,
  defineExtensionPoint,
  type PluginKernel,
  type Connector,
  type ConnectorStatus,
  type SyncControl,
  type SyncCounts,
  type SyncState,
  type EmbedReport,
  type Embedder,
  type SyncReport,
  type WatchTarget,
} from '../../core/api/plugin.ts';

// The status and trigger types are the `kbctx.serve` contract's (core), which hands the live index to the surfaces.
export type { ConnectorStatus, SyncControl, SyncCounts, SyncState };

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
  /** Background embedding; null when [embedding] is disabled. */
  embedding: { embedder(): Embedder | null; embedPending(embedder: Embedder): Promise<EmbedReport> } | null;
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

/**
 * live-index's hooks. `syncRun` (sync, observation only: the metrics plugin): called with the report of each
 * connector run the server makes (start-up, schedule, watcher, `POST /sync/:connector`), failed ones included, after
 * the run. A tap's error is logged and never stops the live index. Runs of `kbctx sync` in another process are not
 * seen.
 */
export const liveIndexHooks = defineExtensionPoint({
  id: 'live-index',
  hooks: () => ({ syncRun: new SyncHook<[SyncReport]>(['report'], 'syncRun') }),
  tapTimeoutMs: { syncRun: 0 },
});

export type LiveIndexHooks = ReturnType<typeof liveIndexHooks.hooks>;

/** live-index's hooks in this kernel: `getLiveIndexHooks(kernel).syncRun.tap('my-plugin', (report) => …)`. */
export const getLiveIndexHooks = (kernel: Pick<PluginKernel, 'hooksOf'>): LiveIndexHooks =>
  kernel.hooksOf(liveIndexHooks);

/** Provided by the live-index plugin; absent (`"!live-index"`): the server neither watches nor schedules. */
export const liveIndexService = createServiceRef<LiveIndexService>('kbctx.live-index');

export type { SyncReport, EmbedReport } from '../../core/api/plugin.ts';
