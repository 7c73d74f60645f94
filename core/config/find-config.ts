// Which config file a command uses, without reading it. kbctx's locations first, then Context
// Harness's, so a ctx.toml workspace works unchanged:
//   1. -c/--config   2. $KBCTX_CONFIG   3. $CTX_CONFIG   4. ./config/kbctx.toml
//   5. ./config/kbctx.config.mjs (config as code, ADR 0128)
//   6. .ctx/config.toml in the working directory or the nearest parent that has one
//   7. ./config/ctx.toml   8. Context Harness's global config ($CTX_CONFIG_DIR, $XDG_CONFIG_HOME/ctx or
//   ~/.config/ctx, then config.toml)   9. the built-in default (only when none of the above exists)
// Relative paths in a file resolve against its config root (ADR 0114), whatever the working directory.
// Hand-written rather than cosmiconfig: ADR 0123 and 0128 (the order across kinds of location, the
// injected environment, and start-up cost).
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

export interface ConfigLocation {
  /** Absolute path; null for the built-in default. */
  file: string | null;
  /** How it was found, for messages (`-c`, `$KBCTX_CONFIG`, `./config/kbctx.toml`, …, `built-in default`). */
  via: string;
  /**
   * What relative paths in the file resolve against: its config root (`configRoot`); the working
   * directory for the built-in default and for Context Harness's global file (defaults for any workspace).
   */
  baseDir: string;
  /** True when the path came from -c or an environment variable (a missing file is then an error). */
  explicit: boolean;
}

export function findConfig(options: {
  configPath?: string | undefined;
  cwd: string;
  env: NodeJS.ProcessEnv;
}): ConfigLocation {
  const { cwd, env } = options;
  const explicit: [string | undefined, string][] = [
    [options.configPath, '-c/--config'],
    [env['KBCTX_CONFIG'], '$KBCTX_CONFIG'],
    [env['CTX_CONFIG'], '$CTX_CONFIG'],
  ];
  for (const [value, via] of explicit) {
    if (value) {
      const file = path.resolve(cwd, value);
      return { file, via, baseDir: configRoot(file), explicit: true };
    }
  }
  for (const name of ['kbctx.toml', 'kbctx.config.mjs']) {
    const file = path.join(cwd, 'config', name);
    if (existsSync(file)) return { file, via: `./config/${name}`, baseDir: configRoot(file), explicit: false };
  }
  for (let dir = cwd; ; dir = path.dirname(dir)) {
    const workspace = path.join(dir, '.ctx', 'config.toml');
    if (existsSync(workspace))
      return {
        file: workspace,
        via: dir === cwd ? './.ctx/config.toml' : `${workspace} (nearest .ctx/ above the working directory)`,
        baseDir: configRoot(workspace),
        explicit: false,
      };
    if (path.dirname(dir) === dir) break;
  }
  const legacy = path.join(cwd, 'config', 'ctx.toml');
  if (existsSync(legacy))
    return { file: legacy, via: './config/ctx.toml', baseDir: configRoot(legacy), explicit: false };
  const global = path.join(globalConfigDir(env), 'config.toml');
  if (existsSync(global)) return { file: global, via: 'Context Harness global config', baseDir: cwd, explicit: false };
  return { file: null, via: 'built-in default', baseDir: cwd, explicit: false };
}

/**
 * A config file that is a module (`kbctx.config.mjs`, or any `.mjs`/`.js`/`.mts`/`.ts` given with -c): imported, not
 * parsed.
 */
export const isConfigModule = (file: string): boolean => /\.m?[jt]s$/.test(file);

/**
 * The folder a config file's relative paths resolve against: the file's folder, or the project above it
 * when that folder is `config/` or `.ctx/` (kbctx's `config/kbctx.toml`, Context Harness's
 * `config/ctx.toml` and `.ctx/config.toml`), so `sync` in the project and a desktop client passing
 * `-c /abs/project/config/kbctx.toml` from anywhere open the same index.
 */
export function configRoot(file: string): string {
  const folder = path.dirname(file);
  return CONFIG_FOLDERS.has(path.basename(folder)) ? path.dirname(folder) : folder;
}

const CONFIG_FOLDERS = new Set(['config', '.ctx']);

/** Context Harness's XDG config folder; relative environment values are ignored, as the XDG spec says. */
function globalConfigDir(env: NodeJS.ProcessEnv): string {
  const own = env['CTX_CONFIG_DIR'];
  if (own && path.isAbsolute(own)) return own;
  const xdg = env['XDG_CONFIG_HOME'];
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, 'ctx');
  return path.join(env['HOME'] || homedir(), '.config', 'ctx');
}
