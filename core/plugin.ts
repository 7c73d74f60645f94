// The plugin contract: what a plugin author writes (docs/plugins.md). A plugin is a plain object
// with a name, a version, the kernel API range it was written for and `apply`, which only taps
// hooks and provides services; work happens when the hooks are called.
import type { TapOnlyHooks } from './hooks.ts';
import type { PluginLogger } from './plugin-context.ts';
import type { ServiceRef } from './services.ts';
import type { ExtensionPoint, HookSet } from './extension-point.ts';
import type { ConfigSection, StoreConfigSection } from './config/config-section.ts';

export type JsonSchema = Record<string, unknown>;

export interface PluginMeta {
  /**
   * Unique. Every tap made in `apply` is attributed to it, whatever the tap's own name (errors show a different one:
   * `plugin 'acme' (tap 'acme-redact')`).
   */
  name: string;
  version: string;
  /** Semver range of the kernel API the plugin was written for (`'^0.2'`); a mismatch is a clear error. */
  kbctx: string;
  /** Plugins applied before this one; a missing one or a cycle is an error. */
  dependencies?: string[];
  /** JSON Schema of `[plugin.<name>]`, checked with ajv (defaults applied) before `apply`. */
  optionsSchema?: JsonSchema;
  /**
   * The `[connectors.<type>.<name>]` tables of the connector types it provides, each checked against its
   * section's JSON Schema (defaults applied) when the config loads (bundled plugins) or the plugin is
   * applied (others), by one path (ADR 0250); an error names the key path and the plugin (ADR 0164).
   * `sync_interval` is the host's, on every table.
   */
  connectorConfigs?: Record<string, ConfigSection>;
  /**
   * The `[embedding]` keys of the providers it provides, beyond the ones every provider shares (`provider`,
   * `model`, `dims`, `batch_size`, `concurrency`): provider → section. Checked when the config loads
   * (bundled plugins; ADR 0178) or the plugin is applied (others, ADR 0241); the tap receives the result as
   * `EmbedderOptions.extra`.
   */
  embedderConfigs?: Record<string, ConfigSection>;
  /**
   * The `[db]` keys its store engines read, beyond the kernel's (`engine`, `path`, `url`): engine → section. Every
   * bundled store's keys are checked when the config loads, whichever engine is chosen (ADR 0239), a configured
   * plugin's when it is applied (ADR 0241); the section's `toConfig` returns the `StoreOptions` fields they become
   * (`pool_size` → `poolSize`). Its claims (`url` schemes, a `remotePath` predicate) choose the engine when `[db]`
   * names none.
   */
  storeConfigs?: Record<string, StoreConfigSection>;
  /**
   * Config sections it owns, Context Harness's names kept (`[server]`), read with `sectionOf`: top-level tables, or
   * (bundled plugins only) a form under a kernel table (`tools.script`). A configured plugin's wait for it to be
   * applied (ADR 0250).
   */
  configSections?: Record<string, ConfigSection>;
  /**
   * Optional, read before the plugin is applied (a hint naming a dropped bundled plugin). `kbctx plugins`
   * shows what the kernel derives from what the plugin really did (ADR 0180): an entry of a kind it
   * derives (`connector:git`, `tool:search`, `command:x`, …) that the plugin does not provide is a
   * warning there; others (`route:GET /x`) are shown as written.
   */
  provides?: string[];
}

export interface Plugin<O = Record<string, unknown>> extends PluginMeta {
  apply(kernel: PluginKernel, options: O): void | Promise<void>;
}

/** The kernel as one plugin sees it. */
export interface PluginKernel {
  readonly hooks: TapOnlyHooks;
  /** Named after the plugin. */
  readonly log: PluginLogger;
  /** The kernel API version (`KERNEL_API_VERSION`). */
  readonly version: string;
  provide<T>(ref: ServiceRef<T>, impl: T): void;
  use<T>(ref: ServiceRef<T>): T;
  /**
   * Another plugin's own hooks, through its contract entry (`plugins/<name>/api.ts`): the owner calls
   * them, others tap them. By id alone (`hooksOf<HttpHooks>('transport-http')`) once the owner is applied.
   */
  hooksOf<H extends HookSet>(point: ExtensionPoint<H> | string): H;
  /** Run at shutdown, last registered first. */
  onDispose(fn: () => void | Promise<void>): void;
}

// Named stages order the taps of one hook (tapable sorts by `stage`, ties keep registration order).
// First-party defaults tap at FALLBACK, so a user's plugin wins without `before`.
export const STAGE = Object.freeze({ FIRST: -1000, EARLY: -100, DEFAULT: 0, LATE: 100, FALLBACK: 1000 });

/** Identity, for types: `export default definePlugin({...})`. A plain object works the same. */
export const definePlugin = <O = Record<string, unknown>>(plugin: Plugin<O>): Plugin<O> => plugin;
