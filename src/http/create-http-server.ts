// The HTTP server of `lore serve mcp` on plain node:http: DNS-rebinding guard, CORS, `/mcp`
// (delegated to the MCP surface), then the REST route table. Every failure leaves through sendError.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AgentRegistry } from '../app/agents.ts';
import type { ToolRegistry } from '../app/tools.ts';
import type { ServerConfig } from '../config/types.ts';
import { isLoreError } from '../core/errors.ts';
import { isLoopbackHost } from './bind-address.ts';
import { createCors } from './cors.ts';
import { createHostGuard } from './host-guard.ts';
import { readJsonBody } from './read-json-body.ts';
import { restRoutes, type Route } from './rest-routes.ts';
import { sendError, sendJson, type Log } from './respond.ts';
import { Router } from './router.ts';

export const MCP_PATH = '/mcp';

/** The MCP surface as the HTTP server sees it (implemented in src/mcp/, which owns the SDK). */
export interface McpEndpoint {
  handle(req: IncomingMessage, res: ServerResponse, origin: string): Promise<void>;
}

/** The web page (src/web/): its static files, answered before auth and routing, and its JSON routes. */
export interface WebSurface {
  /** True when `pathname` was one of the page's files and is answered. */
  handle(req: IncomingMessage, res: ServerResponse, pathname: string): boolean;
  routes: readonly Route[];
}

export interface HttpServerOptions {
  tools: ToolRegistry;
  agents: AgentRegistry;
  version: string;
  config: ServerConfig;
  /** The host the server binds; DNS-rebinding protection applies when it is a loopback address. */
  bindHost: string;
  mcp?: McpEndpoint | undefined;
  web?: WebSurface | undefined;
  log: Log;
}

export function createHttpServer(options: HttpServerOptions): Server {
  return createServer({ keepAliveTimeout: 10_000 }, createRequestHandler(options));
}

/** The whole request pipeline (guard → CORS → `/mcp` → routes) as a node:http listener; the library's createHttpHandler mounts it too. */
export function createRequestHandler(options: HttpServerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const { config, log } = options;
  const guard = createHostGuard({ enabled: isLoopbackHost(options.bindHost), allowedHosts: config.allowedHosts, corsOrigins: config.corsOrigins });
  const cors = createCors({ enabled: config.corsEnabled, origins: config.corsOrigins });
  const router = new Router([...restRoutes({ tools: options.tools, agents: options.agents, version: options.version }), ...(options.web?.routes ?? [])]);

  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    guard(req.headers);
    if (cors.handle(req, res)) return;
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const pathname = q === -1 ? url : url.slice(0, q);
    if (options.web?.handle(req, res, pathname)) return;
    if (pathname === MCP_PATH && options.mcp) {
      await options.mcp.handle(req, res, `http://${req.headers.host ?? 'localhost'}`);
      return;
    }
    const { route, params } = router.match(req.method ?? 'GET', pathname);
    const abort = new AbortController();
    res.once('close', () => abort.abort());
    const body = route.method === 'POST' ? await readJsonBody(req, config.maxBodyBytes) : undefined;
    sendJson(res, 200, await route.handle({ params, body, signal: abort.signal }));
  };

  return (req, res) => {
    serve(req, res).catch((error: unknown) => {
      const headers: Record<string, string> = {};
      if (isLoreError(error) && error.code === 'method_not_allowed') headers['allow'] = String(error.details?.['allow'] ?? '');
      // The rest of an oversized body is not read: close the connection after answering.
      if (isLoreError(error) && error.code === 'payload_too_large') headers['connection'] = 'close';
      sendError(res, error, log, headers);
    });
  };
}
