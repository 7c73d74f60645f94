// Decides at start-up whether the server may listen: reads the tokens' secrets ([server].auth_token_env and
// [server.tokens.<name>], token-set.ts), and refuses a non-loopback bind without one unless
// [server].allow_unauthenticated says so.
import { configError } from '../../core/api/plugin.ts';
import { isLoopbackHost } from './bind-address.ts';
import type { ServerConfig } from './server-section.ts';
import { resolveTokens, type ResolvedToken } from './token-set.ts';

/** The `[server]` keys this reads (the section is transport-http's: `ServerConfig`). */
export type ExposureSettings = Pick<
  ServerConfig,
  'authTokenEnv' | 'tokens' | 'maxConcurrent' | 'requestsPerMinute' | 'allowUnauthenticated'
>;

export interface Exposure {
  /** The tokens a request may carry (one is needed), or none (no authentication). */
  tokens: readonly ResolvedToken[];
  /** A line to print at start-up (an unauthenticated non-loopback bind), or null. */
  warning: string | null;
}

/** Throws config_error when a token's variable is missing, or a remote bind would be open to anyone. */
export function checkExposure(config: ExposureSettings, bindHost: string, env: NodeJS.ProcessEnv): Exposure {
  const tokens = resolveTokens(config, env);
  if (tokens.length > 0) return { tokens, warning: null };
  if (isLoopbackHost(bindHost)) return { tokens, warning: null };
  if (!config.allowUnauthenticated) {
    throw configError(
      `refusing to listen on ${bindHost} without authentication: anyone who can reach this address could read ` +
        `the index. ` +
        'Set [server].auth_token_env = "KBCTX_TOKEN" and export KBCTX_TOKEN=<a long random token> (clients send ' +
        'Authorization: Bearer <token>), ' +
        'or add [server.tokens.<name>] entries, or set [server].allow_unauthenticated = true on a trusted network',
    );
  }
  return {
    tokens,
    warning:
      `warning: listening on ${bindHost} without authentication ([server].allow_unauthenticated = true); anyone ` +
      `who can reach it can read the index`,
  };
}
