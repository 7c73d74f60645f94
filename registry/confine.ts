// Keeps registry paths inside their registry: a manifest entry's script, and `override`'s copy target.
// Checked twice: lexically (`..`, absolute paths) and after resolving symbolic links (realpath of the
// path, or of its nearest existing parent when it does not exist yet).
import { lstatSync, realpathSync } from 'node:fs';
import path from 'node:path';

/** Null when `target` stays inside `root`, else why not ("is outside …" / "resolves outside … (to …)"). */
export function escapeFrom(root: string, target: string): string | null {
  const absolute = path.resolve(root, target);
  if (!isInside(path.resolve(root), absolute)) return `is outside the registry ${root}`;
  let real: string;
  try {
    real = realpathOfNearest(absolute);
    if (isInside(realpathSync(root), real)) return null;
  } catch (error) {
    return `cannot be resolved (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
  }
  return `resolves outside the registry ${root} (to ${real})`;
}

function realpathOfNearest(absolute: string): string {
  let existing = absolute;
  // lstat, not exists: a dangling link is there, and realpath of it fails (refused) rather than passing.
  while (!lstatSync(existing, { throwIfNoEntry: false }) && path.dirname(existing) !== existing)
    existing = path.dirname(existing);
  return path.join(realpathSync(existing), path.relative(existing, absolute));
}

function isInside(root: string, target: string): boolean {
  const rel = path.relative(root, target);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}
