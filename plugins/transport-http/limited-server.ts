// The node:http server of one listener with every [server] time-out set on it. fastify applies its
// own requestTimeout/keepAliveTimeout only to a server it creates, never to a `serverFactory`'s
// (issue 29: they were silently ignored), so this file sets all of them itself.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { ServerConfig } from './server-section.ts';

type Limits = Pick<ServerConfig, 'headersTimeoutSecs' | 'requestTimeoutSecs' | 'keepAliveTimeoutSecs'>;

/**
 * headers_timeout_secs: the request line and headers (also a socket that never sends a byte);
 * request_timeout_secs: the whole request, body included, never the answer (SSE streams, slow tools);
 * keep_alive_timeout_secs: an idle connection between requests (Node adds its 1 s keepAliveTimeoutBuffer).
 * Expired requests are found by Node's connection check, run every second at most.
 */
export function createLimitedServer(
  limits: Limits,
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Server {
  const headersTimeout = toMs(limits.headersTimeoutSecs);
  const server = createServer(
    {
      headersTimeout,
      requestTimeout: toMs(limits.requestTimeoutSecs),
      connectionsCheckingInterval: Math.min(1000, headersTimeout),
    },
    handler,
  );
  server.keepAliveTimeout = toMs(limits.keepAliveTimeoutSecs);
  return server;
}

const toMs = (secs: number): number => Math.max(1, Math.round(secs * 1000));
