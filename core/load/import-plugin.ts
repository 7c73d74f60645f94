// Imports one plugin module named by path or package, relative to the config root (ADR 0114). Other
// files (`.lua`) are resolved by a plugin instead (resolve-plugin-file.ts).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { configError, type KbctxError } from '../domain/errors.ts';
import type { PluginSpec } from './plugin-specs.ts';

const NODE_MODULE = /\.(ts|mts|cts|mjs|cjs|js)$/;

/** Packages, plugin objects, and paths Node imports itself (by extension; a path without one is tried as a module). */
export const isImportable = (spec: Exclude<PluginSpec, { kind: 'bundled' }>): boolean =>
  spec.kind !== 'path' || NODE_MODULE.test(spec.file) || path.extname(spec.file) === '';

/** The plugin's module and the file it was imported from (its entry: errors from its timers are attributed by it). */
export async function importPluginModule(
  spec: { kind: 'path'; file: string; as: string } | { kind: 'package'; name: string },
  baseDir: string,
  configFile: string | null = null,
): Promise<{ module: unknown; file: string }> {
  let file: string;
  if (spec.kind === 'path') {
    if (!existsSync(spec.file)) throw missingPluginFile(spec, baseDir, configFile);
    file = spec.file;
  } else {
    try {
      file = createRequire(path.join(baseDir, 'noop.js')).resolve(spec.name);
    } catch {
      throw configError(
        `plugin ${spec.name}: package not found from ${baseDir} (install it with npm, or give a path starting with ./)`,
      );
    }
  }
  try {
    return { module: await import(pathToFileURL(file).href), file };
  } catch (error) {
    throw configError(
      `plugin ${spec.kind === 'path' ? spec.as : spec.name}: failed to load: ${(error as Error).message}`,
      error,
    );
  }
}

/**
 * The error for a `plugins` path that names no file: where it was looked for (the config root, ADR 0114) and, when the
 * entry names a file relative to the config file's own folder (the rule plugin paths followed before), the entry to
 * write instead (resolve-plugin-file.ts raises it too).
 */
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
