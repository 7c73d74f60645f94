// Plugins in a registry: every `plugins/<name>/kbctx-plugin.toml` (name, version, kbctx range, entry,
// description, tags, [options_schema]). Found by scanning, with or without registry.toml. A manifest
// that does not parse, or whose name is not its folder's, is refused with the reason (never provided).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { check, type JsonSchemaOf } from '../core/config/json-check.ts';

export const PLUGIN_MANIFEST = 'kbctx-plugin.toml';
export const PLUGIN_ENTRIES = ['index.ts', 'index.mjs', 'plugin.lua'] as const;

export interface PluginManifest {
  name: string;
  version: string;
  /** Semver range of the kernel API the plugin was written for. */
  kbctx: string;
  entry: (typeof PLUGIN_ENTRIES)[number];
  /** `lua` runs in the sandbox; `module` (TypeScript or JavaScript) runs with full rights and must be trusted. */
  runtime: 'lua' | 'module';
  description: string;
  tags: string[];
  /** JSON Schema of `[plugin.<name>]`, as the manifest declares it (the plugin checks its own). */
  optionsSchema: Record<string, unknown> | null;
}

const STR = { type: 'string' };
const manifestSchema: JsonSchemaOf = {
  type: 'object',
  properties: {
    ...{ name: STR, version: STR, kbctx: STR, entry: { enum: [...PLUGIN_ENTRIES] } },
    ...{ description: { ...STR, default: '' }, tags: { type: 'array', items: STR, default: [] }, options_schema: {} },
  },
  required: ['name', 'version', 'kbctx', 'entry'],
  additionalProperties: false,
};
type RawManifest = Omit<PluginManifest, 'runtime' | 'optionsSchema'> & { options_schema?: unknown };

export type PluginScan = {
  found: { dir: string; manifest: PluginManifest }[];
  refused: { id: string; reason: string }[];
};

/** Every plugin folder under `<registry>/plugins/` that has a manifest. */
export function scanPlugins(registryDir: string): PluginScan {
  const out: PluginScan = { found: [], refused: [] };
  const folder = path.join(registryDir, 'plugins');
  if (!existsSync(folder)) return out;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const file = path.join(folder, entry.name, PLUGIN_MANIFEST);
    if (!entry.isDirectory() || !existsSync(file)) continue;
    try {
      out.found.push({ dir: `plugins/${entry.name}`, manifest: readPluginManifest(file, entry.name) });
    } catch (error) {
      out.refused.push({
        id: `plugins/${entry.name}`,
        reason: `plugins/${entry.name}/${PLUGIN_MANIFEST} is not valid (${(error as Error).message.split('\n')[0]})`,
      });
    }
  }
  return out;
}

function readPluginManifest(file: string, folderName: string): PluginManifest {
  let raw: RawManifest;
  try {
    raw = check(manifestSchema, parseToml(readFileSync(file, 'utf8')), []) as RawManifest;
  } catch (error) {
    const at = (error as { path?: string[] }).path;
    throw new Error(at && at.length > 0 ? `${at.join('.')} ${(error as Error).message}` : (error as Error).message, {
      cause: error,
    });
  }
  if (raw.name !== folderName) throw new Error(`name "${raw.name}" must be the folder's name "${folderName}"`);
  const schema = raw.options_schema;
  if (schema !== undefined && (typeof schema !== 'object' || schema === null || Array.isArray(schema)))
    throw new Error('options_schema must be a table');
  return {
    name: raw.name,
    version: raw.version,
    kbctx: raw.kbctx,
    entry: raw.entry,
    runtime: raw.entry.endsWith('.lua') ? 'lua' : 'module',
    description: raw.description,
    tags: raw.tags,
    optionsSchema: (schema as Record<string, unknown> | undefined) ?? null,
  };
}
