// `[server.tokens.<name>]` (ADR 0223): one entry per Bearer token, its secret named (an environment variable) or
// hashed (hex SHA-256), never written in plain text, with its scopes and fairness limits (ADR 0224). Validated once
// here (required by server-section.ts only when the config has tokens: start-up), the entry's JSON Schema being
// server-section.ts's; the secret itself is read when the server starts (token-set.ts).
import { compilePaths, compileScopeSources } from '../../core/api/algorithms.ts';
import type { AccessScope, ConfigSectionContext } from '../../core/api/plugin.ts';

export interface TokenLimits {
  /** Requests of this token answered at once; one more is 429 `rate_limited`. Null: no limit. */
  readonly maxConcurrent: number | null;
  /** Requests of this token per minute (a token bucket holding one minute's worth). Null: no limit. */
  readonly requestsPerMinute: number | null;
}

export interface TokenConfig {
  /** The name logs, errors, metrics and the query log show; never the secret. */
  readonly name: string;
  /** The environment variable holding the secret, or the secret's SHA-256 (64 hex digits, lower-cased). */
  readonly secret: { readonly env: string } | { readonly sha256: string };
  readonly scope: AccessScope;
  readonly limits: TokenLimits;
}

const NAME = /^[A-Za-z0-9_.-]{1,64}$/;
const SHA256 = /^[0-9a-f]{64}$/i;
const HINT = 'run `kbctx token hash` to get a token_sha256 line, or name a variable with token_env';

/** The validated tables → token configs, in the order written; `at.fail` names the key path. */
export function toTokenConfigs(
  tables: Readonly<Record<string, Record<string, unknown>>>,
  at: Pick<ConfigSectionContext, 'fail'>,
): TokenConfig[] {
  return Object.entries(tables).map(([name, t]) => {
    const key = (k: string): string => `tokens.${name}${k === '' ? '' : `.${k}`}`;
    if (!NAME.test(name)) at.fail(key(''), 'must be named with letters, digits, `_`, `.` or `-` (at most 64)');
    if (t['token'] !== undefined) at.fail(key('token'), `is refused: a plain secret never goes in the config; ${HINT}`);
    const env = t['token_env'] as string | undefined;
    const sha256 = t['token_sha256'] as string | undefined;
    if ((env === undefined) === (sha256 === undefined))
      at.fail(key(''), `needs exactly one of token_env or token_sha256; ${HINT}`);
    if (env === '') at.fail(key('token_env'), 'must name an environment variable');
    if (sha256 !== undefined && !SHA256.test(sha256))
      at.fail(key('token_sha256'), `must be 64 hex digits (a SHA-256); ${HINT}`);
    return {
      name,
      secret: env !== undefined ? { env } : { sha256: sha256!.toLowerCase() },
      scope: scopeOf(t, (k, m) => at.fail(key(k), m)),
      limits: {
        maxConcurrent: (t['max_concurrent'] as number | undefined) ?? null,
        requestsPerMinute: (t['requests_per_minute'] as number | undefined) ?? null,
      },
    };
  });
}

function scopeOf(t: Record<string, unknown>, fail: (key: string, message: string) => never): AccessScope {
  const meta = t['meta'] as Record<string, unknown> | undefined;
  for (const [k, v] of Object.entries(meta ?? {})) {
    if (!['string', 'number', 'boolean'].includes(typeof v))
      fail(`meta.${k}`, 'must be a string, a number or a boolean (documents must have this value)');
  }
  const list = (k: string): readonly string[] | undefined => t[k] as string[] | undefined;
  const problem = scopeProblem(list('sources'), list('paths'));
  if (problem) fail(problem.field, `'${problem.glob}' is not a valid glob: ${problem.message}`);
  return Object.freeze({
    ...(list('sources') && { sources: list('sources') }),
    ...(list('paths') && { paths: list('paths') }),
    ...(meta && { meta: meta as Record<string, string | number | boolean> }),
    ...(list('tools') && { tools: list('tools') }),
    admin: t['admin'] as boolean,
  });
}

/**
 * The first broken glob of a scope's `sources` or `paths`, named before any request (a broken glob would otherwise
 * fail every read of the token); undefined when they compile. Moved from core's scope-filter.ts, ADR 0251.
 */
export function scopeProblem(
  sources: readonly string[] | undefined,
  paths: readonly string[] | undefined,
): { field: 'sources' | 'paths'; glob: string; message: string } | undefined {
  const compilers = [
    ['sources', sources, compileScopeSources],
    ['paths', paths, compilePaths],
  ] as const;
  for (const [field, globs, compile] of compilers) {
    for (const glob of globs ?? []) {
      try {
        compile([glob]);
      } catch (error) {
        return { field, glob, message: (error as Error).message };
      }
    }
  }
  return undefined;
}
