// What a sync is given: the store, the pipeline's taps and the caller's hooks (SyncDeps), the pass's options
// (SyncOptions) and what it reports as it goes (SyncProgress). Types only.
import type { Pipeline } from '../plugin-pipeline.ts';
import type { StageObserver } from '../index-service.ts';
import type { PluginError } from '../../plugin-error.ts';
import type { ChunkingConfig } from '../../config/types.ts';
import type { Store } from '../../store/store.ts';
import type { SyncReport } from './report.ts';

export interface SyncProgress {
  connector: string;
  done: number;
  total: number;
}

export interface SyncDeps {
  store: Store;
  chunking: ChunkingConfig;
  /**
   * Plugins' `document` and `chunk` taps; without a `chunk` (chunker-default dropped and no other chunker) a document
   * fails with a config error.
   */
  pipeline?: Pick<Pipeline, 'document' | 'chunk'> | undefined;
  onProgress?: ((p: SyncProgress) => void) | undefined;
  /** Called after a connector's documents are written (the embeddings layer embeds new chunks here). */
  afterConnector?: ((report: SyncReport) => Promise<void>) | undefined;
  /**
   * Told of each document a plugin's tap failed (also counted and noted): the CLI prints the stack under KBCTX_DEBUG.
   */
  onItemError?: ((sourceId: string, error: PluginError) => void) | undefined;
  /**
   * Takes the connector's cross-process writer lock (throws `conflict` when another process holds it); returns its
   * release.
   */
  lock?: ((label: string) => Promise<() => void>) | undefined;
  /**
   * Watches the stages (`sync`, per connector `sync.connector` with its `sync.scan`, `sync.document` (the `document`
   * and `chunk` taps, `sync.store_write`), `sync.delete` and `sync.embed`: index-service.ts StageObserver); none:
   * unobserved.
   */
  observe?: StageObserver | undefined;
}

export interface SyncOptions {
  full: boolean;
  /** Only these source ids changed (a watcher's hint); connectors that cannot narrow their scan ignore it. */
  paths?: readonly string[] | undefined;
  /** Count what would change without writing anything (no documents, deletions, checkpoints or embeddings). */
  dryRun?: boolean | undefined;
  /** At most this many new or changed items per connector. */
  limit?: number | undefined;
  /** ISO instant: only items updated at or after it. */
  since?: string | undefined;
  /**
   * A scheduled run: skip a connector that any process (another replica) synced within this many ms,
   * read after taking its lock, so replicas sharing one store never repeat each other's schedule.
   */
  skipIfSyncedWithinMs?: number | undefined;
}
