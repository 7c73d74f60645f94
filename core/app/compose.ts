// The composition root and the host's lifecycle (fastify's avvio, webpack's createCompiler + run):
// `openKbctx` applies the bundled plugins and provides the host's services; `ready()` applies the
// configured plugins and calls `boot` (where plugins load what they load: the Lua bridge its script tools,
// the extensions plugin its `[extensions] modules`), once. Every command and transport that runs plugins' parts
// awaits `ready()`; start-up stays small because what nothing asked for is imported on first use (ADR 0130). The
// tools and agents are collected by the plugins that run them (tool-registry, agents-inline; ADR 0254).
import type { Config } from '../config/types.ts';
import { configError } from '../domain/errors.ts';
import type { Collector } from '../hook-types.ts';
import type { Store } from '../store/store.ts';
import { Kernel } from '../kernel.ts';
import type { IndexServices } from '../plugin-context.ts';
import type { IndexAccess } from '../store/store-factory.ts';
import { applyBundledPlugins, applyConfiguredPlugins, hasConfiguredPlugins } from '../load/load-plugins.ts';
import { bundledPlugins, followConfig } from './bundled-set.ts';
import { hostService, type CollectedItems, type LoadFailure } from './host-service.ts';
import { indexService, indexToolsService, type IndexHost } from './index-service.ts';
import { check, indexHost } from './index-host.ts';
import { pipelineOf } from './plugin-pipeline.ts';
import { PerPluginCollector } from '../collector.ts';

/** The host: six members; everything else is a service (`kernel.services`), the index's as `index`. */
export interface Kbctx {
  readonly config: Config;
  /** The plugin host: its hooks, services and the loaded plugins (`kbctx plugins`). */
  readonly kernel: Kernel;
  readonly store: Store;
  /** The `kbctx.index` service: search and sync dependencies, connectors, the embedder, the store's engine. */
  readonly index: IndexHost;
  /**
   * Applies the configured plugins and calls `boot`, once (later calls return the same promise). A plugin that
   * cannot load rejects (config_error naming it); parts that failed to load (a broken script tool, extension module)
   * are returned, not thrown.
   */
  ready(): Promise<readonly LoadFailure[]>;
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
      collect: (hook, add) =>
        (kernel.hooks[hook] as { call(items: Collector<CollectedItems[typeof hook]>): void }).call(
          new PerPluginCollector((plugin, item) =>
            add(item, { plugin, contextFor: (signal) => kernel.pluginContext(plugin, signal) }),
          ),
        ),
      toolHooks: pipelineOf(kernel),
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
        return failures;
      })()),
    close: async () => {
      await kernel.shutdown('close');
      return index.store.close();
    },
  };
}

function noIndexTools(): never {
  throw configError(
    'ctx.search, ctx.get and ctx.sources answer with the built-in tools: the tools-builtin plugin is not loaded ' +
      "(remove '!tools-builtin' from plugins)",
  );
}
