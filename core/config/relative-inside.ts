// Whether a path lies inside a folder, and where: the loader's trust check (a plugin file inside a configured
// registry) and the registry library both ask it.
import path from 'node:path';

/** `target` relative to `folder` with forward slashes, or null when it is not inside it (or is the folder). */
export function relativeInside(folder: string, target: string): string | null {
  const rel = path.relative(path.resolve(folder), path.resolve(target));
  if (rel === '' || rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) return null;
  return rel.split(path.sep).join('/');
}
