// Configured registries, loaded in precedence order, and extension lookup across them.
//
// Precedence (docs/registries.md): explicit config entries beat every registry. Among registries the
// higher `priority` wins; a registry without one has the priority of its position in the config
// (0, 1, 2, … as written), so a later registry overrides an earlier one, as in Context Harness.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { badRequest, KbctxError, notFound } from '../core/domain/errors.ts';
import type { Config } from '../core/config/types.ts';
import { scriptAgentsOf, scriptConnectorsOf, scriptToolsOf } from '../plugins/lua-bridge/api.ts';
import { isPluginPath, resolvePluginPath } from '../core/load/plugin-specs.ts';
import { isGitRepo } from './git.ts';
import {
  EXTENSION_TYPES,
  loadManifest,
  type ExtensionEntry,
  type ExtensionType,
  type Manifest,
  type ScriptType,
} from './manifest.ts';

export interface LoadedRegistry {
  name: string;
  path: string;
  url: string | null;
  branch: string | null;
  readonly: boolean;
  priority: number;
  present: boolean;
  isGit: boolean;
  manifest: Manifest | null;
}

export interface ResolvedExtension {
  id: string;
  type: ExtensionType;
  name: string;
  registry: string;
  scriptPath: string;
  entry: ExtensionEntry;
  /** Lower-precedence registries that also provide this id. */
  shadows: string[];
  /** The script path in every registry that provides this id, lowest precedence first (`scriptPath` last). */
  providedAt: string[];
}

/** Registries, lowest precedence first. */
export function loadRegistries(config: Config): LoadedRegistry[] {
  const regs = Object.entries(config.registries).map(([name, r], index) => {
    const present = existsSync(r.path);
    return {
      name,
      path: r.path,
      url: r.url,
      branch: r.branch,
      readonly: r.readonly,
      priority: r.priority ?? index,
      present,
      isGit: present && isGitRepo(r.path),
      manifest: present ? loadManifest(r.path) : null,
      order: index,
    };
  });
  return regs.sort((a, b) => a.priority - b.priority || a.order - b.order).map(({ order: _order, ...r }) => r);
}

/** Every extension id → the provider with the highest precedence. */
export function resolveExtensions(registries: readonly LoadedRegistry[]): Map<string, ResolvedExtension> {
  const out = new Map<string, ResolvedExtension>();
  for (const reg of registries) {
    if (!reg.manifest) continue;
    for (const type of EXTENSION_TYPES) {
      for (const [name, entry] of Object.entries(reg.manifest.extensions[type])) {
        const id = `${type}/${name}`;
        const previous = out.get(id);
        const scriptPath = path.resolve(reg.path, entry.path);
        out.set(id, {
          id,
          type,
          name,
          registry: reg.name,
          scriptPath,
          entry,
          shadows: previous ? [...previous.shadows, previous.registry] : [],
          providedAt: [...(previous?.providedAt ?? []), scriptPath],
        });
      }
    }
  }
  return out;
}

export function parseExtensionId(id: string): { type: ExtensionType; name: string } {
  const [type, name, ...rest] = id.split('/');
  if (!type || !name || rest.length > 0 || !(EXTENSION_TYPES as readonly string[]).includes(type)) {
    throw badRequest(
      `'${id}' is not an extension id: use <type>/<name> with ` +
        `type ${EXTENSION_TYPES.join(', ')} (e.g. tools/web-fetch)`,
    );
  }
  return { type: type as ExtensionType, name };
}

export function findExtension(registries: readonly LoadedRegistry[], id: string): ResolvedExtension {
  parseExtensionId(id);
  for (const reg of registries) {
    const refused = reg.manifest?.refused.find((r) => r.id === id);
    if (refused) throw new KbctxError('forbidden', `registry '${reg.name}': ${refused.reason}; refusing ${id}`);
  }
  const all = resolveExtensions(registries);
  const found = all.get(id);
  if (found) return found;
  const name = id.split('/')[1] ?? '';
  const similar = [...all.keys()].filter((k) => k.includes(name) || name.includes(k.split('/')[1] ?? '\u0000'));
  const hint =
    similar.length > 0
      ? `; did you mean ${similar.slice(0, 3).join(', ')}?`
      : registries.some((r) => !r.present)
        ? '; run `kbctx registry install` first?'
        : '';
  throw notFound(`no registry provides ${id}${hint}`);
}

/**
 * True when a config entry of the extension's type points at its script in any registry (an override
 * runs the copy: follow-overrides.ts); for a plugin, when the `plugins` list names its entry file.
 */
export function isEnabled(config: Config, ext: ResolvedExtension): boolean {
  if (ext.type === 'plugins') return pluginEntryFiles(config).some((file) => ext.providedAt.includes(file));
  return Object.values(configSection(config, ext.type)).some((c) => ext.providedAt.includes(c.path));
}

/** The `plugins` list entries that are paths, resolved against the config root (ADR 0114). */
export function pluginEntryFiles(config: Config): string[] {
  return config.plugins.entries
    .filter((e): e is string => typeof e === 'string' && isPluginPath(e.trim()))
    .map((e) => resolvePluginPath(e.trim(), config.plugins.baseDir));
}

/** The config section a registry extension type is enabled in. */
export function configSection(config: Config, type: ScriptType): Readonly<Record<string, { path: string }>> {
  return type === 'connectors'
    ? scriptConnectorsOf(config)
    : type === 'tools'
      ? scriptToolsOf(config)
      : scriptAgentsOf(config);
}

export const CONFIG_TABLE: Record<ScriptType, string> = {
  connectors: 'connectors.script',
  tools: 'tools.script',
  agents: 'agents.script',
};
