// The kernel: owns the hooks, applies plugins (each sees only its tap-only view), records what each
// plugin tapped and provides, and runs disposers last-in-first-out at shutdown. It knows no plugin.
import type * as ClosestName from './domain/closest-name.ts';
import { configError, KbctxError } from './domain/errors.ts';
import { createHooks, TAP_TIMEOUT_MS, type HookName, type KernelHooks, type TapOnlyHooks } from './hooks.ts';
import {
  CallContext,
  stderrLogger,
  type IndexServices,
  type PluginContext,
  type PluginLogger,
} from './plugin-context.ts';
import type { Plugin, PluginKernel } from './plugin.ts';
import { ServiceRegistry } from './services.ts';
import { EXTENSION_TAP_TIMEOUT_MS, type ExtensionPoint, type HookSet } from './extension-point.ts';
import { attributeHook, attributeHookMap, type AttributionOptions } from './tap-attribution.ts';
import type * as Provides from './provides.ts';
import { requireOwn } from './load/require-own.ts';
import type { Hook, HookMap } from 'tapable';

/** The kernel API version plugins declare a range against (`kbctx: '^0.2'`). */
export const KERNEL_API_VERSION = '0.2.0';
const APPLY_TIMEOUT_MS = 10_000;

/** "; did you mean …?" for an unknown hook: errors only, so its module is required then (start-up, ADR 0130). */
const didYouMean = (name: string, candidates: Iterable<string>): string =>
  requireOwn<typeof ClosestName>(import.meta.url, './domain/closest-name.ts').didYouMean(name, candidates);

/** `config`: a plugin object written in a config module's `plugins` list (kbctx.config.mjs). */
export type PluginOrigin = 'bundled' | 'path' | 'package' | 'registry' | 'config';

export interface LoadedPluginInfo {
  name: string;
  version: string;
  origin: PluginOrigin;
  /** Where it came from: the bundled name, a file path, a package name or its place in the config (`plugins[1]`). */
  from: string;
  hooks: string[];
  /**
   * What it provides, derived (ADR 0180): keyed factories, named commands, services, and after `plugins({ collect })`
   * tools, agents, resources; then declared entries of kinds the kernel cannot see.
   */
  provides: string[];
  /** What its `provides` declares, as written. */
  declared: string[];
  /** Declared entries of a kind the kernel derives that it did not provide. */
  notProvided: string[];
  loadMs: number;
  /**
   * The file it was imported from (absolute), for a plugin loaded from a file or package; its folder is the plugin's
   * (the cli plugin's commands/fault-attribution.ts).
   */
  entry?: string;
}

export interface KernelOptions {
  /** The index services handed to plugins in their `ctx` (set once the index is open). */
  services?: () => IndexServices;
  logger?: (plugin: string) => PluginLogger;
  /** Per-hook tap time-outs (ms) replacing TAP_TIMEOUT_MS entries (tests use short ones). */
  tapTimeoutMs?: Partial<Record<HookName, number>>;
  /** Time an async `apply` may take (default 10 s, fastify's plugin time-out). */
  applyTimeoutMs?: number;
}

export class Kernel {
  readonly hooks: KernelHooks = createHooks();
  readonly services = new ServiceRegistry();
  private applying: string | undefined;
  private readonly tapped = new Map<string, Set<string>>();
  /** Hook map → key → the plugins that tapped that key, in tap order. */
  private readonly keyed = new Map<string, Map<string, string[]>>();
  /**
   * Plugin → the commands its `commands` taps name ('' for a tap naming none): what it provides is derived from
   * these, `keyed` and the services (provides.ts).
   */
  private readonly commandTaps = new Map<string, Set<string>>();
  private readonly loaded: LoadedPluginInfo[] = [];
  private readonly disposers: { plugin: string; fn: () => void | Promise<void> }[] = [];
  private readonly options: KernelOptions;
  private readonly shutdownController = new AbortController();
  /** The call context and the plugins' contexts for the kernel's own signal, built once (pluginContext). */
  private sharedCallContext: PluginContext | undefined;
  private readonly sharedContexts = new Map<string, PluginContext>();
  /** The hooks as plugins see them: reading a hook that does not exist throws, suggesting the nearest name. */
  private readonly pluginHooks = checkedHooks(this.hooks, (name) => this.extensionOwning(name));
  /** Plugin-owned hooks by extension point id, created on first request (extension-point.ts). */
  private readonly extensionHooks = new Map<string, HookSet>();
  private readonly attribution: AttributionOptions;

