// The cache's record of one model: `.kbctx-model.json` in its folder, written last when a fetch ends,
// so a folder without it (a fetch killed half-way) never counts as present; `.last-used`'s time is
// when an embedder last resolved the model. Synchronous and cheap: the embedder checks on creation.
import { existsSync, readdirSync, readFileSync, renameSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const MANIFEST = '.kbctx-model.json';
const LAST_USED = '.last-used';

export interface ManifestFile {
  readonly path: string;
  readonly size: number;
  /** Verified against the hub's announcement (LFS files); null for small git files. */
  readonly sha256: string | null;
}

export interface ModelManifest {
  readonly id: string;
  readonly revision: string;
  readonly files: readonly ManifestFile[];
  /** ISO time of the last fetch. */
  readonly fetched: string;
}

export function readManifest(folder: string): ModelManifest | null {
  try {
    const m = JSON.parse(readFileSync(join(folder, MANIFEST), 'utf8')) as ModelManifest;
    return typeof m.id === 'string' && Array.isArray(m.files) ? m : null;
  } catch {
    return null;
  }
}

/** Replaces the manifest in one rename. */
export function writeManifest(folder: string, manifest: ModelManifest): void {
  const temp = join(folder, `${MANIFEST}.${process.pid}.tmp`);
  writeFileSync(temp, `${JSON.stringify(manifest, null, 2)}\n`);
  renameSync(temp, join(folder, MANIFEST));
}

/** True when the manifest exists and every required file is in the folder. */
export function isComplete(folder: string, required: readonly string[]): boolean {
  return existsSync(join(folder, MANIFEST)) && required.every((file) => existsSync(join(folder, file)));
}

export function markUsed(folder: string): void {
  const file = join(folder, LAST_USED);
  const now = new Date();
  try {
    utimesSync(file, now, now);
  } catch {
    try {
      writeFileSync(file, '');
    } catch {
      // a read-only cache still serves the model
    }
  }
}

export function lastUsed(folder: string): Date | null {
  try {
    return statSync(join(folder, LAST_USED)).mtime;
  } catch {
    return null;
  }
}

/** Every model folder under the cache (two levels: owner/name), with its manifest. */
export function listCached(cacheDir: string): { folder: string; manifest: ModelManifest }[] {
  const out: { folder: string; manifest: ModelManifest }[] = [];
  const dirs = (dir: string): string[] => {
    try {
      return readdirSync(dir, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
        .sort();
    } catch {
      return [];
    }
  };
  for (const owner of dirs(cacheDir)) {
    for (const name of dirs(join(cacheDir, owner))) {
      const folder = join(cacheDir, owner, name);
      const manifest = readManifest(folder);
      if (manifest) out.push({ folder, manifest });
    }
  }
  return out;
}
