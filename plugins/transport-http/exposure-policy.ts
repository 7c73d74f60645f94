// Decides at start-up whether the server may listen: reads the token named by [server].auth_token_env,
// and refuses a non-loopback bind without one unless [server].allow_unauthenticated says so.
import { configError } from '../../core/api/plugin.ts';
import { isLoopbackHost } from './bind-address.ts';

/** The `[server]` keys this reads (the section is transport-http's: `ServerConfig`). */
export interface ExposureSettings {
  readonly authTokenEnv: string | null;
  readonly allowUnauthenticated: boolean;
}

export interface Exposure {
  /** The Bearer token every request needs, or null (no authentication). */
  token: string | null;
  /** A line to print at start-up (an unauthenticated non-loopback bind), or null. */
  warning: string | null;
}

/** Throws config_error when the token variable is missing, or a remote bind would be open to anyone. */
export function checkExposure(config: ExposureSettings, bindHost: string, env: NodeJS.ProcessEnv): Exposure {
  if (config.authTokenEnv !== null) {
    const token = env[config.authTokenEnv];
    if (!token) {
      throw configError(
        `[server].auth_token_env names ${config.authTokenEnv}, but that environment variable is not set or empty; export ${config.authTokenEnv}=<a long random token>`,
      );
    }
    return { token, warning: null };
  }
  if (isLoopbackHost(bindHost)) return { token: null, warning: null };
  if (!config.allowUnauthenticated) {
    throw configError(
      `refusing to listen on ${bindHost} without authentication: anyone who can reach this address could read the index. ` +
        'Set [server].auth_token_env = "KBCTX_TOKEN" and export KBCTX_TOKEN=<a long random token> (clients send Authorization: Bearer <token>), ' +
        'or set [server].allow_unauthenticated = true on a trusted network',
    );
  }
  return {
    token: null,
    warning: `warning: listening on ${bindHost} without authentication ([server].allow_unauthenticated = true); anyone who can reach it can read the index`,
  };
}
