// A path as kbctx writes it into a config or lock file (`registry add`, `registry init`, kbctx.lock):
// relative to the config root when inside the project (`./registries/acme/tool.lua`), `~/…` under the
// home folder, else absolute. The config resolves each form back (ADR 0114), so a project with
// registry entries can be committed and moved. The registry library's (ADR 0232): the kernel only reads paths.
import { homedir } from 'node:os';
import { relativeInside } from '../core/config/relative-inside.ts';

export function toConfigPath(file: string, projectDir: string, home: string = homedir()): string {
  const inside = relativeInside(projectDir, file);
  if (inside !== null) return `./${inside}`;
  const underHome = home === '' ? null : relativeInside(home, file);
  return underHome !== null ? `~/${underHome}` : file;
}
