// CORS for the listener (ADR 0132; the policy ADR 0124 took from @fastify/cors, header for header):
// `Access-Control-Allow-Origin` (`*`, or the request's Origin when [server].cors_origins lists it)
// and `-Expose-Headers` only on requests that carry an Origin, as the pre-kernel tree did; a list of
// origins answers `Vary: Origin` on every request (the answer depends on the Origin). Every OPTIONS
// is a preflight answered here, before auth: 204 with the allowed methods, the requested headers
// echoed and a day's max-age, or 400 without an Origin or `Access-Control-Request-Method`.
import type { FastifyReply, FastifyRequest } from 'fastify';

const EXPOSE_HEADERS = 'Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate';
const ALLOW_METHODS = 'GET, POST, DELETE, OPTIONS';
const MAX_AGE = '86400';

/** Sets the CORS headers of a request; true when it answered the request (a preflight). */
export type Cors = (request: FastifyRequest, reply: FastifyReply) => boolean;

export function createCors(corsOrigins: readonly string[]): Cors {
  const any = corsOrigins.includes('*');
  const allowed = new Set(corsOrigins.map((o) => o.replace(/\/$/, '')));
  return (request, reply) => {
    const origin = request.headers.origin;
    const preflight = request.raw.method === 'OPTIONS';
    if (!any) void reply.header('vary', 'Origin');
    if (origin === undefined && !preflight) return false;
    if (any) void reply.header('access-control-allow-origin', '*');
    else if (origin !== undefined && allowed.has(origin)) void reply.header('access-control-allow-origin', origin);
    void reply.header('access-control-expose-headers', EXPOSE_HEADERS);
    if (!preflight) return false;
    if (origin === undefined || request.headers['access-control-request-method'] === undefined) {
      void reply.code(400).type('text/plain').send('Invalid Preflight Request');
      return true;
    }
    void reply.header('access-control-allow-methods', ALLOW_METHODS);
    void reply.header('vary', any ? 'Access-Control-Request-Headers' : 'Origin, Access-Control-Request-Headers');
    const requested = request.headers['access-control-request-headers'];
    if (requested !== undefined) void reply.header('access-control-allow-headers', requested);
    void reply.header('access-control-max-age', MAX_AGE).code(204).header('content-length', '0').send();
    return true;
  };
}