  constructor(options: KernelOptions = {}) {
    this.options = options;
    const attribution: AttributionOptions = {
      owner: () => this.applying,
      onTap: (plugin, hook, keyed, commands) => {
        addTo(this.tapped, plugin, hook);
        if (hook === 'commands')
          for (const name of commands?.length ? commands : ['']) addTo(this.commandTaps, plugin, name);
        if (keyed) {
          const keys = this.keyed.get(keyed.map) ?? new Map<string, string[]>();
          keys.set(keyed.key, [...(keys.get(keyed.key) ?? []), plugin]);
          this.keyed.set(keyed.map, keys);
        }
      },
    };
    this.attribution = attribution;
    for (const [name, hook] of Object.entries(this.hooks) as [HookName, unknown][]) {
      attribute(name, hook, options.tapTimeoutMs?.[name] ?? TAP_TIMEOUT_MS[name], attribution);
    }
  }

  /**
   * A plugin's own hooks (its `api.ts` declares the point): created on the first request, attributed
   * like the kernel's. By id only (a plugin importing types alone), the point must exist already.
   */
  hooksOf<H extends HookSet>(point: ExtensionPoint<H> | string): H {
    const id = typeof point === 'string' ? point : point.id;
    const existing = this.extensionHooks.get(id);
    if (existing) return existing as H;
    if (typeof point === 'string') {
      const known = [...this.extensionHooks.keys()];
      throw configError(
        `no loaded plugin declares hooks '${id}'${didYouMean(id, known)} (declared: ${known.join(', ') || 'none'})`,
      );
    }
    const hooks = Object.freeze(point.hooks());
    for (const [name, hook] of Object.entries(hooks)) {
      attribute(name, hook, point.tapTimeoutMs?.[name] ?? EXTENSION_TAP_TIMEOUT_MS, this.attribution);
    }
    this.extensionHooks.set(id, hooks);
    return hooks;
  }

  /** The extension point whose hooks include `name`, for the message of a kernel hook that does not exist. */
  private extensionOwning(name: string): string | undefined {
    for (const [id, hooks] of this.extensionHooks) if (Object.hasOwn(hooks, name)) return id;
    return undefined;
  }

  /**
   * The context argument of one hook call. Typed as the PluginContext each tap receives: the tap
   * attribution swaps this CallContext for the tapping plugin's own view (its name, its logger).
   */
  callContext(signal?: AbortSignal): PluginContext {
    if (signal === undefined || signal === this.shutdownController.signal)
      return (this.sharedCallContext ??= this.newCallContext(this.shutdownController.signal));
    return this.newCallContext(signal);
  }

  /**
   * A plugin's context. With the kernel's own signal (every pipeline hook call: a sync's `chunk` tap
   * per document) it is built once per plugin; the services are resolved when called, so one built
   * before the index is open works after.
   */
  pluginContext(plugin: string, signal?: AbortSignal): PluginContext {
    if (signal !== undefined && signal !== this.shutdownController.signal) return this.newPluginContext(plugin, signal);
    let context = this.sharedContexts.get(plugin);
    if (context === undefined)
      this.sharedContexts.set(plugin, (context = this.newPluginContext(plugin, this.shutdownController.signal)));
    return context;
  }

  private newCallContext(signal: AbortSignal): PluginContext {
    return new CallContext((plugin, s) => this.pluginContext(plugin, s), signal) as unknown as PluginContext;
  }

