// The `plugins` list of a config, expanded: `bundled` is the ordered first-party set, `!name` drops
// one (bundled or not), anything else is a path (relative to the config root, the project folder
// above `config/`, like every path in the config: ADR 0114) or a package name. A
// config module (kbctx.config.mjs, ADR 0128) may also list plugin objects: `plugins: ['bundled', acme]`;
// `!acme` drops such an object by its name too.
import path from 'node:path';
import { configError } from '../domain/errors.ts';

export type PluginSpec =
  | { kind: 'bundled'; name: string }
  | { kind: 'path'; file: string; as: string }
  | { kind: 'package'; name: string }
  /** A plugin object written in the config module itself; `as` names its place (`kbctx.config.mjs plugins[1]`). */
  | { kind: 'inline'; plugin: object; as: string };

const PATH_LIKE = /^(\.{1,2}[\\/]|\/|~\/)|\.(ts|mts|mjs|js|lua)$/;

/** True when a `plugins` entry is a path rather than a package name. */
export const isPluginPath = (entry: string): boolean => PATH_LIKE.test(entry);

/**
 * A path entry of `plugins`, absolute: `~/` is the home folder, anything else relative to `baseDir` (the config root).
 */
export const resolvePluginPath = (entry: string, baseDir: string): string =>
  path.resolve(baseDir, entry.startsWith('~/') ? path.join(process.env['HOME'] ?? '~', entry.slice(2)) : entry);

const inlineName = (entry: object): unknown => (entry as { name?: unknown }).name;

/** `configFile` (when known) names where an inline plugin object was written, in its errors and in `kbctx plugins`. */
export function expandPluginSpecs(
  entries: readonly (string | object)[],
  bundled: readonly string[],
  baseDir: string,
  configFile: string | null = null,
): PluginSpec[] {
  const named = entries.filter((e): e is string => typeof e === 'string');
  const dropped = new Set(named.filter((e) => e.startsWith('!')).map((e) => e.slice(1).trim()));
  for (const name of dropped) {
    if (name === '') throw configError('plugins: "!" must be followed by a plugin name (e.g. "!web")');
  }
  const specs: PluginSpec[] = [];
  for (const [i, entry] of entries.entries()) {
    if (typeof entry !== 'string') {
      if (!dropped.has(String(inlineName(entry))))
        specs.push({
          kind: 'inline',
          plugin: entry,
          as: `${configFile === null ? '' : `${path.basename(configFile)} `}plugins[${i}]`,
        });
      continue;
    }
    if (entry.startsWith('!')) continue;
    const value = entry.trim();
    if (value === '') throw configError('plugins: an entry is empty');
    if (value === 'bundled')
      specs.push(...bundled.filter((n) => !dropped.has(n)).map((name) => ({ kind: 'bundled' as const, name })));
    else if (isPluginPath(value)) specs.push({ kind: 'path', file: resolvePluginPath(value, baseDir), as: value });
    else specs.push({ kind: 'package', name: value });
  }
  const inlineNames = entries.filter((e) => typeof e !== 'string').map((e) => inlineName(e));
  const unknownDrops = [...dropped].filter(
    (name) => !bundled.includes(name) && !named.includes(name) && !inlineNames.includes(name),
  );
  if (unknownDrops.length > 0) {
    throw configError(
      `plugins: "!${unknownDrops[0]}" drops a plugin that is not in the list; bundled plugins: ${bundled.join(', ')}`,
    );
  }
  return specs;
}
