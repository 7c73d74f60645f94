// The bundled plugin set: which plugins the `"bundled"` entry of `plugins` stands for. The kernel
// knows no plugin; the distribution's entry points (registry/bundled.ts, imported by the CLI entry,
// the library entry, tests and benchmarks) hand the ordered list in once. Who provides a built-in
// connector type, store engine or embedding provider is read from the plugins' `provides`, for
// errors that name a dropped plugin.
import type { Plugin } from '../plugin.ts';
import type { Config } from '../config/types.ts';
import { KbctxError } from '../domain/errors.ts';

let bundled: readonly Plugin[] | undefined;
let loader: (() => Promise<unknown>) | undefined;

/** How the CLI entry defers importing the set until a command opens the index (start-up stays small). */
export function setBundledLoader(load: () => Promise<unknown>): void {
  loader = load;
}

/** Runs the registered loader once, if the set is not handed in yet. */
export async function loadBundledPlugins(): Promise<void> {
  if (!bundled && loader) await loader();
}

/**
 * The set's config sections are registered by its entry (registry/bundled.ts: `registerConfigSections`), so this
 * module, imported by the CLI entry for `kbctx --version` too, loads no config code (ADR 0130).
 */
export function setBundledPlugins(plugins: readonly Plugin[]): void {
  bundled = plugins;
}

export function bundledPlugins(): readonly Plugin[] {
  if (!bundled)
    throw new KbctxError(
      'internal',
      'no bundled plugin set: import registry/bundled.ts (the CLI and library entries do) before opening kbctx',
    );
  return bundled;
}

/** `kind` → which bundled plugin provides each key: `providers('store')` → { sqlite: 'store-sqlite', … }. */
export function bundledProviders(kind: 'connector' | 'store' | 'embedder'): Readonly<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const plugin of bundledPlugins()) {
    for (const what of plugin.provides ?? [])
      if (what.startsWith(`${kind}:`)) out[what.slice(kind.length + 1)] ??= plugin.name;
  }
  return out;
}

// How the distribution adjusts a loaded config before the host uses it: registry/ hands in `followOverrides` (enabled
// registry extensions run the winning registry's copy), as it hands in the set. The kernel knows no registry.
let follower: (config: Config) => Config = (config) => config;

export function setConfigFollower(follow: (config: Config) => Config): void {
  follower = follow;
}

/** `config` as the distribution's follower leaves it (the same object when nothing moves). */
export const followConfig = (config: Config): Config => follower(config);
