// A path as kbctx writes it into a config or lock file (`registry add`, `registry init`, kbctx.lock):
// relative to the config root when inside the project (`./registries/acme/tool.lua`), `~/…` under the
// home folder, else absolute. The config resolves each form back (ADR 0114), so a project with
// registry entries can be committed and moved.
import { homedir } from 'node:os';
import path from 'node:path';

export function toConfigPath(file: string, projectDir: string, home: string = homedir()): string {
  const inside = relativeInside(projectDir, file);
  if (inside !== null) return `./${inside}`;
  const underHome = home === '' ? null : relativeInside(home, file);
  return underHome !== null ? `~/${underHome}` : file;
}

/** `target` relative to `folder` with forward slashes, or null when it is not inside it (or is the folder). */
export function relativeInside(folder: string, target: string): string | null {
  const rel = path.relative(path.resolve(folder), path.resolve(target));
  if (rel === '' || rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) return null;
  return rel.split(path.sep).join('/');
}
