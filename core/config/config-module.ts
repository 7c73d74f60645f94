// Config as code (ADR 0128): `kbctx.config.mjs` (or a `.mjs`/`.js`/`.mts`/`.ts` file given with -c or
// $KBCTX_CONFIG) default-exports the tree config/kbctx.toml would parse to, or a function (possibly
// async) returning it. Importing is asynchronous, so the CLI's prepare() and the library's openKbctx
// import the module first and hand the tree to the synchronous loadConfig, which validates it with
// the same parseConfigTree and messages as a TOML file.
import { statSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { configError } from '../domain/errors.ts';

/** A config module's default export, evaluated: the tree handed to loadConfig. */
export interface ConfigModule {
  /** Absolute path of the module. */
  readonly file: string;
  readonly tree: Record<string, unknown>;
}

/**
 * Imports a config module and evaluates its default export. `label` names the file in messages; `env`
 * is passed to a function export (`export default ({ env }) => ({ ... })`). A changed file is imported
 * anew (the URL carries its modification time), so a library caller reopening kbctx sees the edit.
 */
export async function importConfigModule(file: string, label: string, env: NodeJS.ProcessEnv): Promise<ConfigModule> {
  let module: Record<string, unknown>;
  try {
    module = (await import(`${pathToFileURL(file).href}?mtime=${statSync(file).mtimeMs}`)) as Record<string, unknown>;
  } catch (error) {
    throw configError(`${label}: the config module failed to load: ${messageOf(error)}`, error);
  }
  if (!('default' in module))
    throw configError(
      `${label}: a config module needs a default export: export default { ... } (the tree config/kbctx.toml ` +
        `would parse to), or a function returning it`,
    );
  let exported = module['default'];
  if (typeof exported === 'function') {
    try {
      exported = await (exported as (context: { env: NodeJS.ProcessEnv }) => unknown)({ env });
    } catch (error) {
      throw configError(`${label}: the default export threw: ${messageOf(error)}`, error);
    }
  }
  if (exported === null || typeof exported !== 'object' || Array.isArray(exported)) {
    throw configError(
      `${label}: the default export must be an object with the config ` +
        `keys (or a function returning one), got ${describe(exported)}`,
    );
  }
  return { file, tree: exported as Record<string, unknown> };
}

const describe = (v: unknown): string =>
  v === null
    ? 'null'
    : Array.isArray(v)
      ? 'an array'
      : v === undefined
        ? 'undefined'
        : `${typeof v}${typeof v === 'function' || typeof v === 'object' ? '' : ` ${JSON.stringify(v)}`}`;

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
