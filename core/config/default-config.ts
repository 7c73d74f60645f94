// The built-in configuration used when no config file exists: config/kbctx.default.toml, shipped with
// the package (read only then). Its leading comment is left out (it describes the file itself).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from './package-root.ts';

export function defaultConfigToml(): string {
  return readFileSync(path.join(packageRoot(), 'config', 'kbctx.default.toml'), 'utf8').replace(/^(#.*\n)+\n?/, '');
}
