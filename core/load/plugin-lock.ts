// The lock file beside the config (`kbctx.lock`): registry plugins that run with full rights, each
// pinned to its registry commit and the sha256 of its entry file when it was trusted. Read here
// before a plugin is imported; written by `kbctx registry add plugins/<name> --trust`.
import { sha256Hex } from '../domain/ids.ts';
import { existsSync, readFileSync } from 'node:fs';
import { parse as parseToml, stringify } from 'smol-toml';
import { configError } from '../domain/errors.ts';

export { LOCK_FILE } from '../config/load-config.ts';

export interface PluginPin {
  /** The plugin's name (its manifest's). */
  name: string;
  registry: string;
  /** The entry file inside the registry (`plugins/acme/index.ts`). */
  path: string;
  /** The entry file's absolute path, as the config's `plugins` list resolves it. */
  file: string;
  /** The registry's commit when trusted; null for a registry that is a plain folder. */
  commit: string | null;
  sha256: string;
}

export const sha256File = (file: string): string => sha256Hex(readFileSync(file));

/** The pins of a lock file by plugin name (empty when there is no lock file). */
export function readPluginLock(lockFile: string): Map<string, PluginPin> {
  if (!existsSync(lockFile)) return new Map();
  let tree: Record<string, unknown>;
  try {
    tree = parseToml(readFileSync(lockFile, 'utf8'));
  } catch (error) {
    throw configError(`${lockFile}: not valid TOML (${(error as Error).message.split('\n')[0]}); delete it and trust the registry plugins again`, error);
  }
  const pins = new Map<string, PluginPin>();
  for (const [name, raw] of Object.entries((tree['plugins'] ?? {}) as Record<string, Record<string, unknown>>)) {
    const { registry, path, file, commit, sha256 } = raw;
    if (typeof registry !== 'string' || typeof path !== 'string' || typeof file !== 'string' || typeof sha256 !== 'string') {
      throw configError(`${lockFile}: plugins.${name} needs registry, path, file and sha256; trust it again with \`kbctx registry add plugins/${name} --trust\``);
    }
    pins.set(name, { name, registry, path, file, commit: typeof commit === 'string' ? commit : null, sha256 });
  }
  return pins;
}

/** The lock file's text for these pins, sorted by name. */
export function formatPluginLock(pins: Iterable<PluginPin>): string {
  const tables = Object.fromEntries(
    [...pins]
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((p) => [p.name, { registry: p.registry, path: p.path, file: p.file, ...(p.commit ? { commit: p.commit } : {}), sha256: p.sha256 }]),
  );
  const header = '# Registry plugins trusted to run with full rights (`kbctx registry add plugins/<name> --trust`).\n# kbctx refuses to load one whose entry file no longer has this sha256. Written by kbctx.\n\n';
  return `${header}${stringify({ plugins: tables })}\n`;
}
