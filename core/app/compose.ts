// The composition root: the one place that picks concrete adapters (SQLite store, connectors,
// later embedders, Lua runtime, registries) and wires them into the app's use-cases.
import path from 'node:path';
import type { Config } from '../config/types.ts';
import { requireEnvFor } from '../config/require-env.ts';
import { guardConnector } from './part-guards.ts';
import type { Connector } from '../connectors/connector.ts';
import { extractionOf } from './plugin-extraction.ts';
import { fileExtraction } from '../file-extraction.ts';
import { configError, KbctxError } from '../domain/errors.ts';
import { configuredConnectors, type ConnectorRef } from './select-connectors.ts';
import type { SearchDeps, SemanticSearch } from './search.ts';
import { SearchCache } from './search-cache.ts';
import type * as Agents from './agents.ts';
import { ToolRegistry } from './tools.ts';
import type { SyncDeps, SyncReport } from './sync.ts';
import type * as PluginEmbedder from '../embed/plugin-embedder.ts';
import type { Embedder } from '../embed/embedder.ts';
import { embeddingProviders } from '../embed/embedding-providers.ts';
import type { Store } from '../store/store.ts';
import { deferredStore, openStore } from '../store/open-store.ts';
import { VERSION } from '../version.ts';
import type { LiveIndexHost } from '../live-index.ts';
import { extensionsService } from '../extensions-service.ts';
import { Kernel } from '../kernel.ts';
import type { IndexServices } from '../plugin-context.ts';
import { applyBundledPlugins, applyConfiguredPlugins, hasConfiguredPlugins } from '../load/load-plugins.ts';
import { bundledPlugins, bundledProviders } from './bundled-set.ts';
import { isIncrementalConnector, type IndexAccess } from '../hook-types.ts';
import { hostService, type LoadFailure } from './host-service.ts';
import { indexService, indexToolsService } from './index-service.ts';
import { pipelineOf } from './plugin-pipeline.ts';
import { requireOwn } from '../load/require-own.ts';
import { checkedConnectorOptions } from '../load/connector-options.ts';
import type * as PluginParts from './plugin-parts.ts';
import { PerPluginCollector } from '../collector.ts';
import { followConfig } from './config-follower.ts';
import { requireScriptPlugins } from './require-script-plugins.ts';
import { inlineAgentsService } from './inline-agents-service.ts';

export interface Kbctx {
  readonly config: Config;
  readonly store: Store;
  /** How the store plugin names its engine: 'SQLite', 'PostgreSQL', or a plugin's label. */
  readonly engine: string;
  /** The schema version the store plugin migrates to (`kbctx init`); null when it does not say. */
  schemaVersion(): Promise<number | null>;
  /**
   * Another index than the configured one (`kbctx migrate --to`): a postgres:// URL (its mirror
   * beside [db] path, as for replicas) or an SQLite file, with the configured engine settings.
   */
  /** The store at `target`: a postgres:// URL, else a path for `engine` (default: an SQLite file). */
  openStoreAt(target: string, engine?: string): Store;
  /** Connector modules (and the Lua runtime) are imported on first use, so commands that only read the index start fast. */
  createConnector(ref: ConnectorRef): Promise<Connector>;
  connectorLabels(): string[];
  searchDeps(): SearchDeps;
  /** `lockWait`: how long a sync waits while another process (the server) syncs the same connector (default 10 min). */
  syncDeps(onProgress?: SyncDeps['onProgress'], lockWait?: { timeoutMs: number; onWait?: (message: string) => void }): SyncDeps;
  /** The configured embedding provider, built on first use; null when [embedding] is disabled. */
  embedder(): Embedder | null;
  /** The `[embedding] provider` names the loaded plugins answer for. */
  embeddingProviders(): string[];
  /** Built once per process: built-in tools plus script/registry tools as they are added. */
  tools(): ToolRegistry;
  agents(): Agents.AgentRegistry;
  /** Loads the plugins and extensions; the Lua bridge reads the script tools and agents at boot. Idempotent; broken scripts and extensions are returned, not thrown. */
  loadScripts(): Promise<LoadFailure[]>;
  /** The plugin host: its hooks and the loaded plugins (`kbctx plugins`). */
  readonly kernel: Kernel;
  /** Imports and applies the configured plugins beyond the bundled set, once (no `boot`): enough to read their hooks, e.g. `commands`. */
  applyPlugins(): Promise<void>;
  /** Imports and applies the configured plugins beyond the bundled set, then calls `boot`, once; a broken plugin throws config_error naming it. */
  loadPlugins(): Promise<void>;
  /** Imports the `[extensions] modules` once, each applied as a plugin (its tools, agents and connector types through the hooks); modules that fail are returned. */
  loadExtensions(): Promise<LoadFailure[]>;
  /** What the live-index plugin runs for the server: every connector (watch specs when `watch`), sync under the server's lock, background embedding. */
  liveIndexHost(options: { watch: boolean | 'poll'; log: (line: string) => void }): Promise<LiveIndexHost>;
  close(): Promise<void>;
}

