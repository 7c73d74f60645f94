// The `kbctx.index` service the host builds (index-service.ts): the store the config selects, search
// and sync dependencies, the configured connectors, the embedder. Heavy parts are imported on first
// use: a keyword search loads no embedder, semantic search or connector module (ADR 0130).
import type { Config } from '../config/types.ts';
import { requireEnvFor } from '../config/require-env.ts';
import type { Connector } from '../connectors/connector.ts';
import { KbctxError } from '../domain/errors.ts';
import type * as PluginEmbedder from '../embed/plugin-embedder.ts';
import type { Embedder } from '../embed/embedder.ts';
import type * as EmbeddingProviders from '../embed/embedding-providers.ts';
import type * as ConfiguredSections from '../config/configured-sections.ts';
import { isIncrementalConnector } from '../connectors/connector.ts';
import type { IndexAccess } from '../store/store-factory.ts';
import type { Kernel } from '../kernel.ts';
import { requireOwn } from '../load/require-own.ts';
import { deferredStore, openStore } from '../store/open-store.ts';
import path from 'node:path';
import type { Store } from '../store/store.ts';
import { bundledProviders } from './bundled-set.ts';
import { guardConnector } from './part-guards.ts';
import { pipelineOf } from './plugin-pipeline.ts';
import type { SearchCache, SearchDeps, SemanticSearch } from './search.ts';
import { searchCacheService, stageObserverService, type IndexHost, type StageObserver } from './index-service.ts';
import { configuredConnectors, type ConnectorRef } from './select-connectors.ts';
import type { SyncReport } from './sync.ts';
import { DEFAULT_CALL_TIMEOUT_SECS } from './run-with-deadline.ts';

export interface IndexHostOptions {
  env: NodeJS.ProcessEnv;
  /** What the command needs of the index, asked when the store first opens. */
  access?: (() => IndexAccess) | undefined;
  /** Applies the configured plugins; absent when the config names none (a store one of them provides waits for it). */
  applyConfigured?: (() => Promise<void>) | undefined;
}

export function indexHost(kernel: Kernel, config: Config, options: IndexHostOptions): IndexHost {
  const connectorLabels = (): string[] => configuredConnectors(config).map((c) => c.label);
  let cache: SearchCache | undefined;
  // Made once, by the plugin providing `kbctx.search-cache` (read per call until then: it may be applied later).
  const searchCache = (): SearchCache | undefined =>
    (cache ??= kernel.services.has(searchCacheService)
      ? kernel.services.use(searchCacheService).createCache(config.retrieval.cacheSize)
      : undefined);
  let embedderCache: Embedder | null | undefined;
  // The embedder is required when first asked for (a keyword search needs none).
  const embedder = (): Embedder | null =>
    (embedderCache ??= requireOwn<typeof PluginEmbedder>(
      import.meta.url,
      '../embed/plugin-embedder.ts',
    ).embedderFromPlugins(kernel, embeddingOf(kernel, config), options.env, bundledProviders('embedder')));
  const semantic =
    config.embedding.provider === 'disabled' ? undefined : lazySemanticSearch(() => embedder() as Embedder);
  const knownSources = async (): Promise<string[]> =>
    [...new Set([...connectorLabels(), ...(await store.sources()).map((s) => s.source)])].sort();
  // The store comes from the plugin tapping createStore.for([db] engine); one from a configured plugin opens once it is
  // applied.
  const opened = deferredStore(kernel, config.db, {
    bundled: bundledProviders('store'),
    applyConfigured: options.applyConfigured,
    access: options.access,
    configured: options.applyConfigured && (() => configured().configuredStoreOptions(kernel)),
  });
  const { store, locks } = opened;
  const pipeline = pipelineOf(kernel);
  // Read per call, like the pipeline: a plugin that provides it may be applied after the index opened.
  const observe = (): StageObserver | undefined =>
    kernel.services.has(stageObserverService) ? kernel.services.use(stageObserverService) : undefined;
  const searchDeps = (): SearchDeps => ({
    store,
    retrieval: config.retrieval,
    semantic,
    cache: searchCache(),
    knownSources,
    pipeline,
    embeddingProviders: () => providersOf(kernel),
    observe: observe(),
  });
  return {
    store,
    retrieval: config.retrieval,
    searchDeps,
    connectorLabels,
    get engine() {
      return opened.label;
    },
    schemaVersion: async () => (opened.schemaVersion ? await opened.schemaVersion() : null),
    locks,
    openStore: (target) => openStore(kernel, { ...config.db, ...target }, { bundled: bundledProviders('store') }).store,
    createConnector: async (ref) =>
      guardConnector(await createConnector(kernel, config, ref), check(config, `connectors.${ref.type}.${ref.name}`)),
    syncDeps: (onProgress, lockWait) => ({
      store,
      chunking: config.chunking,
      pipeline,
      observe: observe(),
      onProgress,
      afterConnector: config.embedding.provider === 'disabled' ? undefined : lazyEmbedAfterSync(store, embedder),
      lock: (label) => locks.wait(label, '`kbctx sync`', lockWait ?? { timeoutMs: 600_000 }),
    }),
    embedder,
    embeddingProviders: () => providersOf(kernel),
    extract: (request) => pipeline.extract(request),
  };
}

