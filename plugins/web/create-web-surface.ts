// The web surface as the HTTP server mounts it: the page's files (loaded once, here; public routes),
// its JSON routes (behind auth), and its banner line.
import type { HttpSurface } from '../transport-http/api.ts';
import { loadWebAssets } from './web-assets.ts';
import { webPageRoutes } from './web-page.ts';
import { webRoutes, type WebDeps } from './web-routes.ts';

export function createWebSurface(deps: WebDeps): HttpSurface {
  return {
    registerPublic: webPageRoutes(loadWebAssets()),
    register: webRoutes(deps),
    describe: (base) => [`Web page: ${base}/`],
  };
}