/** `access`: what the command needs of the index, asked when the store first opens (default `create`: see StoreOptions.access). */
export function openKbctx(given: Config, env: NodeJS.ProcessEnv = process.env, options: { access?: () => IndexAccess } = {}): Kbctx {
  const config = followConfig(given);
  const connectorLabels = (): string[] => configuredConnectors(config).map((c) => c.label);
  const cache = new SearchCache(config.retrieval.cacheSize);
  let embedderCache: Embedder | null | undefined;
  // The embedder and the agent registry are required when first asked for (a keyword search needs neither).
  const embedder = (): Embedder | null => (embedderCache ??= requireOwn<typeof PluginEmbedder>(import.meta.url, '../embed/plugin-embedder.ts').embedderFromPlugins(kernel, config.embedding, env, bundledProviders('embedder')));
  const semantic = config.embedding.provider === 'disabled' ? undefined : lazySemanticSearch(() => embedder() as Embedder);
  const knownSources = async (): Promise<string[]> => [...new Set([...connectorLabels(), ...(await store.sources()).map((s) => s.source)])].sort();
  // Plugins' ctx.search/get/sources are the built-in tools' bodies: tools-builtin's service (dropped: a config error).
  const kernel: Kernel = new Kernel({ services: (): IndexServices => (kernel.services.has(indexToolsService) ? kernel.services.use(indexToolsService) : noIndexTools()) });
  const scriptFailures: LoadFailure[] = [];
  let extensionsLoaded: Promise<LoadFailure[]> | undefined;
  kernel.services.provide(hostService, { config, env, check: (part) => check(config, part), reportFailures: (f) => void scriptFailures.push(...f) }, 'kbctx');
  kernel.services.provide(fileExtraction, extractionOf(kernel), 'kbctx');
  kernel.services.provide(inlineAgentsService, { agents: config.agents.inline, check: (name) => check(config, `agents.inline.${name}`) }, 'kbctx');
  const BUNDLED_PLUGINS = bundledPlugins();
  applyBundledPlugins(kernel, BUNDLED_PLUGINS, config.plugins);
  let pluginsApplied: Promise<void> | undefined;
  const applyPlugins = (): Promise<void> => (pluginsApplied ??= applyConfiguredPlugins(kernel, BUNDLED_PLUGINS, config.plugins));
  // The store comes from the plugin tapping createStore.for([db] engine); one from a configured plugin opens once it is applied.
  const applyConfigured = hasConfiguredPlugins(config.plugins, BUNDLED_PLUGINS) ? applyPlugins : undefined;
  const opened = deferredStore(kernel, config.db, { bundled: bundledProviders('store'), applyConfigured, access: options.access });
  const { store, locks } = opened;
  const pipeline = pipelineOf(kernel);
  const searchDeps = (): SearchDeps => ({ store, retrieval: config.retrieval, semantic, cache, knownSources, pipeline, embeddingProviders: () => embeddingProviders(kernel) });
  kernel.services.provide(indexService, { store, retrieval: config.retrieval, searchDeps, connectorLabels }, 'kbctx');
  let pluginsLoaded: Promise<void> | undefined;
  const contextFor = (plugin: string) => (signal: AbortSignal) => kernel.pluginContext(plugin, signal);
  const agentContext = kernel.pluginContext('kbctx');
  // The plugins `[extensions] modules` became (applied last): a name another plugin added stays that plugin's.
  const extensionPlugins = new Set<string>();
  const collectTools = (registry: ToolRegistry): void => {
    const taken = new Set<string>();
    kernel.hooks.tools.call(
      new PerPluginCollector((plugin, def) => {
        if (extensionPlugins.has(plugin) && taken.has(def.name)) return;
        registry.register(pluginParts().toolFromPlugin(def, contextFor(plugin), config.extensions.timeoutSecs, plugin));
        if (!extensionPlugins.has(plugin)) taken.add(def.name);
      }),
    );
  };
  const collectAgents = (registry: Agents.AgentRegistry): void => {
    const taken = new Set<string>();
    kernel.hooks.agents.call(
      new PerPluginCollector((plugin, def) => {
        if (extensionPlugins.has(plugin) && taken.has(def.name)) return;
        registry.register(pluginParts().agentFromPlugin(def, contextFor(plugin), config.extensions.timeoutSecs, agentContext));
        if (!extensionPlugins.has(plugin)) taken.add(def.name);
      }),
    );
  };
  let tools: ToolRegistry | undefined;
  let agents: Agents.AgentRegistry | undefined;
  const connectorFor = (ref: ConnectorRef): Promise<Connector> => createConnector({ kernel, config }, ref);
  return {
    config,
    store,
    get engine() {
      return opened.label;
    },
    schemaVersion: async () => (opened.schemaVersion ? await opened.schemaVersion() : null),
    openStoreAt: (target, engine) => {
      const url = /^postgres(ql)?:\/\//i.test(target) ? target : null;
      const db = { ...config.db, engine: url === null ? (engine ?? 'sqlite') : 'postgres', url, path: url === null ? target : config.db.path };
      return openStore(kernel, db, { bundled: bundledProviders('store') }).store;
    },
    kernel,
    createConnector: async (ref) => guardConnector(await connectorFor(ref), check(config, `connectors.${ref.type}.${ref.name}`)),
    connectorLabels,
    searchDeps,
    embeddingProviders: () => embeddingProviders(kernel),
    syncDeps: (onProgress, lockWait) => ({
      store,
      chunking: config.chunking,
      pipeline,
      onProgress,
      afterConnector: config.embedding.provider === 'disabled' ? undefined : lazyEmbedAfterSync(store, embedder),
      lock: (label) => locks.wait(label, '`kbctx sync`', lockWait ?? { timeoutMs: 600_000 }),
    }),
    embedder,
    tools() {
      if (!tools) {
        tools = new ToolRegistry(pipeline);
        collectTools(tools);
      }
      return tools;
    },
    agents() {
      if (!agents) {
        agents = new (requireOwn<typeof Agents>(import.meta.url, './agents.ts').AgentRegistry)();
        collectAgents(agents);
      }
      return agents;
    },
    applyPlugins,
    loadPlugins() {
      pluginsLoaded ??= (async () => {
        await applyPlugins();
        await kernel.hooks.boot.promise(kernel.callContext());
        // What plugins applied or loaded at boot after the registries were built (script tools) adds now.
        if (tools) collectTools(tools);
        if (agents) collectAgents(agents);
      })();
      return pluginsLoaded;
    },
    loadExtensions() {
      extensionsLoaded ??= (async () => {
        await this.loadPlugins();
        requireScriptPlugins(config, kernel.applied(), bundledPlugins());
        if (config.extensions.modules.length === 0) return [];
        if (!kernel.services.has(extensionsService)) throw configError('[extensions] modules: compiled extensions are loaded by the plugin extensions, which is not loaded (check plugins in the config)');
        const registry = this.tools();
        const context = { search: (p: object) => registry.call('search', p), get: (id: string) => registry.call('get', { id }), sources: () => registry.call('sources', {}) };
        const reservedTools = new Set(registry.list().filter((t) => t.builtin).map((t) => t.name));
        const loaded = await kernel.services.use(extensionsService).load(config.extensions, { version: VERSION, context, reservedTools, warn });
        for (const { plugin, file } of loaded.plugins) {
          extensionPlugins.add(plugin.name);
          await kernel.apply(plugin, {}, 'path', file, file);
        }
        collectTools(registry);
        collectAgents(this.agents());
        return loaded.failures;
      })();
      return extensionsLoaded;
    },
    async loadScripts() {
      const extensionFailures = await this.loadExtensions();
      return [...extensionFailures, ...scriptFailures];
    },
    liveIndexHost: async ({ watch, log }) => {
      const [{ syncConnectors, failedReport }, { embedPending }, { createGlobFilter }] = await Promise.all([import('./sync.ts'), import('./embed.ts'), import('../connectors/globs.ts')]);
      const connectors = await Promise.all(
        configuredConnectors(config).map(async (ref) => {
          const fs = ref.type === 'filesystem' ? config.connectors.filesystem[ref.name] : undefined;
          const connector = await connectorFor(ref);
          const spec = watch && fs ? { root: fs.root, filter: createGlobFilter(fs.includeGlobs, fs.excludeGlobs), followSymlinks: fs.followSymlinks, poll: watch === 'poll' } : null;
          return { connector, intervalSecs: config.sync.connectorIntervals[ref.label] ?? config.sync.intervalSecs, watch: spec };
        }),
      );
      const syncDeps: SyncDeps = { store, chunking: config.chunking, pipeline, lock: (label) => locks.acquire(label, 'the server (`kbctx serve`)') };
      return {
        connectors,
        sync: (connector, { paths, skipIfSyncedWithinMs }) =>
          syncConnectors(syncDeps, [connector], { full: false, paths, skipIfSyncedWithinMs }).then((reports) => reports[0]!, (error: unknown) => failedReport(connector.label, error)),
        failedReport,
        embedding: config.embedding.provider === 'disabled' ? null : { embedder, embedPending: (e) => embedPending({ store, embedder: e }) },
        log,
      };
    },
    close: async () => {
      await kernel.shutdown('close');
      return store.close();
    },
  };
}

