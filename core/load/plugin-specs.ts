// The `plugins` list of a config, expanded: `bundled` is the ordered first-party set, `!name` drops
// one (bundled or not), anything else is a path (relative to the config file) or a package name.
import path from 'node:path';
import { configError } from '../domain/errors.ts';

export type PluginSpec = { kind: 'bundled'; name: string } | { kind: 'path'; file: string; as: string } | { kind: 'package'; name: string };

const PATH_LIKE = /^(\.{1,2}[\\/]|\/|~\/)|\.(ts|mts|mjs|js|lua)$/;

export function expandPluginSpecs(entries: readonly string[], bundled: readonly string[], baseDir: string): PluginSpec[] {
  const dropped = new Set(entries.filter((e) => e.startsWith('!')).map((e) => e.slice(1).trim()));
  for (const name of dropped) {
    if (name === '') throw configError('plugins: "!" must be followed by a plugin name (e.g. "!web")');
  }
  const specs: PluginSpec[] = [];
  for (const entry of entries) {
    if (entry.startsWith('!')) continue;
    const value = entry.trim();
    if (value === '') throw configError('plugins: an entry is empty');
    if (value === 'bundled') specs.push(...bundled.filter((n) => !dropped.has(n)).map((name) => ({ kind: 'bundled' as const, name })));
    else if (PATH_LIKE.test(value)) specs.push({ kind: 'path', file: path.resolve(baseDir, value.startsWith('~/') ? path.join(process.env['HOME'] ?? '~', value.slice(2)) : value), as: value });
    else specs.push({ kind: 'package', name: value });
  }
  const unknownDrops = [...dropped].filter((name) => !bundled.includes(name) && !entries.includes(name));
  if (unknownDrops.length > 0) {
    throw configError(`plugins: "!${unknownDrops[0]}" drops a plugin that is not in the list; bundled plugins: ${bundled.join(', ')}`);
  }
  return specs;
}
