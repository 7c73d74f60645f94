// Bearer-token authentication for shared deployments (ADR 0223): every request but `GET /health` and the public
// files must carry `Authorization: Bearer <token>` of one of the server's tokens. The presented token is hashed
// and compared with every token's digest in constant time; errors never show it.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { KbctxError } from '../../core/api/plugin.ts';
import { sha256, type ResolvedToken } from './token-set.ts';

/** RFC 6750 challenge; MCP clients read it from the 401 (MCP authorization, "401 Unauthorized"). */
export const BEARER_CHALLENGE = 'Bearer realm="kbctx"';

/**
 * A guard returning the token a request carries; throws `unauthorized` (401) when it carries none of `tokens`.
 * `tokens` must not be empty (no tokens: no guard).
 */
export function createBearerAuth(tokens: readonly ResolvedToken[]): (req: IncomingMessage) => ResolvedToken {
  return (req) => {
    const header = req.headers.authorization ?? '';
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
    if (match) {
      // Hashing both sides gives equal lengths, so timingSafeEqual never leaks a token's length; every token is
      // compared, so the time does not tell which one matched either.
      const presented = sha256(match[1]!);
      let found: ResolvedToken | undefined;
      for (const token of tokens) if (timingSafeEqual(presented, token.digest)) found ??= token;
      if (found) return found;
    }
    const why = header === '' ? 'this server needs a token' : 'the token is not valid';
    throw new KbctxError(
      'unauthorized',
      `${why}: send Authorization: Bearer <token> (one of the server's ` +
        `tokens: [server].auth_token_env or [server.tokens.<name>])`,
    );
  };
}