/** What the configured plugins' sections made (ADR 0241): required once they are applied, which imported it. */
const configured = (): typeof ConfiguredSections =>
  requireOwn<typeof ConfiguredSections>(import.meta.url, '../config/configured-sections.ts');

/**
 * `[embedding]`, the provider's own keys as its configured plugin's `embedderConfigs` made them, if it declares any.
 */
const embeddingOf = (kernel: Kernel, config: Config): Config['embedding'] =>
  config.plugins.owned?.left.embedding
    ? { ...config.embedding, extra: configured().configuredEmbedderOptions(kernel) ?? config.embedding.extra }
    : config.embedding;

/** The check for one part of the config (fails naming an unset `${VAR}` it uses). */
export const check = (config: Config, part: string): (() => void) | undefined =>
  config.unsetEnv?.[part] ? () => requireEnvFor(config, part) : undefined;

// Imported on first use: `kbctx search` without embeddings never loads them (ADR 0130).
function lazySemanticSearch(embedder: () => Embedder): SemanticSearch {
  let semantic: Promise<SemanticSearch> | undefined;
  return {
    search: async (params, deps) =>
      (await (semantic ??= import('./semantic-search.ts').then((m) => m.createSemanticSearch(embedder)))).search(
        params,
        deps,
      ),
  };
}

function lazyEmbedAfterSync(store: Store, embedder: () => Embedder | null): (report: SyncReport) => Promise<void> {
  let after: Promise<(report: SyncReport) => Promise<void>> | undefined;
  return async (report) =>
    (await (after ??= import('./embed-after-sync.ts').then((m) => m.embedAfterSync(store, embedder))))(report);
}

/**
 * A configured connector from the plugin tapping `createConnector.for(type)` (`[extensions] modules` included: each is
 * a plugin).
 */
async function createConnector(kernel: Kernel, config: Config, ref: ConnectorRef): Promise<Connector> {
  const { checkedConnectorOptions } = await import('../config/configured-sections.ts');
  const options = checkedConnectorOptions(kernel, ref.type, ref.name) ?? connectorOptions(config, ref);
  if (!options) throw new KbctxError('not_found', `connector ${ref.label} is not configured`);
  const hook = kernel.hooks.createConnector.get(ref.type);
  if (hook?.isUsed()) {
    const instance = {
      type: ref.type,
      name: ref.name,
      options: { ...options },
      dataDir: localDataDir(config.db.path, config.baseDir),
      baseDir: config.baseDir,
    };
    const impl = await hook.promise(instance, kernel.callContext());
    if (impl) {
      if (isIncrementalConnector(impl)) return impl;
      const { connectorFromPlugin } = await import('./plugin-connector.ts');
      return connectorFromPlugin(
        impl,
        instance,
        (signal) => kernel.pluginContext(kernel.tappedKeys('createConnector').get(ref.type)?.[0] ?? ref.type, signal),
        DEFAULT_CALL_TIMEOUT_SECS,
        warn,
      );
    }
  }
  return unavailable(ref);
}

/**
 * The folder for a configuration's local files (caches): beside the index, or `<project>/.kbctx` when `[db] path` is
 * not a local path (a store kept it as written: object storage, ADR 0231); local paths are absolute by then.
 */
const localDataDir = (dbPath: string, baseDir: string): string =>
  path.isAbsolute(dbPath) ? path.dirname(dbPath) : path.join(baseDir, '.kbctx');

/** Item warnings of plugin and extension connectors (a bad item is skipped). */
const warn = (message: string): void => void process.stderr.write(`warning: ${message}\n`);

/** The section of a configured connector: as its plugin's `toConfig` made it for the bundled types, else as written. */
function connectorOptions(config: Config, ref: ConnectorRef): Readonly<Record<string, unknown>> | undefined {
  return config.connectors[ref.type]?.[ref.name] as Readonly<Record<string, unknown>> | undefined;
}

/** A configured connector type no plugin or extension provides: its sync fails with a clear message. */
function unavailable(ref: ConnectorRef): Connector {
  const plugin = bundledProviders('connector')[ref.type];
  const message = plugin
    ? `${ref.label}: the ${ref.type} connector is provided by the plugin ` +
      `${plugin}, which is not loaded (check plugins in the config)`
    : `${ref.label}: no loaded plugin or extension provides the connector ` +
      `type '${ref.type}' (check plugins and [extensions] modules)`;
  return { label: ref.label, type: ref.type, scan: () => Promise.reject(new KbctxError('config_error', message)) };
}

/** The `[embedding] provider` names, for an error message only: required then, not at start-up (ADR 0130). */
const providersOf = (kernel: Kernel): string[] =>
  requireOwn<typeof EmbeddingProviders>(import.meta.url, '../embed/embedding-providers.ts').embeddingProviders(kernel);
