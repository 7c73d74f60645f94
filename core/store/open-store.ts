// The index the config selects: opened by the plugin tapping `createStore.for([db] engine)`. An
// engine only a configured plugin (a path or package, imported asynchronously) provides is opened
// once those plugins are applied: until then the store forwards to the one being opened.
import type { IndexAccess, OpenedStore, StoreOptions } from './store-factory.ts';
import type { Kernel } from '../kernel.ts';
import { configError, type KbctxError } from '../domain/errors.ts';
import { lazyLocks, lazyStore } from './lazy-store.ts';

export interface StoreSelection {
  /** The bundled store plugins by engine, to name one that is dropped. */
  bundled: Readonly<Record<string, string>>;
  /** Applies the configured plugins beyond the bundled set; absent when the config names none. */
  applyConfigured?: (() => Promise<void>) | undefined;
  /** What the command needs of the index, asked when the store opens (StoreOptions.access; default `create`). */
  access?: (() => IndexAccess) | undefined;
  /** What the configured store plugins' `storeConfigs` made of their `[db]` keys, once applied (ADR 0241). */
  configured?: (() => Partial<StoreOptions>) | undefined;
}

/**
 * The store the config selects, opened on first use (a command that never reads the index, such as
 * `kbctx tool init`, creates no database file). Which plugin provides the engine is checked at once:
 * none is a config_error naming the engine and the loaded store plugins.
 */
export function deferredStore(kernel: Kernel, options: StoreOptions, selection: StoreSelection): OpenedStore {
  if (!selection.applyConfigured && !kernel.hooks.createStore.get(options.engine)?.isUsed())
    throw noStorePlugin(kernel, options.engine, selection.bundled);
  let opened: OpenedStore | undefined;
  const now = (): OpenedStore =>
    (opened ??= openStore(kernel, { ...options, access: selection.access?.() ?? options.access }, selection));
  return {
    store: onFirstUse(() => now().store),
    locks: onFirstUse(() => now().locks),
    get label() {
      return now().label;
    },
    get schemaVersion() {
      return now().schemaVersion;
    },
  };
}

/**
 * An object that opens its target when a property is first read (closing one never opened does nothing); methods stay
 * bound to it.
 */
function onFirstUse<T extends object>(open: () => T): T {
  let target: T | undefined;
  const bound = new Map<PropertyKey, unknown>();
  return new Proxy({} as T, {
    get(_shell, key) {
      if (key === 'close' && target === undefined) return closeNothing;
      target ??= open();
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      if (!bound.has(key)) bound.set(key, (value as (...args: unknown[]) => unknown).bind(target));
      return bound.get(key);
    },
    has: (_shell, key) => Reflect.has((target ??= open()), key),
  });
}

/** Throws config_error naming the engine and the loaded store plugins when no plugin provides it. */
export function openStore(kernel: Kernel, options: StoreOptions, selection: StoreSelection): OpenedStore {
  const opened = openWith(kernel, { ...options, ...selection.configured?.() });
  if (opened) return opened;
  const { applyConfigured } = selection;
  if (!applyConfigured) throw noStorePlugin(kernel, options.engine, selection.bundled);
  const opening = applyConfigured().then(
    () =>
      openWith(kernel, { ...options, ...selection.configured?.() }) ??
      Promise.reject(noStorePlugin(kernel, options.engine, selection.bundled)),
  );
  let real: OpenedStore | undefined;
  void opening.then(
    (o) => (real = o),
    () => undefined,
  );
  return {
    store: lazyStore(
      opening.then((o) => o.store),
      options.url ?? options.path,
    ),
    locks: lazyLocks(opening),
    get label() {
      return real?.label ?? options.engine;
    },
  };
}

function openWith(kernel: Kernel, options: StoreOptions): OpenedStore | undefined {
  const hook = kernel.hooks.createStore.get(options.engine);
  return hook?.isUsed() ? hook.call(options, kernel.callContext()) : undefined;
}

function noStorePlugin(kernel: Kernel, engine: string, bundled: Readonly<Record<string, string>>): KbctxError {
  const loaded = [...kernel.tappedKeys('createStore')].flatMap(([key, plugins]) =>
    plugins.map((plugin) => `${plugin} (${key})`),
  );
  const plugin = bundled[engine];
  const why = plugin
    ? `the store plugin ${plugin} provides it and is not loaded (check plugins in the config)`
    : 'no loaded plugin provides this store engine';
  return configError(`db.engine = "${engine}": ${why}; loaded store plugins: ${loaded.join(', ') || 'none'}`);
}

const closeNothing = async (): Promise<void> => undefined;
