// Registry use-cases shared by the CLI (and any later surface): list, install, update, search, info,
// add, override, init. Trust: nothing from a registry runs until `add` writes an explicit config entry.
import { cpSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { KbctxError, notFound } from '../core/domain/errors.ts';
import type { Config } from '../core/config/types.ts';
import { defaultConfigToml } from '../core/config/package-root.ts';
import { toConfigPath } from './config-path.ts';
import { configRoot } from '../core/config/find-config.ts';
import { CONNECTOR_TIMEOUT_SECS } from '../plugins/lua-bridge/api.ts';
import { appendTable, hasTable } from './config-edit.ts';
import { escapeFrom } from './confine.ts';
import { cloneRepo, localChanges, pullFastForward } from './git.ts';
import { detectHostApis } from './host-apis.ts';
import { addPlugin, type AddPluginResult } from './add-plugin.ts';
import { PLUGIN_MANIFEST } from './plugin-manifest.ts';
import { SCRIPT_TYPES, type ExtensionEntry, type ScriptType } from './manifest.ts';
import {
  CONFIG_TABLE,
  findExtension,
  isEnabled,
  loadRegistries,
  resolveExtensions,
  type LoadedRegistry,
  type ResolvedExtension,
} from './registries.ts';

export const COMMUNITY_REGISTRY = {
  name: 'community',
  url: 'https://github.com/parallax-labs/ctx-registry.git',
  branch: 'main',
};

export interface RegistryContext {
  config: Config;
  /** The config file to edit (`add`, `init`); the active one, or ./config/kbctx.toml when none exists. */
  configFile: string;
}

export interface ExtensionView extends ResolvedExtension {
  /** True when a config entry points at this script (the user enabled it). */
  enabled: boolean;
}

export function listExtensions(ctx: RegistryContext): { registries: LoadedRegistry[]; extensions: ExtensionView[] } {
  const registries = loadRegistries(ctx.config);
  const extensions = [...resolveExtensions(registries).values()]
    .map((e) => ({ ...e, enabled: isEnabled(ctx.config, e) }))
    .sort((a, b) => a.id.localeCompare(b.id));
  return { registries, extensions };
}

function selected(ctx: RegistryContext, name: string | undefined): LoadedRegistry[] {
  const regs = loadRegistries(ctx.config);
  if (name === undefined) return regs;
  const found = regs.filter((r) => r.name === name);
  if (found.length === 0)
    throw notFound(
      `registry '${name}' is not configured (configured: ${regs.map((r) => r.name).join(', ') || 'none'})`,
    );
  return found;
}

export type InstallOutcome = 'cloned' | 'present' | 'no url';

export async function installRegistries(
  ctx: RegistryContext,
  name?: string,
): Promise<{ name: string; outcome: InstallOutcome; path: string }[]> {
  const out: { name: string; outcome: InstallOutcome; path: string }[] = [];
  for (const reg of selected(ctx, name)) {
    if (reg.present) out.push({ name: reg.name, outcome: 'present', path: reg.path });
    else if (!reg.url) out.push({ name: reg.name, outcome: 'no url', path: reg.path });
    else {
      await cloneRepo(reg.url, reg.branch, reg.path);
      out.push({ name: reg.name, outcome: 'cloned', path: reg.path });
    }
  }
  return out;
}

export type UpdateOutcome =
  | { kind: 'updated'; from: string; to: string }
  | { kind: 'up to date' }
  | { kind: 'local changes'; files: string[] }
  | { kind: 'not a git repository' }
  | { kind: 'not installed' };

export async function updateRegistries(
  ctx: RegistryContext,
  name?: string,
): Promise<{ name: string; outcome: UpdateOutcome }[]> {
  const out: { name: string; outcome: UpdateOutcome }[] = [];
  for (const reg of selected(ctx, name)) {
    let outcome: UpdateOutcome;
    if (!reg.present) outcome = { kind: 'not installed' };
    else if (!reg.isGit) outcome = { kind: 'not a git repository' };
    else {
      const files = await localChanges(reg.path);
      if (files.length > 0) outcome = { kind: 'local changes', files };
      else {
        const moved = await pullFastForward(reg.path);
        outcome = moved ? { kind: 'updated', ...moved } : { kind: 'up to date' };
      }
    }
    out.push({ name: reg.name, outcome });
  }
  return out;
}

/** Extensions whose name, tags or description contain every word of the query (case-insensitive). */
export function searchExtensions(ctx: RegistryContext, query: string): ExtensionView[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return listExtensions(ctx).extensions.filter((e) => {
    const haystack = [e.name, e.entry.description, ...e.entry.tags].join(' ').toLowerCase();
    return words.every((w) => haystack.includes(w));
  });
}

export interface ExtensionInfo extends ExtensionView {
  /** Host APIs the script's source uses (what it can reach), next to the manifest's declaration. */
  detectedHostApis: string[];
}

export function extensionInfo(ctx: RegistryContext, id: string): ExtensionInfo {
  const ext = findExtension(loadRegistries(ctx.config), id);
  const source = existsSync(ext.scriptPath) ? readFileSync(ext.scriptPath, 'utf8') : '';
  return { ...ext, enabled: isEnabled(ctx.config, ext), detectedHostApis: detectHostApis(source) };
}

/**
 * Writes `[<type>.script.<name>]` pointing at the extension, or adds a plugin to the `plugins` list
 * (add-plugin.ts: TypeScript/JavaScript plugins only with `trust`, pinned in kbctx.lock).
 * Idempotent: an existing entry is left alone.
 */
export async function addExtension(
  ctx: RegistryContext,
  id: string,
  options: { trust?: boolean } = {},
): Promise<AddPluginResult> {
  const ext = findExtension(loadRegistries(ctx.config), id);
  if (ext.type === 'plugins') return addPlugin(ctx, ext, options);
  const type = ext.type;
  const keys = [...CONFIG_TABLE[type].split('.'), ext.name];
  if (hasTable(ctx.configFile, keys)) {
    return {
      written: false,
      file: ctx.configFile,
      block: '',
      reason: `${CONFIG_TABLE[type]}.${ext.name} is already in ${ctx.configFile}`,
    };
  }
  const example = exampleValues(ext, type);
  const required = ext.entry.requiredConfig.filter((k) => !(k in example));
  const values: Record<string, unknown> = {
    ...example,
    path: toConfigPath(ext.scriptPath, configRoot(ctx.configFile)),
    timeout: example['timeout'] ?? (ext.type === 'connectors' ? CONNECTOR_TIMEOUT_SECS : 30),
  };
  for (const key of required) values[key] = '';
  const comments = [
    `${ext.id} from registry '${ext.registry}'`,
    ...(ext.entry.requiredConfig.length > 0 ? [`required: ${ext.entry.requiredConfig.join(', ')}`] : []),
  ];
  const block = appendTable(
    ctx.configFile,
    keys,
    values,
    comments,
    ctx.config.file ? '' : defaultConfigToml().trimStart(),
  );
  return { written: true, file: ctx.configFile, block };
}

/** Keys from the extension's config.example.toml: its script table if it has one, else its top level. */
function exampleValues(ext: ResolvedExtension, type: ScriptType): Record<string, unknown> {
  const file = path.join(path.dirname(ext.scriptPath), 'config.example.toml');
  if (!existsSync(file)) return {};
  let tree: Record<string, unknown>;
  try {
    tree = parseToml(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    return {};
  }
  const [section = '', kind = ''] = CONFIG_TABLE[type].split('.');
  const tables = ((tree[section] as Record<string, unknown> | undefined)?.[kind] ?? null) as Record<
    string,
    Record<string, unknown>
  > | null;
  const own = tables ? (tables[ext.name] ?? Object.values(tables)[0]) : tree;
  const { path: _path, ...rest } = (own ?? {}) as Record<string, unknown>;
  return Object.fromEntries(Object.entries(rest).filter(([, v]) => typeof v !== 'object' || Array.isArray(v)));
}

/**
 * Copies an extension's folder from a read-only registry into the highest-precedence writable one, with
 * its manifest entry, so that registry provides it from then on (and an enabled entry runs the copy:
 * follow-overrides.ts). A writable registry without registry.toml gets one listing its scanned tree.
 */
export function overrideExtension(
  ctx: RegistryContext,
  id: string,
): { from: string; to: string; registry: string; manifest: string } {
  const registries = loadRegistries(ctx.config);
  const ext = findExtension(registries, id);
  const target = [...registries].reverse().find((r) => !r.readonly && r.present);
  if (!target)
    throw new KbctxError(
      'conflict',
      'no writable registry to copy into: add one with readonly = false and an existing path',
    );
  if (target.name === ext.registry)
    throw new KbctxError('conflict', `${id} already comes from the writable registry '${target.name}'; edit it there`);
  const source = registries.find((r) => r.name === ext.registry)!.path;
  const rel = path.relative(source, path.dirname(ext.scriptPath));
  const destination = path.join(target.path, rel);
  const escape = escapeFrom(target.path, destination);
  if (escape !== null) throw new KbctxError('forbidden', `cannot copy ${id} to ${destination}: it ${escape}`);
  if (existsSync(destination))
    throw new KbctxError('conflict', `${destination} already exists; remove it first to copy ${id} again`);
  cpSync(path.dirname(ext.scriptPath), destination, { recursive: true });
  if (ext.type === 'plugins')
    return {
      from: path.dirname(ext.scriptPath),
      to: destination,
      registry: target.name,
      manifest: path.join(destination, PLUGIN_MANIFEST),
    };
  try {
    const manifest = addManifestEntry(target, ext, path.relative(source, ext.scriptPath).split(path.sep).join('/'));
    return { from: path.dirname(ext.scriptPath), to: destination, registry: target.name, manifest };
  } catch (error) {
    rmSync(destination, { recursive: true, force: true }); // no copy without its entry
    throw error;
  }
}

/** Appends `[<type>.<name>]` to the registry's registry.toml (created from its scanned tree when absent). */
function addManifestEntry(reg: LoadedRegistry, ext: ResolvedExtension, scriptPath: string): string {
  const file = path.join(reg.path, 'registry.toml');
  if (!existsSync(file)) {
    for (const type of SCRIPT_TYPES) {
      for (const [name, entry] of Object.entries(reg.manifest?.extensions[type] ?? {}))
        appendTable(file, [type, name], manifestValues(entry, entry.path));
    }
  }
  appendTable(file, [ext.type, ext.name], manifestValues(ext.entry, scriptPath), [
    `copied from registry '${ext.registry}' by kbctx registry override`,
  ]);
  return file;
}

function manifestValues(entry: ExtensionEntry, scriptPath: string): Record<string, unknown> {
  const values: Record<string, unknown> = {
    path: scriptPath,
    description: entry.description,
    tags: entry.tags,
    required_config: entry.requiredConfig,
    host_apis: entry.hostApis,
    tools: entry.tools,
  };
  return Object.fromEntries(
    Object.entries(values).filter(([, v]) => v !== '' && !(Array.isArray(v) && v.length === 0)),
  );
}

/** Clones the community registry and adds it to the config. Safe to repeat; offline: error, config untouched. */
export async function initCommunity(
  ctx: RegistryContext,
  options: { path?: string; url?: string } = {},
): Promise<{ cloned: boolean; configured: boolean; path: string }> {
  const existing = ctx.config.registries[COMMUNITY_REGISTRY.name];
  const target =
    existing?.path ??
    path.resolve(options.path ?? path.join(homedir(), '.kbctx', 'registries', COMMUNITY_REGISTRY.name));
  let cloned = false;
  if (!existsSync(target)) {
    await cloneRepo(
      options.url ?? existing?.url ?? COMMUNITY_REGISTRY.url,
      existing?.branch ?? COMMUNITY_REGISTRY.branch,
      target,
    );
    cloned = true;
  }
  let configured = false;
  if (!existing && !hasTable(ctx.configFile, ['registries', COMMUNITY_REGISTRY.name])) {
    appendTable(
      ctx.configFile,
      ['registries', COMMUNITY_REGISTRY.name],
      {
        url: options.url ?? COMMUNITY_REGISTRY.url,
        branch: COMMUNITY_REGISTRY.branch,
        path: toConfigPath(target, configRoot(ctx.configFile)),
        readonly: true,
      },
      ['Community extensions: enable one with `kbctx registry add <type>/<name>`'],
      ctx.config.file ? '' : defaultConfigToml().trimStart(),
    );
    configured = true;
  }
  return { cloned, configured, path: target };
}
