// Recursive directory walk yielding regular files with their stat. Symbolic links are skipped unless
// `followSymlinks`; when followed, directories are tracked by device+inode so a link cycle ends.
// What cannot be read below the root (a folder without permission, a link loop) is reported in
// `unreadable` and the walk goes on; only an unreadable root throws.
// Synchronous calls on purpose: for thousands of local files they are several times cheaper than
// promises (a no-change resync of 5k files is mostly this walk).
import type { UnreadablePath, GlobFilter } from '../../core/index.ts';
import { readdirSync, realpathSync, statSync, type Dirent, type Stats } from 'node:fs';
import path from 'node:path';

export interface WalkedFile {
  /** '/'-separated path relative to the root. */
  relative: string;
  absolute: string;
  stats: Stats;
}

export interface Walk {
  files: WalkedFile[];
  unreadable: UnreadablePath[];
}

export function walkFiles(root: string, filter: GlobFilter, followSymlinks: boolean): Walk {
  const out: WalkedFile[] = [];
  const unreadable: UnreadablePath[] = [];
  const visited = new Set<string>();
  const rootStats = statSync(root);
  visited.add(`${rootStats.dev}:${rootStats.ino}`);

  /** Runs `read`; a failure is recorded against `relative` (a folder ends in '/') and gives undefined. */
  function attempt<T>(relative: string, read: () => T): T | undefined {
    if (relative === '') return read(); // the root: the whole connector fails
    try {
      return read();
    } catch (error) {
      unreadable.push({ sourceId: relative, reason: readFailure(error) });
      return undefined;
    }
  }

  function visit(dir: string, relDir: string): void {
    const entries = attempt<Dirent[]>(relDir === '' ? '' : `${relDir}/`, () =>
      readdirSync(dir, { withFileTypes: true }),
    );
    if (!entries) return;
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirs: [string, string][] = [];
    for (const entry of entries) {
      const absolute = path.join(dir, entry.name);
      const relative = relDir ? `${relDir}/${entry.name}` : entry.name;
      if (entry.isSymbolicLink()) {
        if (!followSymlinks) continue;
        // undefined: dangling or unreadable
        const target = attempt(relative, () => statSync(absolute, { throwIfNoEntry: false }));
        if (target?.isDirectory()) {
          const key = `${target.dev}:${target.ino}`;
          if (visited.has(key) || filter.prunes(relative)) continue;
          visited.add(key);
          const real = attempt(`${relative}/`, () => realpathSync(absolute));
          if (real !== undefined) subdirs.push([real, relative]);
        } else if (target?.isFile() && filter.accepts(relative)) {
          out.push({ relative, absolute, stats: target });
        }
      } else if (entry.isDirectory()) {
        if (!filter.prunes(relative)) subdirs.push([absolute, relative]);
      } else if (entry.isFile() && filter.accepts(relative)) {
        // undefined: deleted since readdir
        const stats = attempt(relative, () => statSync(absolute, { throwIfNoEntry: false }));
        if (stats) out.push({ relative, absolute, stats });
      }
    }
    for (const [abs, rel] of subdirs) {
      if (followSymlinks) {
        const s = attempt(`${rel}/`, () => statSync(abs));
        if (!s) continue;
        visited.add(`${s.dev}:${s.ino}`);
      }
      visit(abs, rel);
    }
  }

  visit(root, '');
  return { files: out.sort((a, b) => (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0)), unreadable };
}

/** Why a path could not be read, in the user's terms. */
export function readFailure(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ELOOP') return 'symbolic link loop';
  return code ?? (error as Error).message;
}
