// The error for a `plugins` path that names no file: where it was looked for (the config root, ADR
// 0114) and, when the entry names a file relative to the config file's own folder (the rule plugin
// paths followed before), the entry to write instead.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { configError, type KbctxError } from '../domain/errors.ts';

export function missingPluginFile(
  spec: { file: string; as: string },
  baseDir: string,
  configFile: string | null,
): KbctxError {
  const rule = `paths are relative to the project folder ${baseDir}, like every path in the config`;
  const besideConfig =
    configFile === null || path.isAbsolute(spec.as) ? null : path.resolve(path.dirname(configFile), spec.as);
  const instead =
    besideConfig !== null && besideConfig !== spec.file && existsSync(besideConfig)
      ? `; ${besideConfig} exists: write "./${path.relative(baseDir, besideConfig).split(path.sep).join('/')}"`
      : '';
  return configError(`plugin ${spec.as}: no such file (${spec.file}; ${rule})${instead}`);
}
