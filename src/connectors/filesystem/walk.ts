// Recursive directory walk yielding regular files with their stat. Symbolic links are skipped unless
// `followSymlinks`; when followed, directories are tracked by device+inode so a link cycle ends.
// Synchronous calls on purpose: for thousands of local files they are several times cheaper than
// promises (a no-change resync of 5k files is mostly this walk).
import { readdirSync, realpathSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import type { GlobFilter } from '../globs.ts';

export interface WalkedFile {
  /** '/'-separated path relative to the root. */
  relative: string;
  absolute: string;
  stats: Stats;
}

export function walkFiles(root: string, filter: GlobFilter, followSymlinks: boolean): WalkedFile[] {
  const out: WalkedFile[] = [];
  const visited = new Set<string>();
  const rootStats = statSync(root);
  visited.add(`${rootStats.dev}:${rootStats.ino}`);

  function visit(dir: string, relDir: string): void {
    const entries = readdirSync(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirs: [string, string][] = [];
    for (const entry of entries) {
      const absolute = path.join(dir, entry.name);
      const relative = relDir ? `${relDir}/${entry.name}` : entry.name;
      if (entry.isSymbolicLink()) {
        if (!followSymlinks) continue;
        const target = statSync(absolute, { throwIfNoEntry: false }); // undefined: a dangling link
        if (target?.isDirectory()) {
          const key = `${target.dev}:${target.ino}`;
          if (visited.has(key) || filter.prunes(relative)) continue;
          visited.add(key);
          subdirs.push([realpathSync(absolute), relative]);
        } else if (target?.isFile() && filter.accepts(relative)) {
          out.push({ relative, absolute, stats: target });
        }
      } else if (entry.isDirectory()) {
        if (!filter.prunes(relative)) subdirs.push([absolute, relative]);
      } else if (entry.isFile() && filter.accepts(relative)) {
        const stats = statSync(absolute, { throwIfNoEntry: false }); // undefined: deleted since readdir
        if (stats) out.push({ relative, absolute, stats });
      }
    }
    for (const [abs, rel] of subdirs) {
      if (followSymlinks) {
        const s = statSync(abs);
        visited.add(`${s.dev}:${s.ino}`);
      }
      visit(abs, rel);
    }
  }

  visit(root, '');
  return out.sort((a, b) => (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0));
}
