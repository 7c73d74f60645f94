// The composition root and the host's lifecycle (fastify's avvio, webpack's createCompiler + run):
// `openKbctx` applies the bundled plugins and provides the host's services; `ready()` applies the
// configured plugins, calls `boot` (where plugins load what they load: the Lua bridge its script tools,
// the extensions plugin its `[extensions] modules`) and collects the tools and agents, once. Every
// command and transport that runs plugins' parts awaits `ready()`; start-up stays small because what
// nothing asked for is imported on first use (ADR 0130).
import type { Config } from '../config/types.ts';
import { configError, notFound } from '../domain/errors.ts';
import type { AgentRegistry } from './agents.ts';
import type { ToolRegistry } from '../tools/tool-types.ts';
import type { Store } from '../store/store.ts';
import { Kernel } from '../kernel.ts';
import type { IndexServices } from '../plugin-context.ts';
import type { IndexAccess } from '../store/store-factory.ts';
import { applyBundledPlugins, applyConfiguredPlugins, hasConfiguredPlugins } from '../load/load-plugins.ts';
import { bundledPlugins, followConfig } from './bundled-set.ts';
import { hostService, type LoadFailure } from './host-service.ts';
import { agentsService, indexService, indexToolsService, toolsService, type IndexHost } from './index-service.ts';
import { check, DEFAULT_CALL_TIMEOUT_SECS, indexHost } from './index-host.ts';
import { pipelineOf } from './plugin-pipeline.ts';
import { PerPluginCollector } from '../collector.ts';

/** The host: eight members; everything else is a service (`kernel.services`), the index's as `index`. */
export interface Kbctx {
  readonly config: Config;
  /** The plugin host: its hooks, services and the loaded plugins (`kbctx plugins`). */
  readonly kernel: Kernel;
  readonly store: Store;
  /** The `kbctx.index` service: search and sync dependencies, connectors, the embedder, the store's engine. */
  readonly index: IndexHost;
  /**
   * Applies the configured plugins, calls `boot`, and collects the tools and agents, once (later calls
   * return the same promise). A plugin that cannot load rejects (config_error naming it); parts that
   * failed to load (a broken script tool, extension module) are returned, not thrown.
   */
  ready(): Promise<readonly LoadFailure[]>;
  /**
   * Every tool plugins add, built on first use (after `ready()`: configured plugins' too), in the registry the
   * tool-registry plugin provides (`kbctx.tools`; dropped: none).
   */
  tools(): ToolRegistry;
  /** Every agent plugins add, in the registry agents-inline provides (`kbctx.agents`; dropped: none). */
  agents(): AgentRegistry;
  /** Calls `shutdown` and the plugins' disposers, then closes the index. */
  close(): Promise<void>;
}

/**
 * `access`: what the command needs of the index, asked when the store first opens (default `create`: see
 * StoreOptions.access).
 */
