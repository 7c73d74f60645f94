// The library's `createHttpHandler(kbctx)`: the REST and MCP surfaces as one node:http listener to mount
// in another server, built from the same request pipeline as `kbctx serve` (host guard, CORS, body
// limits, `/mcp`, the route table), so auth and limits added there apply here too.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseBind } from '../../src/http/bind-address.ts';
import { createRequestHandler } from '../../src/http/create-http-server.ts';
import { checkExposure } from '../../src/http/exposure-policy.ts';
import { createMcpHttpHandler, listenLimitsOf, mcpHttpSurface } from '../../src/mcp/mcp-http-handler.ts';
import { restSurface } from '../../src/http/rest-routes.ts';
import { listDocumentPage } from '../app/documents.ts';
import { VERSION } from '../version.ts';
import { composedOf, type Kbctx } from './open-kbctx.ts';
import { lineLog } from '../domain/log-line.ts';

export interface HttpHandlerOptions {
  /** Where server messages go (default: stderr). */
  log?: ((line: string) => void) | undefined;
}

export type KbctxHttpHandler = ((req: IncomingMessage, res: ServerResponse) => void) & {
  /** Ends open MCP streams. */
  close(): Promise<void>;
};

/**
 * Serves `/health`, `/tools/*`, `/agents/*` and `/mcp` at the root of whatever URL reaches it (strip a
 * mount prefix from `req.url` first). DNS-rebinding protection follows `[server] bind`: with the default
 * loopback bind only loopback Host headers (and `[server] allowed_hosts`) are accepted.
 */
export function createHttpHandler(kbctx: Kbctx, options: HttpHandlerOptions = {}): KbctxHttpHandler {
  const inner = composedOf(kbctx);
  const log = options.log ?? lineLog((text) => void process.stderr.write(text));
  const config = inner.config.server;
  const tools = inner.tools();
  const agents = inner.agents();
  const mcp = createMcpHttpHandler({ tools, agents, version: VERSION, maxBodyBytes: config.maxBodyBytes, listenLimits: listenLimitsOf(config), log, documents: (cursor) => listDocumentPage(inner.store, cursor) });
  const bindHost = parseBind(config.bind).host;
  // The host server owns the socket, so only the token applies here ([server] auth_token_env).
  const authToken = config.authTokenEnv === null ? null : checkExposure(config, bindHost, process.env).token;
  const handle = createRequestHandler({ version: VERSION, config, bindHost, surfaces: [restSurface({ tools, agents }), mcpHttpSurface(mcp)], log, authToken });
  return Object.assign(handle, { close: () => mcp.close() });
}
