// The attach bridge's contract entry (ADR 0218): parses `kbctx serve stdio --attach <url> [--token-env NAME]`
// from the raw arguments, so the process entry (registry/cli.ts) can run the bridge before the CLI, the
// kernel or any config code loads. Imports nothing; the bridge itself loads on demand.

export interface AttachOptions {
  /** The running server's MCP endpoint (`http://host:port/mcp`). */
  url: URL;
  /** The environment variable holding the bearer token, or undefined for none. */
  tokenEnv: string | undefined;
}

/** What the arguments ask for: not an attach command, its options, or a usage error to print (exit 2). */
export type AttachRequest =
  | { kind: 'none' }
  | { kind: 'attach'; options: AttachOptions }
  | { kind: 'usage'; message: string };

/** The variable read for the token when `--token-env` is not given (used only when set). */
export const DEFAULT_TOKEN_ENV = 'KBCTX_TOKEN';

const GLOBAL_WITH_VALUE = new Set(['-c', '--config']);
const GLOBAL_FLAGS = new Set(['--json']);

/**
 * `serve stdio … --attach …` after the global options, or `none` (also for `--help`, which commander answers).
 * `env` decides the default token variable: `KBCTX_TOKEN` when it is set.
 */
export function parseAttachArgs(argv: readonly string[], env: NodeJS.ProcessEnv): AttachRequest {
  let i = 0;
  while (i < argv.length && argv[i]!.startsWith('-')) {
    if (GLOBAL_WITH_VALUE.has(argv[i]!)) i += 2;
    else if (GLOBAL_FLAGS.has(argv[i]!) || argv[i]!.startsWith('--config=')) i += 1;
    else return { kind: 'none' };
  }
  if (argv[i] !== 'serve' || argv[i + 1] !== 'stdio') return { kind: 'none' };
  const rest = argv.slice(i + 2);
  if (!rest.some((a) => a === '--attach' || a.startsWith('--attach='))) return { kind: 'none' };
  if (rest.includes('--help') || rest.includes('-h')) return { kind: 'none' };
  const values = new Map<string, string>();
  for (let j = 0; j < rest.length; j++) {
    const arg = rest[j]!;
    const eq = arg.indexOf('=');
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    if (flag !== '--attach' && flag !== '--token-env')
      return { kind: 'usage', message: `serve stdio --attach: unknown argument ${JSON.stringify(arg)}` };
    const value = eq > 0 ? arg.slice(eq + 1) : rest[++j];
    if (value === undefined || value === '') return { kind: 'usage', message: `serve stdio: ${flag} needs a value` };
    values.set(flag, value);
  }
  const url = parseEndpoint(values.get('--attach')!);
  if (typeof url === 'string') return { kind: 'usage', message: url };
  const tokenEnv = values.get('--token-env') ?? (env[DEFAULT_TOKEN_ENV] ? DEFAULT_TOKEN_ENV : undefined);
  if (tokenEnv !== undefined && !env[tokenEnv])
    return {
      kind: 'usage',
      message: `serve stdio --attach: --token-env names ${tokenEnv}, but that environment variable is not set or empty`,
    };
  return { kind: 'attach', options: { url, tokenEnv } };
}

/** An http(s) URL; a bare origin (`http://127.0.0.1:7331`) means its `/mcp` endpoint. Else the usage message. */
function parseEndpoint(text: string): URL | string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `serve stdio --attach: ${JSON.stringify(text)} is not a URL (e.g. http://127.0.0.1:7331/mcp)`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return `serve stdio --attach: ${JSON.stringify(text)} is not an http(s) URL (e.g. http://127.0.0.1:7331/mcp)`;
  if (url.pathname === '/' || url.pathname === '') url.pathname = '/mcp';
  return url;
}

/** Runs the bridge until stdin ends; resolves to the exit code. Loads the bridge's modules on the first call. */
export async function runAttach(options: AttachOptions, env: NodeJS.ProcessEnv): Promise<number> {
  const { runBridge } = await import('./bridge.ts');
  return runBridge({
    url: options.url,
    token: options.tokenEnv === undefined ? undefined : env[options.tokenEnv],
    tokenEnv: options.tokenEnv,
  });
}