export function openKbctx(
  given: Config,
  env: NodeJS.ProcessEnv = process.env,
  options: { access?: () => IndexAccess } = {},
): Kbctx {
  const config = followConfig(given);
  // Plugins' ctx.search/get/sources are the built-in tools' bodies: tools-builtin's service (dropped: a config error).
  const kernel: Kernel = new Kernel({
    services: (): IndexServices =>
      kernel.services.has(indexToolsService) ? kernel.services.use(indexToolsService) : noIndexTools(),
  });
  const failures: LoadFailure[] = [];
  const BUNDLED_PLUGINS = bundledPlugins();
  kernel.services.provide(
    hostService,
    {
      config,
      env,
      check: (part) => check(config, part),
      reportFailures: (f) => void failures.push(...f),
      plugins: () => kernel.plugins({ collect: true }),
      applyPlugin: (plugin, file) => kernel.apply(plugin, {}, 'path', file, file),
    },
    'kbctx',
  );
  applyBundledPlugins(kernel, BUNDLED_PLUGINS, config.plugins);
  let applied: Promise<void> | undefined;
  const applyConfigured = (): Promise<void> =>
    (applied ??= applyConfiguredPlugins(kernel, BUNDLED_PLUGINS, config.plugins));
  const index = indexHost(kernel, config, {
    env,
    access: options.access,
    applyConfigured: hasConfiguredPlugins(config.plugins, BUNDLED_PLUGINS) ? applyConfigured : undefined,
  });
  kernel.services.provide(indexService, index, 'kbctx');
  const contextFor = (plugin: string) => (signal: AbortSignal) => kernel.pluginContext(plugin, signal);
  let tools: ToolRegistry | undefined;
  let agents: AgentRegistry | undefined;
  // A later tool or agent of the same name replaces an earlier one: the taps' stages decide (ToolRegistry.register).
  const collectTools = (registry: ToolRegistry): void =>
    kernel.hooks.tools.call(new PerPluginCollector((plugin, def) => registry.add(def, contextFor(plugin), plugin)));
  const collectAgents = (registry: AgentRegistry): void =>
    kernel.hooks.agents.call(new PerPluginCollector((plugin, def) => registry.add(def, contextFor(plugin))));
  let readied: Promise<readonly LoadFailure[]> | undefined;
  return {
    config,
    kernel,
    store: index.store,
    index,
    ready: () =>
      (readied ??= (async () => {
        await applyConfigured();
        await kernel.hooks.boot.promise(kernel.callContext());
        // What plugins added at boot (script tools, extension modules' plugins) joins registries built before.
        if (tools) collectTools(tools);
        if (agents) collectAgents(agents);
        return failures;
      })()),
    tools() {
      if (!tools)
        collectTools(
          (tools = kernel.services.has(toolsService)
            ? kernel.services.use(toolsService).createRegistry(pipelineOf(kernel), DEFAULT_CALL_TIMEOUT_SECS)
            : noTools()),
        );
      return tools;
    },
    agents() {
      if (!agents)
        collectAgents(
          (agents = kernel.services.has(agentsService)
            ? kernel.services.use(agentsService).createRegistry(DEFAULT_CALL_TIMEOUT_SECS)
            : noAgents()),
        );
      return agents;
    },
    close: async () => {
      await kernel.shutdown('close');
      return index.store.close();
    },
  };
}

/**
 * Without tool-registry (its `kbctx.tools` runs every plugin's tools): none, and a tool a plugin adds says why, as an
 * agent does without agents-inline.
 */
function noTools(): ToolRegistry {
  const missing = (name: string): never => {
    throw configError(
      `tool '${name}' needs the tool-registry plugin, which runs every plugin's tools (remove '!tool-registry' from ` +
        'plugins)',
    );
  };
  return {
    register: (tool) => missing(tool?.name),
    add: (def) => missing(def?.name),
    has: () => false,
    get: (name) => {
      throw notFound(`unknown tool '${name}'; no tools are configured`);
    },
    list: () => [],
    call: async (name) => {
      throw notFound(`unknown tool '${name}'; no tools are configured`);
    },
  };
}

function noIndexTools(): never {
  throw configError(
    'ctx.search, ctx.get and ctx.sources answer with the built-in tools: the tools-builtin plugin is not loaded ' +
      "(remove '!tools-builtin' from plugins)",
  );
}

/** Without agents-inline (its `kbctx.agents` runs every plugin's agents): none, and an agent a plugin adds says why. */
function noAgents(): AgentRegistry {
  const get = (name: string): never => {
    throw notFound(`unknown agent '${name}'; no agents are configured`);
  };
  return {
    add: (def) => {
      throw configError(
        `agent '${def?.name}' needs the agents-inline plugin, which runs every plugin's agents (remove ` +
          `'!agents-inline' from plugins)`,
      );
    },
    list: () => [],
    get,
    resolve: async (name) => get(name),
  };
}