// Imported on first use: `kbctx search` without embeddings never loads them (ADR 0130).
/** The plugin tool/agent adapters (seven modules): required when a registry is first built, not by every command (ADR 0130). */
const pluginParts = () => requireOwn<typeof PluginParts>(import.meta.url, './plugin-parts.ts');

function lazySemanticSearch(embedder: () => Embedder): SemanticSearch {
  let semantic: Promise<SemanticSearch> | undefined;
  return {
    search: async (params, deps) => (await (semantic ??= import('./semantic-search.ts').then((m) => m.createSemanticSearch(embedder)))).search(params, deps),
  };
}

function lazyEmbedAfterSync(store: Store, embedder: () => Embedder | null): (report: SyncReport) => Promise<void> {
  let after: Promise<(report: SyncReport) => Promise<void>> | undefined;
  return async (report) => (await (after ??= import('./embed-after-sync.ts').then((m) => m.embedAfterSync(store, embedder))))(report);
}

/** The check for one part of the config (fails naming an unset `${VAR}` it uses). */
const check = (config: Config, part: string): (() => void) | undefined => (config.unsetEnv?.[part] ? () => requireEnvFor(config, part) : undefined);

interface ConnectorDeps {
  kernel: Kernel;
  config: Config;
}

/** A configured connector from the plugin tapping `createConnector.for(type)` (`[extensions] modules` included: each is a plugin). */
async function createConnector({ kernel, config }: ConnectorDeps, ref: ConnectorRef): Promise<Connector> {
  const options = checkedConnectorOptions(kernel, ref.type, ref.name) ?? connectorOptions(config, ref);
  if (!options) throw new KbctxError('not_found', `connector ${ref.label} is not configured`);
  const hook = kernel.hooks.createConnector.get(ref.type);
  if (hook?.isUsed()) {
    const instance = { type: ref.type, name: ref.name, options: { ...options }, dataDir: path.dirname(config.db.path), baseDir: config.baseDir };
    const impl = await hook.promise(instance, kernel.callContext());
    if (impl) {
      if (isIncrementalConnector(impl)) return impl;
      const { connectorFromPlugin } = await import('./plugin-connector.ts');
      return connectorFromPlugin(impl, instance, (signal) => kernel.pluginContext(kernel.tappedKeys('createConnector').get(ref.type)?.[0] ?? ref.type, signal), config.extensions.timeoutSecs, warn);
    }
  }
  return unavailable(ref);
}

