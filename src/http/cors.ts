// CORS for browser clients (on by default; [server].cors_enabled / cors_origins). Adds the allow
// headers to every response and answers preflight requests; exposes the MCP session headers.
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface CorsPolicy {
  enabled: boolean;
  /** `*` allows any origin; otherwise exact origins such as `http://localhost:6274`. */
  origins: readonly string[];
}

const ALLOW_METHODS = 'GET, POST, DELETE, OPTIONS';
const ALLOW_HEADERS = 'Content-Type, Accept, Authorization, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID';
const EXPOSE_HEADERS = 'Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate';

export interface Cors {
  /** Sets the CORS headers for this request's origin. Returns true when the request was a preflight and is answered. */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
}

export function createCors(policy: CorsPolicy): Cors {
  const any = policy.origins.includes('*');
  const allowed = new Set(policy.origins.map((o) => o.replace(/\/$/, '').toLowerCase()));
  return {
    handle(req, res) {
      const origin = req.headers.origin;
      if (!policy.enabled || origin === undefined) return false;
      if (!any && !allowed.has(origin.toLowerCase())) return false;
      res.setHeader('Access-Control-Allow-Origin', any ? '*' : origin);
      if (!any) res.setHeader('Vary', 'Origin');
      res.setHeader('Access-Control-Expose-Headers', EXPOSE_HEADERS);
      if (req.method !== 'OPTIONS' || req.headers['access-control-request-method'] === undefined) return false;
      res.writeHead(204, {
        'Access-Control-Allow-Methods': ALLOW_METHODS,
        'Access-Control-Allow-Headers': req.headers['access-control-request-headers'] ?? ALLOW_HEADERS,
        'Access-Control-Max-Age': '86400',
        'content-length': 0,
      });
      res.end();
      return true;
    },
  };
}