  private newPluginContext(plugin: string, signal: AbortSignal): PluginContext {
    // Resolved at each call: a context is handed out before the index is open (createStore taps).
    const services = (): IndexServices => this.options.services?.() ?? missing(plugin);
    return {
      plugin,
      log: this.logger(plugin),
      signal,
      search: async (p) => services().search(p),
      get: async (id) => services().get(id),
      sources: async () => services().sources(),
    };
  }

  /** Applies one plugin whose `apply` must finish synchronously (the bundled set, so opening stays synchronous). */
  applySync(plugin: Plugin, options: Record<string, unknown>, origin: PluginOrigin, from: string): void {
    const started = now();
    this.applying = plugin.name;
    try {
      const result = plugin.apply(this.viewFor(plugin.name), options);
      if (result instanceof Promise) throw configError(`plugin '${plugin.name}': apply must be synchronous here`);
    } catch (error) {
      throw applyFailed(plugin.name, error);
    } finally {
      this.applying = undefined;
    }
    this.record(plugin, origin, from, started);
  }

  /** Applies one plugin; `apply` may be async and has 10 s to finish. */
  async apply(
    plugin: Plugin,
    options: Record<string, unknown>,
    origin: PluginOrigin,
    from: string,
    entry?: string,
  ): Promise<void> {
    const started = now();
    this.applying = plugin.name;
    let timer: NodeJS.Timeout | undefined;
    const limitMs = this.options.applyTimeoutMs ?? APPLY_TIMEOUT_MS;
    try {
      const timedOut = new Promise<never>((_, reject) => {
        // Not unref'd (like a tap's time-out): an apply waiting on nothing must still end in this error.
        timer = setTimeout(
          () => reject(new KbctxError('timeout', `apply did not finish within ${limitMs / 1000} s`)),
          limitMs,
        );
      });
      await Promise.race([Promise.resolve().then(() => plugin.apply(this.viewFor(plugin.name), options)), timedOut]);
    } catch (error) {
      throw applyFailed(plugin.name, error);
    } finally {
      clearTimeout(timer);
      this.applying = undefined;
    }
    this.record(plugin, origin, from, started, entry);
  }

  /**
   * Every applied plugin in order, with the hooks it tapped and what it provides. `collect`: also call
   * the `tools`, `agents` and `resources` hooks to learn the items each plugin adds (`kbctx plugins`).
   */
  plugins(options: { collect?: boolean } = {}): LoadedPluginInfo[] {
    // Required here: most commands never ask (start-up, ADR 0130).
    const { derivedProvides } = requireOwn<typeof Provides>(import.meta.url, './provides.ts');
    const derived = derivedProvides(
      { hooks: this.hooks, keyed: this.keyed, commandTaps: this.commandTaps, services: this.services.providers() },
      options.collect === true,
    );
    return this.loaded.map((p) => ({
      ...p,
      hooks: [...(this.tapped.get(p.name) ?? [])],
      ...derived(p.name, p.declared),
    }));
  }

  /**
   * The keys plugins tapped on a hook map (`createTransport` → ['mcp', 'stdio', …]), each with its plugins in tap
   * order.
   */
  tappedKeys(map: HookName): Map<string, readonly string[]> {
    return new Map(this.keyed.get(map) ?? []);
  }

  /**
   * The applied plugins in order with their declared `provides`: cheaper than `plugins()`, which derives what each
   * provides.
   */
  applied(): { name: string; declared: readonly string[] }[] {
    return this.loaded.map((p) => ({ name: p.name, declared: p.declared }));
  }

  has(name: string): boolean {
    return this.loaded.some((p) => p.name === name);
  }

