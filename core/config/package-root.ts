// The installed package's folder (where package.json and bin/ live), found by walking up from this
// file: the same answer from the TypeScript sources (core/) and from the build (dist/core/); and the built-in
// configuration read from it.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

export function packageRoot(): string {
  if (cached) return cached;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'kbctx')
      return (cached = dir);
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`kbctx: no package.json of kbctx above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}

/**
 * The built-in configuration used when no config file exists: config/kbctx.default.toml, shipped with the package
 * (read only then). Its leading comment is left out (it describes the file itself).
 */
export function defaultConfigToml(): string {
  return readFileSync(path.join(packageRoot(), 'config', 'kbctx.default.toml'), 'utf8').replace(/^(#.*\n)+\n?/, '');
}
