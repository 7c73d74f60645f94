// The lock file beside the config (`kbctx.lock`): registry plugins that run with full rights, each
// pinned to its registry commit and the sha256 of its files (the entry's folder, every file in it)
// when it was trusted. Read here before a plugin is imported; written by `kbctx registry add
// plugins/<name> --trust`.
import { sha256Hex } from '../core/domain/ids.ts';
import { existsSync, readdirSync, readFileSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import nodePath from 'node:path';
import { parse as parseToml, stringify } from 'smol-toml';
import { toConfigPath } from './config-path.ts';
import { configError } from '../core/domain/errors.ts';
import { importedOutside, isModuleFile } from './plugin-imports.ts';
import { resolvePluginPath } from '../core/load/plugin-specs.ts';

export { LOCK_FILE } from '../core/config/load-config.ts';

export interface PluginPin {
  /** The plugin's name (its manifest's). */
  name: string;
  registry: string;
  /** The entry file inside the registry (`plugins/acme/index.ts`). */
  path: string;
  /**
   * The entry file's absolute path, as the config's `plugins` list resolves it (written relative to the project:
   * toConfigPath).
   */
  file: string;
  /** The registry's commit when trusted; null for a registry that is a plain folder. */
  commit: string | null;
  /** sha256Plugin of the entry when trusted: the digest of every file in the plugin's folder. */
  sha256: string;
}

/**
 * The digest a pin holds: every file under the entry's folder (the plugin's folder, beside its
 * kbctx-plugin.toml), so a changed helper module is refused like a changed entry, and every file
 * outside it that its modules import (plugin-imports.ts), so a changed `../../shared/util.ts` is too.
 * One line per file, sorted by its path relative to the folder (`../shared/util.ts` for one outside):
 * `<path>\0<sha256 of its bytes>\n` (a symbolic link: of its target's name, and of the bytes when it
 * leads to a file; linked folders are not walked); the sha256 of those lines. `.git` folders are skipped.
 */
export function sha256Plugin(entryFile: string): string {
  const root = nodePath.dirname(entryFile);
  const lines: string[] = [];
  const modules: { file: string; bytes: Buffer }[] = [];
  const read = (file: string): Buffer => {
    const bytes = readFileSync(file);
    if (isModuleFile(file)) modules.push({ file, bytes });
    return bytes;
  };
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = nodePath.join(dir, entry.name);
      const rel = nodePath.relative(root, full).split(nodePath.sep).join('/');
      if (entry.isDirectory()) {
        if (entry.name !== '.git') walk(full);
      } else if (entry.isSymbolicLink()) {
        // Its target's name, and the bytes of a file it leads to (a linked entry or helper counts as changed too).
        const target = statSync(full, { throwIfNoEntry: false });
        lines.push(
          `${rel}\0link:${sha256Hex(readlinkSync(full))}${target?.isFile() ? `:${sha256Hex(read(full))}` : ''}\n`,
        );
      } else if (entry.isFile()) lines.push(`${rel}\0${sha256Hex(read(full))}\n`);
    }
  };
  statSync(entryFile); // a missing entry fails here, naming it (the walk below reads it with the rest)
  walk(root);
  const realRoot = realpathSync(root);
  for (const [file, bytes] of importedOutside(root, modules)) {
    lines.push(`${nodePath.relative(realRoot, file).split(nodePath.sep).join('/')}\0${sha256Hex(bytes)}\n`);
  }
  return sha256Hex(lines.sort().join(''));
}

/**
 * The pins of a lock file by plugin name (empty when there is no lock file); `file`s resolve against `baseDir`, the
 * config root.
 */
export function readPluginLock(lockFile: string, baseDir: string): Map<string, PluginPin> {
  if (!existsSync(lockFile)) return new Map();
  let tree: Record<string, unknown>;
  try {
    tree = parseToml(readFileSync(lockFile, 'utf8'));
  } catch (error) {
    throw configError(
      `${lockFile}: not valid TOML (${(error as Error).message.split('\n')[0]}); ` +
        `delete it and trust the registry plugins again`,
      error,
    );
  }
  const pins = new Map<string, PluginPin>();
  for (const [name, raw] of Object.entries((tree['plugins'] ?? {}) as Record<string, Record<string, unknown>>)) {
    const { registry, path, file, commit, sha256 } = raw;
    if (
      typeof registry !== 'string' ||
      typeof path !== 'string' ||
      typeof file !== 'string' ||
      typeof sha256 !== 'string'
    ) {
      throw configError(
        `${lockFile}: plugins.${name} needs registry, path, file and sha256; trust it again with \`kbctx ` +
          `registry add plugins/${name} --trust\``,
      );
    }
    pins.set(name, {
      name,
      registry,
      path,
      file: resolvePluginPath(file, baseDir),
      commit: typeof commit === 'string' ? commit : null,
      sha256,
    });
  }
  return pins;
}

/**
 * The lock file's text for these pins, sorted by name; each `file` relative to `baseDir` (the config root) when inside
 * it.
 */
export function formatPluginLock(pins: Iterable<PluginPin>, baseDir: string): string {
  const tables = Object.fromEntries(
    [...pins]
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((p) => [
        p.name,
        {
          registry: p.registry,
          path: p.path,
          file: toConfigPath(p.file, baseDir),
          ...(p.commit ? { commit: p.commit } : {}),
          sha256: p.sha256,
        },
      ]),
  );
  const header =
    '# Registry plugins trusted to run with full rights (`kbctx registry add plugins/<name> --trust`).\n# kbctx ' +
    'refuses to load one whose files (its folder) no longer have this sha256. Written by kbctx.\n\n';
  return `${header}${stringify({ plugins: tables })}\n`;
}
