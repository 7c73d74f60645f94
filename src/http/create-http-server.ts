// The HTTP server of `kbctx serve mcp` on plain node:http: DNS-rebinding guard, CORS, Bearer auth,
// the plugins' surfaces (the web page's files, `/mcp`), then the route table. Every failure leaves through sendError.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { HttpSurface } from '../../core/hook-types.ts';
import type { ServerConfig } from '../../core/config/types.ts';
import { isKbctxError } from '../../core/domain/errors.ts';
import { BEARER_CHALLENGE, createBearerAuth } from './bearer-auth.ts';
import { isLoopbackHost } from './bind-address.ts';
import { isClientGone } from './client-gone.ts';
import { createCors } from './cors.ts';
import { createHostGuard } from './host-guard.ts';
import { readBody } from './read-body.ts';
import { readJsonBody } from './read-json-body.ts';
import type { Route } from './rest-routes.ts';
import { sendError, sendJson, type Log } from './respond.ts';
import { Router } from './router.ts';
import { socketTimeouts } from './socket-timeouts.ts';

export interface HttpServerOptions {
  version: string;
  config: ServerConfig;
  /** The host the server binds; DNS-rebinding protection applies when it is a loopback address. */
  bindHost: string;
  /** What the plugins serve (the `httpRoutes` hook): REST routes, the MCP endpoint, the web page. */
  surfaces: readonly HttpSurface[];
  /** Bearer token required on every route but GET /health (see exposure-policy.ts); null/absent: none. */
  authToken?: string | null | undefined;
  log: Log;
  /** Lines only worth showing when debugging (clients that went away); dropped when absent. */
  debug?: Log | undefined;
}

export function createHttpServer(options: HttpServerOptions): Server {
  return createServer(socketTimeouts(options.config), createRequestHandler(options));
}

/** The whole request pipeline (guard → CORS → files → auth → endpoints → routes) as a node:http listener; the library's createHttpHandler mounts it too. */
export function createRequestHandler(options: HttpServerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const { config, log, surfaces } = options;
  const guard = createHostGuard({ enabled: isLoopbackHost(options.bindHost), allowedHosts: config.allowedHosts, corsOrigins: config.corsOrigins });
  const cors = createCors({ enabled: config.corsEnabled, origins: config.corsOrigins });
  const auth = createBearerAuth(options.authToken ?? null);
  const debug = options.debug ?? ((): void => {});
  // GET /health is the server's own: auth-exempt, and there whichever plugins are loaded.
  const routes: Route[] = [{ method: 'GET', path: '/health', handle: () => Promise.resolve({ status: 'ok', version: options.version }) }];
  for (const surface of surfaces) routes.push(...(surface.routes ?? []));
  const router = new Router(routes);
  const endpoints = new Map(surfaces.flatMap((s) => (s.endpoint ? [[s.endpoint.path, s.endpoint] as const] : [])));
  const files = surfaces.flatMap((s) => (s.files ? [s.files.bind(s)] : []));

  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const host = guard(req.headers);
    if (cors.handle(req, res)) return;
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const pathname = q === -1 ? url : url.slice(0, q);
    // The page's static files need no token (the page asks for it); everything else goes through auth.
    if (files.some((answer) => answer(req, res, pathname))) return;
    auth(req, pathname); // before routing, so every route (present and future) but GET /health needs the token
    const endpoint = endpoints.get(pathname);
    if (endpoint) {
      const body = req.method === 'POST' ? await readBody(req, config.maxBodyBytes) : undefined;
      await endpoint.handle(req, res, `http://${host?.authority ?? 'localhost'}`, body);
      return;
    }
    const { route, params } = router.match(req.method ?? 'GET', pathname);
    const abort = new AbortController();
    res.once('close', () => abort.abort());
    const body = route.method === 'POST' ? await readJsonBody(req, config.maxBodyBytes) : undefined;
    sendJson(res, 200, await route.handle({ params, body, signal: abort.signal, remoteAddress: req.socket.remoteAddress }));
  };

  return (req, res) => {
    serve(req, res).catch((error: unknown) => {
      if (isClientGone(error, req, res)) {
        debug(`client went away: ${req.method ?? ''} ${req.url ?? ''} (${(error as Error).message})`);
        res.destroy();
        return;
      }
      const headers: Record<string, string> = {};
      if (isKbctxError(error) && error.code === 'unauthorized') headers['www-authenticate'] = BEARER_CHALLENGE;
      if (isKbctxError(error) && error.code === 'method_not_allowed') headers['allow'] = String(error.details?.['allow'] ?? '');
      // The rest of an oversized body is not read: close the connection after answering.
      if (isKbctxError(error) && error.code === 'payload_too_large') headers['connection'] = 'close';
      sendError(res, error, log, headers);
    });
  };
}
