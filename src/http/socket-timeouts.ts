// Time limits for slow or idle clients ([server].headers_timeout_secs, request_timeout_secs,
// keep_alive_timeout_secs) as node:http server options, instead of Node's 60 s / 300 s defaults.
import type { ServerOptions } from 'node:http';
import type { ServerConfig } from '../../core/config/types.ts';

type Timeouts = Pick<ServerConfig, 'headersTimeoutSecs' | 'requestTimeoutSecs' | 'keepAliveTimeoutSecs'>;

export function socketTimeouts(config: Timeouts): ServerOptions {
  const headersTimeout = Math.round(config.headersTimeoutSecs * 1000);
  return {
    headersTimeout,
    // Only the receiving of the request: long answers (SSE streams, slow scripts) are not cut.
    requestTimeout: Math.round(config.requestTimeoutSecs * 1000),
    keepAliveTimeout: Math.round(config.keepAliveTimeoutSecs * 1000),
    // Node checks the two limits above on this interval (default 30 s, which would blur them).
    connectionsCheckingInterval: Math.min(1000, headersTimeout),
  };
}
