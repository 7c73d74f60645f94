// The live index over REST (GET /sync/status, POST /sync/{connector}; docs/sync.md) on the listener's
// fastify instance: the route table of sync-routes.ts mounted as JSON routes behind auth, for tokens with the
// admin scope only (ADR 0223: a sync's status names every connector and its errors).
import type { SyncControl } from './api.ts';
import { requireAdmin, type HttpRoute, type HttpSurface } from '../transport-http/api.ts';
import { syncRoutes } from './sync-routes.ts';

export function syncSurface(control: SyncControl, options: { tokenRequired: boolean }): HttpSurface {
  return { register: (app) => mountJsonRoutes(app, syncRoutes(control, options)) };
}

function mountJsonRoutes(app: Parameters<NonNullable<HttpSurface['register']>>[0], routes: readonly HttpRoute[]): void {
  for (const route of routes) {
    app.route({
      method: route.method,
      url: route.path,
      onRequest: requireAdmin,
      handler: (request) =>
        route.handle({
          params: request.params as Record<string, string>,
          body: request.body ?? {},
          signal: request.clientGone,
          remoteAddress: request.socket.remoteAddress,
          contentType: request.headers['content-type'],
        }),
    });
  }
}
