// Wraps every tap as it is registered (a tapable `register` interceptor) so that:
// 1. an error thrown or rejected in a tap becomes a PluginError naming the plugin, the hook and, for a
//    pipeline hook, the item (the document's source id, the query, the tool: tap-contracts.ts);
// 2. a rejection with a falsy reason is an error too, never success (tapable #176);
// 3. a tap that never settles fails after the hook's time-out (or the tap's own `timeout`, in s) with
//    code `timeout`; the timer holds the process open meanwhile, so a command waits for the verdict;
// 4. a plugin-scoped argument (CallContext, a collector) is replaced by the tapping plugin's own view;
// 5. the kernel learns which plugin tapped which hook, and what the tap provides (`kbctx plugins`);
// 6. what a pipeline tap returns is checked against its hook's shape (tap-contracts.ts): a wrong one is
//    a PluginError saying what came back and what was expected.
import type { Hook, HookMap } from 'tapable';
import { KbctxError } from './domain/errors.ts';
import type { HookName } from './hooks.ts';
import { PluginError } from './plugin-error.ts';
import { isPluginScoped } from './plugin-context.ts';
import { CALL_ITEMS, RESULT_SHAPES, type ResultShape } from './tap-contracts.ts';

type AnyFn = (...args: unknown[]) => unknown;
interface MutableTap {
  name: string;
  type: 'sync' | 'async' | 'promise';
  fn: AnyFn;
  /** Seconds: this tap's time-out instead of the hook's (work whose own deadlines add up to more). */
  timeout?: number;
  /** A `commands` tap's top-level commands (hooks.ts CommandsTapOptions). */
  commands?: readonly string[];
}

export interface AttributionOptions {
  /** The plugin being applied right now (taps are attributed to it), or undefined. */
  owner(): string | undefined;
  /**
   * Called for every tap: the hook's label, for a hook map's hook the map and the key, and a `commands` tap's commands.
   */
  onTap(
    plugin: string,
    hook: string,
    keyed: { map: string; key: string } | undefined,
    commands: readonly string[] | undefined,
  ): void;
}

export function attributeHook(
  hook: Hook<unknown, unknown>,
  hookName: string,
  timeoutMs: number,
  options: AttributionOptions,
  keyed?: { map: string; key: string },
): void {
  hook.intercept({
    register: (tap) => {
      const t = tap as unknown as MutableTap;
      // A tap made while a plugin is applied is that plugin's whatever its name (outside `apply`, its name
      // is all there is); a name other than the plugin's tells the plugin's taps apart in errors.
      const plugin = options.owner() ?? t.name;
      options.onTap(plugin, hookName, keyed, t.commands);
      const own = typeof t.timeout === 'number' && t.timeout > 0 ? t.timeout * 1000 : undefined;
      const kind = (keyed?.map ?? hookName) as HookName;
      const site: TapSite = {
        plugin,
        tap: t.name === plugin ? undefined : t.name,
        hook: hookName,
        timeoutMs: own ?? timeoutMs,
        shape: RESULT_SHAPES[kind],
        item: CALL_ITEMS[kind],
      };
      t.fn = wrap(t.type, t.fn, site);
      return tap;
    },
  });
}

export function attributeHookMap(
  map: HookMap<Hook<unknown, unknown>>,
  mapName: string,
  timeoutMs: number,
  options: AttributionOptions,
): void {
  map.intercept({
    factory: (key, hook) => {
      attributeHook(hook, `${mapName}.for(${JSON.stringify(key)})`, timeoutMs, options, {
        map: mapName,
        key: String(key),
      });
      return hook;
    },
  });
}

/** One tap's attribution, made once when it is registered. */
interface TapSite {
  plugin: string;
  /** The tap's own name when it is not the plugin's (`tap('acme-redact', …)` in plugin acme). */
  tap: string | undefined;
  /** The hook's label (`extract.for("pdf")` for a hook map's hook). */
  hook: string;
  timeoutMs: number;
  shape: ResultShape | undefined;
  item: ((args: readonly unknown[]) => string | undefined) | undefined;
}

function wrap(type: MutableTap['type'], fn: AnyFn, site: TapSite): AnyFn {
  // In place: `args` is the wrapper's own rest array, made for this call.
  const withContext = (args: unknown[]): unknown[] => {
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      if (isPluginScoped(a)) args[i] = a.forPlugin(site.plugin);
    }
    return args;
  };
  if (type === 'sync') {
    return (...args) => {
      let result: unknown;
      try {
        result = fn(...withContext(args));
      } catch (error) {
        throw attributed(error, site, args);
      }
      return checked(result, site, args);
    };
  }
  if (type === 'promise') return (...args) => settle(() => fn(...withContext(args)), site, args);
  return (...args) => {
    const callback = args.pop() as (error: unknown, result?: unknown) => void;
    settle(
      () =>
        new Promise(
          (resolve, reject) =>
            void fn(...withContext(args), (error: unknown, result: unknown) =>
              error ? reject(error) : resolve(result),
            ),
        ),
      site,
      args,
    ).then(
      (result) => callback(null, result),
      (error: unknown) => callback(error),
    );
  };
}

/**
 * The tap's result as a promise: a throw or a rejection (any reason, falsy too) becomes a PluginError
 * naming plugin and hook, and so does a result of the wrong shape; past `timeoutMs` (> 0) it fails as
 * never settling. One promise and one timer per call, no async function and no Promise.race (ADR 0131:
 * this runs per tap per document).
 */
function settle(run: () => unknown, site: TapSite, args: readonly unknown[]): Promise<unknown> {
  let result: unknown;
  try {
    result = run();
  } catch (error) {
    return Promise.reject(attributed(error, site, args));
  }
  const { timeoutMs } = site;
  if (timeoutMs <= 0)
    return Promise.resolve(result).then(
      (value) => checked(value, site, args),
      (error: unknown) => Promise.reject(attributed(error, site, args)),
    );
  return new Promise((resolve, reject) => {
    // Not unref'd: a tap whose promise waits on nothing leaves no other handle, and the CLI must wait
    // for this time-out to report it (exit 5) rather than end as Node's "unsettled top-level await".
    const timer = setTimeout(
      () => reject(attributed(new KbctxError('timeout', `did not settle within ${timeoutMs / 1000} s`), site, args)),
      timeoutMs,
    );
    Promise.resolve(result).then(
      (value) => {
        clearTimeout(timer);
        try {
          resolve(checked(value, site, args));
        } catch (error) {
          reject(error as Error);
        }
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(attributed(error, site, args));
      },
    );
  });
}

/** The value when it fits the hook's result shape; else throws a PluginError saying what came back. */
function checked(value: unknown, site: TapSite, args: readonly unknown[]): unknown {
  const got = site.shape?.wrong(value);
  if (got === undefined) return value;
  throw new PluginError(site.plugin, site.hook, undefined, {
    item: site.item?.(args),
    tap: site.tap,
    wrong: { got, expected: site.shape!.expected },
  });
}

function attributed(error: unknown, site: TapSite, args: readonly unknown[]): PluginError {
  return error instanceof PluginError
    ? error
    : new PluginError(site.plugin, site.hook, error, { item: site.item?.(args), tap: site.tap });
}
