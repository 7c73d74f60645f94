// Recursive directory walk yielding regular files with their stat. Symbolic links are skipped unless
// `followSymlinks`; when followed, directories are tracked by device+inode so a link cycle ends.
import { readdir, realpath, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import path from 'node:path';
import type { GlobFilter } from '../globs.ts';

export interface WalkedFile {
  /** '/'-separated path relative to the root. */
  relative: string;
  absolute: string;
  stats: Stats;
}

export async function walkFiles(root: string, filter: GlobFilter, followSymlinks: boolean): Promise<WalkedFile[]> {
  const out: WalkedFile[] = [];
  const visited = new Set<string>();
  const rootStats = await stat(root);
  visited.add(`${rootStats.dev}:${rootStats.ino}`);

  async function visit(dir: string, relDir: string): Promise<void> {
    const entries = await readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const statTasks: Promise<void>[] = [];
    const subdirs: [string, string][] = [];
    for (const entry of entries) {
      const absolute = path.join(dir, entry.name);
      const relative = relDir ? `${relDir}/${entry.name}` : entry.name;
      if (entry.isSymbolicLink()) {
        if (!followSymlinks) continue;
        statTasks.push(
          stat(absolute)
            .then(async (target) => {
              if (target.isDirectory()) {
                const key = `${target.dev}:${target.ino}`;
                if (visited.has(key) || filter.prunes(relative)) return;
                visited.add(key);
                subdirs.push([await realpath(absolute), relative]);
              } else if (target.isFile() && filter.accepts(relative)) {
                out.push({ relative, absolute, stats: target });
              }
            })
            .catch(() => undefined), // dangling link: nothing to index
        );
      } else if (entry.isDirectory()) {
        if (!filter.prunes(relative)) subdirs.push([absolute, relative]);
      } else if (entry.isFile() && filter.accepts(relative)) {
        statTasks.push(stat(absolute).then((stats) => void out.push({ relative, absolute, stats })));
      }
    }
    await Promise.all(statTasks);
    for (const [abs, rel] of subdirs) {
      if (!followSymlinks) await visit(abs, rel);
      else {
        const s = await stat(abs);
        visited.add(`${s.dev}:${s.ino}`);
        await visit(abs, rel);
      }
    }
  }

  await visit(root, '');
  return out.sort((a, b) => (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0));
}
