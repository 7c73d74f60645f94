// The index service the host provides to plugins and commands (`kbctx.index`): the store and its
// engine, retrieval settings, search and sync dependencies, the configured connectors, the embedder.
// The built-in tools are made of it; the live index and the store commands use it. And the ref of the
// read services plugins' `ctx.search/get/sources` answer with, provided by tools-builtin.
import type { RetrievalConfig } from '../config/types.ts';
import type { Connector } from '../connectors/connector.ts';
import type { Embedder } from '../embed/embedder.ts';
import type { FileExtraction } from '../hook-types.ts';
import type { StoreOptions } from '../store/store-factory.ts';
import type { IndexServices } from '../plugin-context.ts';
import { createServiceRef } from '../services.ts';
import type { ConnectorLocks, Store } from '../store/store.ts';
import type { SearchCache, SearchDeps } from './search.ts';
import type { ConnectorRef } from './select-connectors.ts';
import type { SyncDeps } from './sync.ts';

export interface BuiltinDeps {
  store: Store;
  retrieval: RetrievalConfig;
  searchDeps: () => SearchDeps;
  connectorLabels: () => string[];
}

export interface IndexHost extends BuiltinDeps {
  /** How the store plugin names its engine: 'SQLite', 'PostgreSQL', or a plugin's label. */
  readonly engine: string;
  /** The schema version the store plugin migrates to (`kbctx init`); null when it does not say. */
  schemaVersion(): Promise<number | null>;
  /** The store's per-connector sync locks (the server holds them while it syncs). */
  readonly locks: ConnectorLocks;
  /**
   * Another index through the plugin tapping `createStore.for(engine)` (`kbctx migrate --to`): the configured [db]
   * settings but these.
   */
  openStore(target: Pick<StoreOptions, 'engine' | 'path' | 'url'>): Store;
  /** A configured connector, its module (and the Lua runtime) imported on first use. */
  createConnector(ref: ConnectorRef): Promise<Connector>;
  /** `lockWait`: how long a sync waits while another process (the server) syncs the same connector (default 10 min). */
  syncDeps(
    onProgress?: SyncDeps['onProgress'],
    lockWait?: { timeoutMs: number; onWait?: (message: string) => void },
  ): SyncDeps;
  /** The configured embedding provider, built on first use; null when [embedding] is disabled. */
  embedder(): Embedder | null;
  /** The `[embedding] provider` names the loaded plugins answer for. */
  embeddingProviders(): string[];
  /**
   * The `extract.for(extension)` taps, for the file connectors (the extract-text plugin's `fileExtraction` service).
   */
  extract: FileExtraction;
}

export const indexService = createServiceRef<IndexHost>('kbctx.index');

/** `ctx.search`, `ctx.get`, `ctx.sources`: provided by tools-builtin; without it a plugin's call is a config error. */
export const indexToolsService = createServiceRef<IndexServices>('kbctx.index-tools');

/** Makes the index host's search cache, `[retrieval] cache_size` entries at most (0: nothing is kept). */
export interface SearchCacheRuntime {
  createCache(capacity: number): SearchCache;
}

/** The search cache (ADR 0197): provided by the search-cache plugin (ADR 0251); none: searches are not cached. */
export const searchCacheService = createServiceRef<SearchCacheRuntime>('kbctx.search-cache');

// The engine's one observation point (ADR 0222), here because the index host reads it (a module of its own cost
// `kbctx search` one more at start-up): search and sync run their inner stages (keyword, vector, fusion; a connector's
// scan, each document, store writes, embedding) through an optional `StageObserver`, which a tracing or timing plugin
// provides as `kbctx.stage-observer`. Core names the stages and imports no tracer.

/** A stage's attributes: a few scalars (a source label, a mode, a count), no document text. */
export type StageAttributes = Readonly<Record<string, string | number | boolean>>;

/**
 * Watches the engine's stages. `stage` calls `run` exactly once, at once, and returns what it returns unchanged (a
 * promise: the stage ends when it settles; a throw or rejection passes through). Stages nest as they run: one started
 * inside another's `run` (also across `await`s) is its child. It must not throw of its own.
 */
export interface StageObserver {
  stage<T>(name: string, attributes: StageAttributes, run: () => T): T;
}

/** The service a plugin provides to observe the stages (one provider; none: the stages run unobserved). */
export const stageObserverService = createServiceRef<StageObserver>('kbctx.stage-observer');

/** No observer: each stage just runs. */
export const UNOBSERVED: StageObserver = Object.freeze({
  stage: <T>(_n: string, _a: StageAttributes, run: () => T): T => run(),
});
