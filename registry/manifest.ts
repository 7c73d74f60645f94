// A registry's manifest: `registry.toml` as Context Harness writes it ([registry] plus
// [connectors.<name>], [tools.<name>], [agents.<name>]). Without a valid manifest the conventional tree
// (connectors/<n>/connector.lua, tools/<n>/tool.lua, agents/<n>/agent.lua) is scanned, with a warning.
// Plugins are folders with their own manifest (plugins/<name>/kbctx-plugin.toml, plugin-manifest.ts),
// always scanned. Every entry's path must stay inside the registry (symbolic links resolved); others
// are refused.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { escapeFrom } from './confine.ts';
import { scanPlugins, type PluginManifest } from './plugin-manifest.ts';
import { check, type JsonSchemaOf } from '../core/config/json-check.ts';

/** The Lua script extensions of Context Harness registries, enabled by a `[<type>.script.<name>]` entry. */
export const SCRIPT_TYPES = ['connectors', 'tools', 'agents'] as const;
export type ScriptType = (typeof SCRIPT_TYPES)[number];
/** Script extensions and plugins (enabled by an entry in the config's `plugins` list). */
export const EXTENSION_TYPES = [...SCRIPT_TYPES, 'plugins'] as const;
export type ExtensionType = (typeof EXTENSION_TYPES)[number];

export const SCRIPT_FILE: Record<ScriptType, string> = {
  connectors: 'connector.lua',
  tools: 'tool.lua',
  agents: 'agent.lua',
};

export interface ExtensionEntry {
  path: string;
  description: string;
  tags: string[];
  requiredConfig: string[];
  hostApis: string[];
  tools: string[];
  /** Set for plugins: their kbctx-plugin.toml. */
  plugin?: PluginManifest;
}

export interface Manifest {
  name: string | null;
  description: string;
  url: string | null;
  minVersion: string | null;
  extensions: Record<ExtensionType, Record<string, ExtensionEntry>>;
  /** Set when the manifest was missing or invalid and the tree was scanned instead. */
  warning: string | null;
  /** Entries whose path leaves the registry (even through a symbolic link): never provided, reported. */
  refused: RefusedEntry[];
}

export interface RefusedEntry {
  /** `<type>/<name>`. */
  id: string;
  /** Names the manifest entry, its path and where it leads. */
  reason: string;
}

const STR = { type: 'string' };
const words = { type: 'array', items: STR, default: [] };
const entrySchema: JsonSchemaOf = {
  type: 'object',
  properties: {
    path: STR,
    description: { ...STR, default: '' },
    tags: words,
    required_config: words,
    host_apis: words,
    tools: words,
  },
  required: ['path'],
};
const named = { type: 'object', additionalProperties: entrySchema, default: {} };
const manifestSchema: JsonSchemaOf = {
  type: 'object',
  properties: {
    registry: {
      type: 'object',
      properties: { name: STR, description: { ...STR, default: '' }, url: STR, min_version: STR },
    },
    connectors: named,
    tools: named,
    agents: named,
    profiles: named, // newer Context Harness name for agents
  },
};

interface RawEntry {
  path: string;
  description: string;
  tags: string[];
  required_config: string[];
  host_apis: string[];
  tools: string[];
}
interface RawManifest {
  registry: { name?: string; description: string; url?: string; min_version?: string };
  connectors: Record<string, RawEntry>;
  tools: Record<string, RawEntry>;
  agents: Record<string, RawEntry>;
  profiles: Record<string, RawEntry>;
}

const toEntry = (e: RawEntry): ExtensionEntry => ({
  path: e.path,
  description: e.description,
  tags: e.tags,
  requiredConfig: e.required_config,
  hostApis: e.host_apis,
  tools: e.tools,
});

const mapEntries = (r: Record<string, RawEntry>): Record<string, ExtensionEntry> =>
  Object.fromEntries(Object.entries(r).map(([k, v]) => [k, toEntry(v)]));

export function loadManifest(dir: string): Manifest {
  const scripts = readManifest(dir);
  const plugins = scanPlugins(dir);
  const entries = plugins.found.map(({ dir: folder, manifest }): [string, ExtensionEntry] => [
    manifest.name,
    {
      path: `${folder}/${manifest.entry}`,
      description: manifest.description,
      tags: manifest.tags,
      requiredConfig: [],
      hostApis: [],
      tools: [],
      plugin: manifest,
    },
  ]);
  const confined = confineEntries(dir, {
    ...scripts,
    extensions: { ...scripts.extensions, plugins: Object.fromEntries(entries) },
  });
  return { ...confined, refused: [...plugins.refused, ...confined.refused] };
}

/** Moves every entry whose path escapes the registry from `extensions` to `refused`. */
function confineEntries(dir: string, manifest: Omit<Manifest, 'refused'>): Manifest {
  const refused: RefusedEntry[] = [];
  const extensions = { connectors: {}, tools: {}, agents: {}, plugins: {} } as Manifest['extensions'];
  for (const type of EXTENSION_TYPES) {
    for (const [name, entry] of Object.entries(manifest.extensions[type])) {
      const escape = escapeFrom(dir, entry.path);
      if (escape === null) extensions[type][name] = entry;
      else
        refused.push({
          id: `${type}/${name}`,
          reason: `manifest entry [${type}.${name}] path ${JSON.stringify(entry.path)} ${escape}`,
        });
    }
  }
  return { ...manifest, extensions, refused };
}

type ScriptManifest = Omit<Manifest, 'refused' | 'extensions'> & {
  extensions: Record<ScriptType, Record<string, ExtensionEntry>>;
};

function readManifest(dir: string): ScriptManifest {
  const file = path.join(dir, 'registry.toml');
  if (!existsSync(file)) return scanTree(dir, 'no registry.toml');
  try {
    const raw = check(manifestSchema, { registry: {}, ...parseToml(readFileSync(file, 'utf8')) }, []) as RawManifest;
    return {
      name: raw.registry.name ?? null,
      description: raw.registry.description,
      url: raw.registry.url ?? null,
      minVersion: raw.registry.min_version ?? null,
      extensions: {
        connectors: mapEntries(raw.connectors),
        tools: mapEntries(raw.tools),
        agents: { ...mapEntries(raw.profiles), ...mapEntries(raw.agents) },
      },
      warning: null,
    };
  } catch (error) {
    const why = (error as { path?: string[] }).path
      ? `${(error as { path: string[] }).path.join('.')} ${(error as Error).message}`
      : (error as Error).message;
    return scanTree(dir, `registry.toml is not valid (${why.split('\n')[0]})`);
  }
}

function scanTree(dir: string, reason: string): ScriptManifest {
  const extensions = { connectors: {}, tools: {}, agents: {} } as ScriptManifest['extensions'];
  for (const type of SCRIPT_TYPES) {
    const folder = path.join(dir, type);
    if (!existsSync(folder)) continue;
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const script = `${type}/${entry.name}/${SCRIPT_FILE[type]}`;
      if (entry.isDirectory() && existsSync(path.join(dir, script))) {
        extensions[type][entry.name] = {
          path: script,
          description: '',
          tags: [],
          requiredConfig: [],
          hostApis: [],
          tools: [],
        };
      }
    }
  }
  return {
    name: null,
    description: '',
    url: null,
    minVersion: null,
    extensions,
    warning: `${reason}; scanned the folder tree instead`,
  };
}
