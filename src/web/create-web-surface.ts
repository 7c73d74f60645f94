// The web surface as the HTTP server mounts it: the page's files (loaded once, here) and its JSON routes.
import type { WebSurface } from '../http/create-http-server.ts';
import { loadWebAssets } from './web-assets.ts';
import { createWebPage } from './web-page.ts';
import { webRoutes, type WebDeps } from './web-routes.ts';

export function createWebSurface(deps: WebDeps): WebSurface {
  const page = createWebPage(loadWebAssets());
  return { handle: (req, res, pathname) => page.handle(req, res, pathname), routes: webRoutes(deps) };
}