  /** Calls `shutdown`, then the disposers last-in-first-out; a failing disposer is logged, not thrown. */
  async shutdown(reason: string): Promise<void> {
    this.shutdownController.abort();
    try {
      await this.hooks.shutdown.promise(reason);
    } finally {
      for (const { plugin, fn } of this.disposers.splice(0).reverse()) {
        try {
          await fn();
        } catch (error) {
          this.logger(plugin).warn(`dispose failed: ${(error as Error).message}`);
        }
      }
    }
  }

  private viewFor(name: string): PluginKernel {
    return Object.freeze({
      hooks: this.pluginHooks,
      log: this.logger(name),
      version: KERNEL_API_VERSION,
      provide: (ref, impl) => this.services.provide(ref, impl, name),
      use: (ref) => this.services.use(ref),
      hooksOf: (point) => this.hooksOf(point),
      onDispose: (fn) => void this.disposers.push({ plugin: name, fn }),
    } satisfies PluginKernel);
  }

  private logger(plugin: string): PluginLogger {
    return (this.options.logger ?? stderrLogger)(plugin);
  }

  private record(plugin: Plugin, origin: PluginOrigin, from: string, started: number, entry?: string): void {
    const declared = [...(plugin.provides ?? [])];
    this.loaded.push({
      name: plugin.name,
      version: plugin.version,
      origin,
      from,
      hooks: [],
      provides: [],
      declared,
      notProvided: [],
      loadMs: now() - started,
      ...(entry === undefined ? {} : { entry }),
    });
  }
}

const addTo = (map: Map<string, Set<string>>, key: string, value: string): void =>
  void map.set(key, (map.get(key) ?? new Set()).add(value));

/**
 * Milliseconds on a monotonic clock: `performance` loads perf_hooks (nine internal modules) on first use, ~2 ms of
 * every start (ADR 0130).
 */
const now = (): number => Number(process.hrtime.bigint()) / 1e6;

function missing(plugin: string): never {
  throw configError(`plugin '${plugin}': the index is not open in this command`);
}

/**
 * A failed `apply` is a config error (the plugin cannot start as configured); one that never finished keeps `timeout`.
 */
function applyFailed(name: string, error: unknown): Error {
  if (error instanceof KbctxError && error.code === 'timeout')
    return new KbctxError('timeout', `plugin '${name}': apply failed: ${error.message}`, { cause: error });
  return configError(`plugin '${name}': apply failed: ${(error as Error)?.message ?? String(error)}`, error);
}

/**
 * A misspelt hook (`kernel.hooks.documnet.tap`) is refused at `apply` with the nearest name, instead of
 * "Cannot read properties of undefined". Only string keys that are neither hooks nor Object's own
 * members (`toString`, `then` probes by await) are refused; feature-test a hook with `'name' in hooks`.
 */
function checkedHooks(hooks: KernelHooks, extensionOwning: (name: string) => string | undefined): TapOnlyHooks {
  const names = Object.keys(hooks);
  return new Proxy(hooks, {
    get(target, key, receiver) {
      if (typeof key === 'string' && !Object.hasOwn(target, key) && !(key in Object.prototype) && key !== 'then') {
        const owner = extensionOwning(key);
        if (owner !== undefined)
          throw configError(
            `hook '${key}' is plugin '${owner}'s own: tap it through kernel.hooksOf('${owner}').${key} (its api.ts)`,
          );
        throw configError(`unknown hook '${key}'${didYouMean(key, names)} (hooks: ${names.join(', ')})`);
      }
      return Reflect.get(target, key, receiver) as unknown;
    },
  }) as unknown as TapOnlyHooks;
}

function attribute(name: string, hook: unknown, timeoutMs: number, attribution: AttributionOptions): void {
  if (isHookMap(hook)) attributeHookMap(hook, name, timeoutMs, attribution);
  else attributeHook(hook as Hook<unknown, unknown>, name, timeoutMs, attribution);
}

function isHookMap(value: unknown): value is HookMap<Hook<unknown, unknown>> {
  return typeof (value as { for?: unknown }).for === 'function' && !('taps' in (value as object));
}
