// Which walked files lie outside the root once links are resolved (`follow_symlinks = true`): what
// `kbctx doctor` warns about, since a link can make a file elsewhere on the machine searchable.
import { realpathSync } from 'node:fs';
import path from 'node:path';
import type { WalkedFile } from './walk.ts';

export interface OutsideFile {
  relative: string;
  /** The file's real path. */
  real: string;
}

export function filesOutsideRoot(root: string, files: readonly WalkedFile[]): OutsideFile[] {
  const realRoot = realpathSync(root);
  const out: OutsideFile[] = [];
  for (const f of files) {
    let real: string;
    try {
      real = realpathSync(f.absolute);
    } catch {
      continue; // gone since the walk
    }
    const rel = path.relative(realRoot, real);
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) out.push({ relative: f.relative, real });
  }
  return out;
}
