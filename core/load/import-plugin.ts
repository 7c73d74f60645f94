// Imports one plugin module named by path or package, relative to the config file's folder.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { configError } from '../../src/core/errors.ts';

export async function importPluginModule(spec: { kind: 'path'; file: string; as: string } | { kind: 'package'; name: string }, baseDir: string): Promise<unknown> {
  let url: string;
  if (spec.kind === 'path') {
    if (!existsSync(spec.file)) throw configError(`plugin ${spec.as}: no such file (${spec.file}; paths are relative to the config file's folder)`);
    if (spec.file.endsWith('.lua')) throw configError(`plugin ${spec.as}: Lua plugins need the Lua bridge plugin, which is not loaded yet in this version`);
    url = pathToFileURL(spec.file).href;
  } else {
    try {
      url = pathToFileURL(createRequire(path.join(baseDir, 'noop.js')).resolve(spec.name)).href;
    } catch {
      throw configError(`plugin ${spec.name}: package not found from ${baseDir} (install it with npm, or give a path starting with ./)`);
    }
  }
  try {
    return await import(url);
  } catch (error) {
    throw configError(`plugin ${spec.kind === 'path' ? spec.as : spec.name}: failed to load: ${(error as Error).message}`, error);
  }
}
