// The server's tokens as the auth guard compares them (ADR 0223): `[server] auth_token_env` as the token named
// `default` with every scope, then each `[server.tokens.<name>]`, every secret reduced to its SHA-256 when the
// server starts. Errors name the token and its variable, never a secret.
import { createHash } from 'node:crypto';
import { configError, type AccessScope } from '../../core/api/plugin.ts';
import type { ServerConfig } from './server-section.ts';
import type { TokenLimits } from './token-section.ts';

export interface ResolvedToken {
  readonly name: string;
  /** SHA-256 of the secret (32 bytes): what a presented token's digest is compared with. */
  readonly digest: Buffer;
  readonly scope: AccessScope;
  readonly limits: TokenLimits;
}

/** `auth_token_env`'s token may do everything: no data or tool scope, admin. */
export const FULL_SCOPE: AccessScope = Object.freeze({ admin: true });

export const DEFAULT_TOKEN = 'default';

export type TokenSettings = Pick<ServerConfig, 'authTokenEnv' | 'tokens' | 'maxConcurrent' | 'requestsPerMinute'>;

/** Throws config_error naming the token when its variable is unset or empty, or two tokens share a secret. */
export function resolveTokens(config: TokenSettings, env: NodeJS.ProcessEnv): ResolvedToken[] {
  const resolved: ResolvedToken[] = [];
  if (config.authTokenEnv !== null) {
    const limits = { maxConcurrent: config.maxConcurrent, requestsPerMinute: config.requestsPerMinute };
    const digest = sha256(secretOf(env, config.authTokenEnv, '[server].auth_token_env'));
    resolved.push({ name: DEFAULT_TOKEN, digest, scope: FULL_SCOPE, limits });
  }
  for (const token of config.tokens) {
    const digest =
      'env' in token.secret
        ? sha256(secretOf(env, token.secret.env, `[server.tokens.${token.name}].token_env`))
        : Buffer.from(token.secret.sha256, 'hex');
    const twin = resolved.find((r) => r.digest.equals(digest));
    if (twin)
      throw configError(`[server.tokens.${token.name}] has the same secret as token '${twin.name}': give each its own`);
    resolved.push({ name: token.name, digest, scope: token.scope, limits: token.limits });
  }
  return resolved;
}

/** The variables the tokens are read from, as `kbctx doctor` lists them. */
export function tokenVariables(config: TokenSettings): { token: string; variable: string }[] {
  return [
    ...(config.authTokenEnv === null ? [] : [{ token: DEFAULT_TOKEN, variable: config.authTokenEnv }]),
    ...config.tokens.flatMap((t) => ('env' in t.secret ? [{ token: t.name, variable: t.secret.env }] : [])),
  ];
}

export const sha256 = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

function secretOf(env: NodeJS.ProcessEnv, variable: string, key: string): string {
  const value = env[variable];
  if (!value)
    throw configError(
      `${key} names ${variable}, but that environment variable is ` +
        `not set or empty; export ${variable}=<a long random token>`,
    );
  return value;
}