/** Item warnings of plugin and extension connectors (a bad item is skipped). */
const warn = (message: string): void => void process.stderr.write(`warning: ${message}\n`);

/** The section of a configured connector: validated for the built-in types, as written for others. */
function connectorOptions(config: Config, ref: ConnectorRef): Readonly<Record<string, unknown>> | undefined {
  const builtin = (config.connectors as unknown as Record<string, Record<string, object> | undefined>)[ref.type];
  return (config.connectors.extension[ref.type]?.[ref.name] ?? builtin?.[ref.name]) as Readonly<Record<string, unknown>> | undefined;
}

/** A configured connector type no plugin or extension provides: its sync fails with a clear message. */
function unavailable(ref: ConnectorRef): Connector {
  const plugin = bundledProviders('connector')[ref.type];
  const message = plugin
    ? `${ref.label}: the ${ref.type} connector is provided by the plugin ${plugin}, which is not loaded (check plugins in the config)`
    : `${ref.label}: no loaded plugin or extension provides the connector type '${ref.type}' (check plugins and [extensions] modules)`;
  return { label: ref.label, type: ref.type, scan: () => Promise.reject(new KbctxError('config_error', message)) };
}

function noIndexTools(): never {
  throw configError("ctx.search, ctx.get and ctx.sources answer with the built-in tools: the tools-builtin plugin is not loaded (remove '!tools-builtin' from plugins)");
}
