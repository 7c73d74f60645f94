// The web surface as the HTTP server mounts it: the page's files (loaded once, here, before auth), its
// JSON routes, and its banner line.
import type { HttpSurface } from '../../core/index.ts';
import { loadWebAssets } from './web-assets.ts';
import { createWebPage } from './web-page.ts';
import { webRoutes, type WebDeps } from './web-routes.ts';

export function createWebSurface(deps: WebDeps): HttpSurface {
  const page = createWebPage(loadWebAssets());
  return { files: (req, res, pathname) => page.handle(req, res, pathname), routes: webRoutes(deps), describe: (base) => [`Web page: ${base}/`] };
}
