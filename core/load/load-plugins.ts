// Loading the configured plugins into a kernel, in two steps:
// 1. `applyBundledPlugins` (synchronous): the bundled set, minus `!name` drops, in its fixed order;
// 2. `applyConfiguredPlugins` (async): paths and packages, imported, and plugin objects written in a
//    config module (kbctx.config.mjs), checked, ordered by their
//    dependencies, options validated, applied; then, in a second pass, files Node cannot import
//    (`.lua`), each resolved by the plugin tapping `resolvePlugin.for(extension)`. A file inside a
//    configured registry is imported only when its pin in kbctx.lock still matches. Unused
//    `[plugin.<name>]` tables are an error then.
import { configError } from '../domain/errors.ts';
import type { Kernel, PluginOrigin } from '../kernel.ts';
import type { Plugin } from '../plugin.ts';
import { checkPlugin } from './check-plugin.ts';
import { orderPlugins } from './order-plugins.ts';
import type { PinChecker, TrustSettings } from './plugin-trust.ts';
import type { ConnectorTables } from '../config/configured-sections.ts';
import { checkPluginOptions } from '../config/ajv-check.ts';
import { expandPluginSpecs, type PluginSpec } from './plugin-specs.ts';
import type { PluginsConfig } from '../config/types.ts';

export interface PluginsSettings extends TrustSettings {
  entries: readonly (string | object)[];
  options: Readonly<Record<string, Record<string, unknown>>>;
  baseDir: string;
  /**
   * The config file the list came from (names inline plugin objects in errors); null or absent for the built-in config.
   */
  configFile?: string | null;
  /**
   * `[connectors.<type>.<name>]` of types the bundled set does not own, as written: checked by the plugin that declares
   * the type.
   */
  connectors?: ConnectorTables;
  /** Sections another plugin serves: checked once every plugin is applied. */
  needs?: PluginsConfig['needs'];
  /** The `[db]` and `[embedding]` keys a configured plugin's sections check (ADR 0241). */
  owned?: PluginsConfig['owned'];
}

let trust: ((settings: TrustSettings) => Promise<PinChecker>) | undefined;

/** How the distribution's entry hands in the registry's pin check (plugin-trust.ts, ADR 0204). */
export function setPluginTrust(check: (settings: TrustSettings) => Promise<PinChecker>): void {
  trust = check;
}

export function applyBundledPlugins(kernel: Kernel, bundled: readonly Plugin[], settings: PluginsSettings): void {
  const specs = expandPluginSpecs(
    settings.entries,
    bundled.map((p) => p.name),
    settings.baseDir,
    settings.configFile ?? null,
  );
  const wanted = new Set(specs.filter((s) => s.kind === 'bundled').map((s) => s.name));
  for (const plugin of bundled.filter((p) => wanted.has(p.name))) {
    const checked = checkPlugin(plugin, `bundled ${plugin.name}`);
    const missing = (checked.dependencies ?? []).find((d) => !kernel.has(d));
    if (missing) throw configError(`plugin '${checked.name}' needs '${missing}', which is dropped from plugins`);
    kernel.applySync(checked, checkPluginOptions(checked, settings.options[checked.name]), 'bundled', checked.name);
  }
}

/** True when the config names plugins beyond the bundled set (so commands must await their loading). */
export const hasConfiguredPlugins = (settings: PluginsSettings, bundled: readonly Plugin[]): boolean =>
  configuredSpecs(settings, bundled).length > 0;

