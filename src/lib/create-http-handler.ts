// The library's `createHttpHandler(lore)`: the REST and MCP surfaces as one node:http listener to mount
// in another server, built from the same request pipeline as `lore serve` (host guard, CORS, body
// limits, `/mcp`, the route table), so auth and limits added there apply here too.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseBind } from '../http/bind-address.ts';
import { createRequestHandler } from '../http/create-http-server.ts';
import { createMcpHttpHandler } from '../mcp/mcp-http-handler.ts';
import { listDocumentPage } from '../app/documents.ts';
import { VERSION } from '../version.ts';
import { composedOf, type Lore } from './open-lore.ts';

export interface HttpHandlerOptions {
  /** Where server messages go (default: stderr). */
  log?: ((line: string) => void) | undefined;
}

export type LoreHttpHandler = ((req: IncomingMessage, res: ServerResponse) => void) & {
  /** Ends open MCP streams. */
  close(): Promise<void>;
};

/**
 * Serves `/health`, `/tools/*`, `/agents/*` and `/mcp` at the root of whatever URL reaches it (strip a
 * mount prefix from `req.url` first). DNS-rebinding protection follows `[server] bind`: with the default
 * loopback bind only loopback Host headers (and `[server] allowed_hosts`) are accepted.
 */
export function createHttpHandler(lore: Lore, options: HttpHandlerOptions = {}): LoreHttpHandler {
  const inner = composedOf(lore);
  const log = options.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const config = inner.config.server;
  const tools = inner.tools();
  const agents = inner.agents();
  const mcp = createMcpHttpHandler({ tools, agents, version: VERSION, maxBodyBytes: config.maxBodyBytes, log, documents: (cursor) => listDocumentPage(inner.store, cursor) });
  const handle = createRequestHandler({ tools, agents, version: VERSION, config, bindHost: parseBind(config.bind).host, mcp, log });
  return Object.assign(handle, { close: () => mcp.close() });
}
