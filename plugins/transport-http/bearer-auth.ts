// Bearer-token authentication for shared deployments ([server].auth_token_env): every request but
// `GET /health` must carry `Authorization: Bearer <token>`; compared in constant time.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { KbctxError } from '../../core/api/plugin.ts';

/** RFC 6750 challenge; MCP clients read it from the 401 (MCP authorization, "401 Unauthorized"). */
export const BEARER_CHALLENGE = 'Bearer realm="kbctx"';

/**
 * A guard that throws `unauthorized` (401) unless the request is exempt or carries the token. No-op when token is null.
 */
export function createBearerAuth(token: string | null): (req: IncomingMessage, pathname: string) => void {
  if (token === null) return () => {};
  const expected = digest(token);
  return (req, pathname) => {
    if (pathname === '/health' && (req.method === 'GET' || req.method === 'HEAD')) return;
    const header = req.headers.authorization ?? '';
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
    // Hashing both sides gives equal lengths, so timingSafeEqual never leaks the token's length either.
    if (match && timingSafeEqual(digest(match[1]!), expected)) return;
    const why = header === '' ? 'this server needs a token' : 'the token is not valid';
    throw new KbctxError(
      'unauthorized',
      `${why}: send Authorization: Bearer <token> (the value of the server's [server].auth_token_env variable)`,
    );
  };
}

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();