export async function applyConfiguredPlugins(
  kernel: Kernel,
  bundled: readonly Plugin[],
  settings: PluginsSettings,
): Promise<void> {
  const specs = configuredSpecs(settings, bundled);
  if (specs.length === 0) return checkApplied(kernel, bundled, settings);
  // Imported here: a config with only the bundled set never loads the importers, pins or lock file code.
  const [{ importPluginModule, isImportable }, { resolvePluginFile }, { noPinCheck }] = await Promise.all([
    import('./import-plugin.ts'),
    import('./resolve-plugin-file.ts'),
    import('./plugin-trust.ts'),
  ]);
  const pinned = trust ? await trust(settings) : noPinCheck(settings);
  const imported = [];
  for (const spec of specs.filter(isImportable)) {
    if (spec.kind === 'inline') {
      imported.push({ plugin: checkPlugin(spec.plugin, spec.as), from: spec.as, origin: 'config' as const });
      continue;
    }
    const from = spec.kind === 'path' ? spec.file : spec.name;
    const registry = spec.kind === 'path' ? pinned(spec.file, spec.as) : null;
    const { module, file } = await importPluginModule(spec, settings.baseDir, settings.configFile ?? null);
    imported.push({
      plugin: checkPlugin(module, from),
      from: registry?.from ?? from,
      origin: registry?.origin ?? spec.kind,
      entry: file,
    });
  }
  await applyInOrder(kernel, imported, settings);
  const resolved = [];
  for (const spec of specs.filter((s) => !isImportable(s))) {
    if (spec.kind !== 'path') continue;
    resolved.push({
      plugin: checkPlugin(
        await resolvePluginFile(kernel, spec, bundled, {
          baseDir: settings.baseDir,
          configFile: settings.configFile ?? null,
        }),
        spec.file,
      ),
      from: spec.file,
      origin: spec.kind,
      entry: spec.file,
    });
  }
  await applyInOrder(kernel, resolved, settings);
  const { checkUnclaimed } = await import('../config/configured-sections.ts');
  checkUnclaimed(kernel, settings);
  checkApplied(kernel, bundled, settings);
}

/**
 * Config sections another plugin serves (`[tools.script.*]`, `[agents.inline.*]`, `[extensions] modules`) each name
 * what serves it (`PluginsConfig.needs`, written by the config loader): something loaded must provide it; else a config
 * error naming the bundled plugin that would (`"!lua-bridge"` → "needs the plugin lua-bridge").
 */
function requireServedSections(
  needs: PluginsSettings['needs'],
  loaded: readonly { declared: readonly string[] }[],
  bundled: readonly Plugin[],
): void {
  for (const { section, provides, why } of needs ?? []) {
    if (loaded.some((p) => p.declared.includes(provides))) continue;
    const provider = bundled.find((p) => p.provides?.includes(provides))?.name;
    const needed = provider
      ? `the plugin ${provider}, which is not loaded (plugins drops it with "!${provider}")`
      : `a plugin providing ${provides}, and none is loaded`;
    throw configError(why ? `${section}: ${why} ${needed}` : `${section} needs ${needed}`);
  }
}

/**
 * What the config asks of the applied set: every `[plugin.<name>]` names a loaded plugin, every served section has its
 * server.
 */
function checkApplied(kernel: Kernel, bundled: readonly Plugin[], settings: PluginsSettings): void {
  checkOptionsNameLoaded(kernel, settings);
  requireServedSections(settings.needs, kernel.applied(), bundled);
}

/** Every `[plugin.<name>]` section names a loaded plugin. */
function checkOptionsNameLoaded(kernel: Kernel, settings: PluginsSettings): void {
  const names = new Set(kernel.applied().map((p) => p.name));
  const unused = Object.keys(settings.options).find((name) => !names.has(name));
  if (unused !== undefined)
    throw configError(`plugin.${unused}: no loaded plugin is named '${unused}'; loaded: ${[...names].join(', ')}`);
}

async function applyInOrder(
  kernel: Kernel,
  candidates: { plugin: Plugin; from: string; origin: PluginOrigin; entry?: string }[],
  settings: PluginsSettings,
): Promise<void> {
  const loaded = new Set(kernel.applied().map((p) => p.name));
  for (const c of orderPlugins(candidates, loaded)) {
    // Imported for a configured plugin only: the bundled set's sections are checked with the config (ADR 0130, 0241).
    const { checkConfiguredSections } = await import('../config/configured-sections.ts');
    checkConfiguredSections(kernel, c.plugin, settings);
    await kernel.apply(
      c.plugin,
      checkPluginOptions(c.plugin, settings.options[c.plugin.name]),
      c.origin,
      c.from,
      c.entry,
    );
  }
}

function configuredSpecs(
  settings: PluginsSettings,
  bundled: readonly Plugin[],
): Exclude<PluginSpec, { kind: 'bundled' }>[] {
  return expandPluginSpecs(
    settings.entries,
    bundled.map((p) => p.name),
    settings.baseDir,
    settings.configFile ?? null,
  ).filter((s): s is Exclude<PluginSpec, { kind: 'bundled' }> => s.kind !== 'bundled');
}
