// Finds, reads, expands, validates and freezes the configuration, once, at the edge.
// Lookup order: see find-config.ts (-c, KBCTX_CONFIG, CTX_CONFIG, ./config/kbctx.toml,
// ./config/kbctx.config.mjs, .ctx/config.toml walking up, ./config/ctx.toml, then the built-in default).
// A config module (config as code) is imported first by `importConfig` (asynchronous) and its tree
// validated here like a parsed TOML file.
import { readFileSync, existsSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { parse as parseToml, TomlError } from 'smol-toml';
import { configError } from '../domain/errors.ts';
import { defaultConfigToml } from './package-root.ts';
import type { ConfigModule } from './config-module.ts';
import { findConfig, isConfigModule } from './find-config.ts';
import { expandEnv, isCode, referencedEnvVars, unsetMessage, type UnsetVar } from './expand-env.ts';
import { configSchemaWith, type RawConfig } from './schema.ts';
import { bundledSections, type OwnedSections } from './plugin-sections.ts';
import { checkOwned, servedSections, type OwnedConfig, type OwnedTables } from './check-owned.ts';
import { checkDisabledKeys } from './owned-keys.ts';
import { dbConfig, type StoreClaims } from './db-section.ts';
import { issueText, SchemaIssue, UNKNOWN_KEY } from './json-check.ts';
import type { Config } from './types.ts';

export const DEFAULT_CONFIG_PATH = 'config/kbctx.toml';
/** The lock file beside the config (registry/plugin-lock.ts reads it, with registries or pins only). */
export const LOCK_FILE = 'kbctx.lock';

export interface LoadConfigOptions {
  /** Value of -c/--config, if given. */
  configPath?: string | undefined;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** The config module the lookup finds, imported by `importConfig` (needed when the config is one). */
  module?: ConfigModule | undefined;
}

export function loadConfig(options: LoadConfigOptions = {}): Config {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  const found = findConfig({ configPath: options.configPath, cwd, env });
  if (found.file === null) return parseConfig(defaultConfigToml(), { file: null, cwd, env });
  const file = existingFile(found.file, found.via, cwd);
  const where = { file, cwd: found.baseDir, env, fileBase: cwd };
  if (!isConfigModule(found.file)) return parseConfig(readFileSync(found.file, 'utf8'), where);
  if (options.module?.file !== found.file)
    throw new Error(`${file} is a config module: import it with importConfig() before loadConfig()`);
  return parseConfigTree(options.module.tree, where);
}

/**
 * Imports the config module the lookup finds (`kbctx.config.mjs`, or a module given with -c or
 * $KBCTX_CONFIG) and evaluates its default export, for loadConfig; undefined for a TOML file or none.
 */
export async function importConfig(options: Omit<LoadConfigOptions, 'module'> = {}): Promise<ConfigModule | undefined> {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  const found = findConfig({ configPath: options.configPath, cwd, env });
  if (found.file === null || !isConfigModule(found.file)) return undefined;
  return (await import('./config-module.ts')).importConfigModule(
    found.file,
    existingFile(found.file, found.via, cwd),
    env,
  );
}

/** The file as messages show it (relative to the working directory when inside it); a missing one is a config error. */
function existingFile(absolute: string, via: string, cwd: string): string {
  const shown = path.relative(cwd, absolute);
  const file = shown !== '' && !shown.startsWith('..') ? shown : absolute;
  if (!existsSync(absolute)) {
    throw configError(
      `config file not found: ${file} (from ${via}); create it ` +
        `(see config/kbctx.example.toml) or pass another path with -c`,
    );
  }
  return file;
}

/** Parses config text. `file` is used in messages (null: the built-in default). */
export function parseConfig(
  text: string,
  where: { file: string | null; cwd: string; env?: NodeJS.ProcessEnv; fileBase?: string },
): Config {
  const label = where.file ?? '(built-in config)';
  let tree: unknown;
  try {
    tree = parseToml(text);
  } catch (error) {
    const detail =
      error instanceof TomlError
        ? `line ${error.line}, column ${error.column}: ${firstLine(error.message)}`
        : String(error);
    throw configError(`${label}: not valid TOML (${detail})`, error);
  }
  return parseConfigTree(tree, where);
}

/** Validates an already-parsed TOML tree (the library's `openKbctx({ config: {...} })` passes one). */
export function parseConfigTree(
  tree: unknown,
  where: { file: string | null; cwd: string; env?: NodeJS.ProcessEnv; fileBase?: string },
): Config {
  const label = where.file ?? '(built-in config)';
  const unset: UnsetVar[] = [];
  const expanded = expandEnv(tree, where.env ?? process.env, unset);
  const deferred = deferUnset(unset, label);
  const owned = bundledSections();
  let raw: RawConfig;
  let config: Config;
  const referencedEnv = referencedEnvVars(tree).sort();
  try {
    raw = configSchemaWith(owned).parse(expanded);
    // A top-level table no bundled plugin declares is a configured plugin's, checked when it is applied (ADR 0250).
    const unknown = Object.keys(raw.extra)[0];
    if (unknown !== undefined && !namesConfiguredPlugins(raw)) throw new SchemaIssue([unknown], UNKNOWN_KEY);
    // The bundled set's sections, as a configured plugin's are checked when it is applied (ADR 0250).
    const resolvePath = (p: string): string => path.resolve(where.cwd, expandHome(p));
    const own = checkOwned(owned, ownedTables(raw, owned), { resolvePath, referencedEnv });
    if (own.left.embedding && raw.embedding.provider === 'disabled') checkDisabledKeys(owned, own.left.embedding.extra);
    checkRelations(raw, own, label);
    config = toConfig(
      raw,
      { owned, own },
      where.file === null ? null : path.resolve(where.fileBase ?? where.cwd, where.file),
      where.cwd,
      { env: where.env ?? process.env, referencedEnv },
    );
  } catch (error) {
    if (error instanceof SchemaIssue) throw configError(issueText(label, error));
    throw error;
  }
  return deepFreeze({ ...config, unsetEnv: deferred });
}

// Sections owned by one connector, tool or agent (`[connectors.<type>.<name>]`, `[tools.<form>.<name>]`,
// `[agents.<form>.<name>]`): an unset variable there fails only that part, when it runs (`registry add
// connectors/jira` must not break every command until JIRA_API_TOKEN is set).
const DEFERRABLE = /^(connectors|tools|agents)\.[^.]+\.[^.]+/;

/** Throws for unset variables in core sections; returns the rest grouped by part (`connectors.script.jira`). */
function deferUnset(unset: readonly UnsetVar[], label: string): Record<string, UnsetVar[]> {
  const parts: Record<string, UnsetVar[]> = {};
  for (const u of unset) {
    const part = DEFERRABLE.exec(u.key)?.[0];
    if (part === undefined) throw configError(unsetMessage(label, u));
    (parts[part] ??= []).push(u);
  }
  return parts;
}

/** The tables plugins may own, as written: every declared section's (absent: undefined), connectors, keys. */
function ownedTables(raw: RawConfig, owned: OwnedSections): OwnedTables {
  const at = (name: string): unknown =>
    name.split('.').reduce<unknown>((t, key) => (t as Record<string, unknown> | undefined)?.[key], raw);
  const { extra: others, ...types } = raw.connectors;
  const { extra, ...shared } = raw.embedding;
  return {
    // Every declared section (absent: undefined), then the tables no part knows (a configured plugin's).
    sections: { ...Object.fromEntries([...owned.sections.keys()].map((name) => [name, at(name)])), ...raw.extra },
    connectors: { ...types, ...others } as OwnedTables['connectors'],
    embedding: { shared, extra },
    db: raw.db.extra,
  };
}

function checkRelations(raw: RawConfig, own: OwnedConfig, label: string): void {
  if (raw.chunking.overlap_tokens >= raw.chunking.max_tokens) {
    throw configError(
      `${label}: chunking.overlap_tokens must be less than chunking.max_tokens (${raw.chunking.max_tokens})`,
    );
  }
  if (raw.retrieval.final_limit > raw.retrieval.max_limit) {
    throw configError(
      `${label}: retrieval.final_limit must not exceed retrieval.max_limit (${raw.retrieval.max_limit})`,
    );
  }
  checkExtensionConnectors(raw, own, label);
  const unknown = Object.keys(own.left.db)[0];
  // A key no bundled store declares is a configured store plugin's, checked when it is applied (ADR 0241).
  if (unknown !== undefined && !namesConfiguredPlugins(raw))
    throw configError(`${label}: db.${unknown} ${UNKNOWN_KEY}; a store plugin's own keys need that plugin in plugins`);
}

/** Whether `plugins` lists more than the bundled set (paths, packages, plugin objects). */
const namesConfiguredPlugins = (raw: RawConfig): boolean =>
  raw.plugins.some((p) => typeof p !== 'string' || (p !== 'bundled' && !p.startsWith('!')));

/**
 * Unknown `[connectors.<type>]` keys are a later plugin's connector types: tables of named tables, only when a section
 * adds connector types (`[extensions] modules`) or `plugins` lists more than the bundled set.
 */
function checkExtensionConnectors(raw: RawConfig, own: OwnedConfig, label: string): void {
  for (const [type, instances] of Object.entries(own.left.connectors)) {
    if (!own.addsConnectorTypes && !namesConfiguredPlugins(raw)) {
      const types = Object.keys(own.connectors).join(', ');
      throw configError(
        `${label}: connectors.${type} is not a known key (connector types: ${types}; others come ` +
          `from plugins or [extensions] modules)`,
      );
    }
    const isTable = (v: unknown): boolean => v !== null && typeof v === 'object' && !Array.isArray(v);
    if (!isTable(instances) || !Object.values(instances as object).every(isTable)) {
      throw configError(`${label}: connectors.${type} must hold named tables, e.g. [connectors.${type}.main]`);
    }
  }
}

function toConfig(
  raw: RawConfig,
  { owned, own }: { owned: OwnedSections; own: OwnedConfig },
  file: string | null,
  cwd: string,
  { env, referencedEnv }: { env: NodeJS.ProcessEnv; referencedEnv: readonly string[] },
): Config {
  const abs = (p: string): string => path.resolve(cwd, expandHome(p));
  const { top, under } = placed(own.sections);
  const mapValues = <A, B>(record: Record<string, A>, fn: (a: A) => B): Record<string, B> =>
    Object.fromEntries(Object.entries(record).map(([k, v]) => [k, fn(v)]));
  const e = raw.embedding;
  const r = raw.retrieval;
  const db = dbConfig(raw.db, env['KBCTX_DATABASE_URL'] || raw.db.url, abs, claimsOf(owned), own.db);
  return {
    ...top,
    file,
    baseDir: cwd,
    db,
    chunking: { maxTokens: raw.chunking.max_tokens, overlapTokens: raw.chunking.overlap_tokens },
    embedding: {
      provider: e.provider,
      model: e.model ?? null,
      dims: e.dims ?? null,
      batchSize: e.batch_size,
      concurrency: e.concurrency,
      extra: own.embedding ?? own.left.embedding?.extra ?? {},
      baseDir: cwd,
    },
    retrieval: {
      finalLimit: r.final_limit,
      maxLimit: r.max_limit,
      hybridAlpha: r.hybrid_alpha ?? null,
      candidateKKeyword: r.candidate_k_keyword,
      candidateKVector: r.candidate_k_vector,
      fusion: r.fusion,
      cacheSize: r.cache_size,
    },
    syncIntervals: own.intervals,
    // The owned types in declaration order (each present), then the others as written, by name.
    connectors: { ...own.connectors, ...sortedKeys(own.left.connectors) } as Config['connectors'],
    tools: { ...under['tools'] },
    agents: { ...under['agents'] },
    registries: mapValues(raw.registries, (g) => ({
      url: g.url ?? null,
      branch: g.branch ?? null,
      path: abs(g.path),
      readonly: g.readonly,
      autoUpdate: g.auto_update,
      priority: g.priority ?? null,
    })),
    plugins: {
      entries: raw.plugins,
      options: pluginTables(raw.plugin),
      baseDir: cwd,
      configFile: file,
      lockFile: file === null ? null : path.join(path.dirname(file), LOCK_FILE),
      registries: Object.entries(raw.registries).map(([name, g]) => ({ name, path: abs(g.path) })),
      connectors: own.left.connectors as Config['plugins']['connectors'],
      needs: servedSections(owned, ownedTables(raw, owned).sections),
      // What a configured plugin's sections check when it is applied (ADR 0241, 0250).
      owned: namesConfiguredPlugins(raw)
        ? {
            left: { ...own.left, embedding: e.provider === 'disabled' ? undefined : own.left.embedding },
            db: { engine: db.engine, url: db.url, path: raw.db.path },
            referencedEnv,
          }
        : undefined,
    },
  };
}

/** Owned sections where their names put them: `server` at the top, `tools.script` under `tools`. */
function placed(sections: Record<string, unknown>): { top: Record<string, unknown>; under: Record<string, Table> } {
  const top: Record<string, unknown> = {};
  const under: Record<string, Table> = {};
  for (const [name, value] of Object.entries(sections)) {
    const [parent, form] = name.split('.') as [string, string | undefined];
    if (form === undefined) top[name] = value;
    else (under[parent] ??= {})[form] = value;
  }
  return { top, under };
}

type Table = Record<string, unknown>;
const sortedKeys = <T>(record: Readonly<Record<string, T>>): Record<string, T> =>
  Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** Engine → its `[db]` section, which claims the urls and paths it reads (ADR 0241). */
const claimsOf = (owned: OwnedSections): StoreClaims =>
  new Map([...owned.stores].map(([engine, { section }]) => [engine, section]));

/** `[plugin.<name>]` tables; their contents are checked later by each plugin's own schema. */
function pluginTables(raw: unknown): Record<string, Record<string, unknown>> {
  if (raw === undefined) return {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw configError('plugin must be a table of [plugin.<name>] tables');
  for (const [name, value] of Object.entries(raw)) {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw configError(`plugin.${name} must be a table ([plugin.${name}])`);
  }
  return raw as Record<string, Record<string, unknown>>;
}

function expandHome(p: string): string {
  return p === '~' || p.startsWith('~/') ? path.join(homedir(), p.slice(1)) : p;
}

function firstLine(message: string): string {
  return message.split('\n')[0] ?? message;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value) && !isCode(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
