// Host module `fs`: read-only, confined to the script's folder. Paths are relative to that folder;
// `..`, absolute paths outside it and symlinks that resolve outside it are refused (realpath check).
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';

export interface FsEntry {
  path: string;
  size: number;
  modified: number;
}

export class ConfinedFs {
  private readonly root: string;

  constructor(scriptDir: string) {
    this.root = realpathSync(scriptDir);
  }

  read(relative: unknown): string {
    const file = this.resolve('fs.read', relative);
    try {
      return readFileSync(file, 'utf8');
    } catch (error) {
      throw new Error(
        `fs.read: cannot read '${String(relative)}': ` +
          `${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
        { cause: error },
      );
    }
  }

  /** Files directly inside `dir` (non-recursive), optionally matching a glob on the file name. */
  list(dir: unknown, glob: unknown): FsEntry[] {
    const folder = this.resolve('fs.list', dir ?? '.');
    if (glob !== undefined && typeof glob !== 'string') throw new Error('fs.list: the glob must be a string');
    const matches = glob ? picomatch(glob, { dot: true }) : () => true;
    const out: FsEntry[] = [];
    for (const name of readdirSync(folder).sort()) {
      if (!matches(name)) continue;
      const real = this.realInside(path.join(folder, name));
      if (!real) continue;
      const stat = statSync(real);
      if (!stat.isFile()) continue;
      out.push({
        path: path.relative(this.root, path.join(folder, name)).split(path.sep).join('/'),
        size: stat.size,
        modified: Math.floor(stat.mtimeMs / 1000),
      });
    }
    return out;
  }

  private resolve(fn: string, relative: unknown): string {
    if (typeof relative !== 'string' || relative === '') throw new Error(`${fn}: expected a path (string)`);
    const full = path.resolve(this.root, relative);
    if (!this.inside(full)) throw new Error(`${fn}: '${relative}' is outside the script's folder`);
    let real: string;
    try {
      real = realpathSync(full);
    } catch (error) {
      throw new Error(
        `${fn}: cannot read '${relative}': ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
        { cause: error },
      );
    }
    if (!this.inside(real)) throw new Error(`${fn}: '${relative}' resolves outside the script's folder`);
    return real;
  }

  private realInside(full: string): string | null {
    try {
      const real = realpathSync(full);
      return this.inside(real) ? real : null;
    } catch {
      return null;
    }
  }

  private inside(full: string): boolean {
    const rel = path.relative(this.root, full);
    return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
  }
}
