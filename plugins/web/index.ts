// First-party plugin: the web page (`/`, `/assets/…`, served before auth) and its JSON routes
// (`/web/*`) on the HTTP server, through `httpRoutes`. Its assets are read when the server starts.
import { definePlugin } from '../../core/api/plugin.ts';
import { serveService } from '../cli/api.ts';
import { getHttpHooks } from '../transport-http/api.ts';

const plugin = definePlugin({
  name: 'web',
  version: '0.2.0',
  kbctx: '^0.2',
  provides: ['route:/', 'route:/assets/*', 'route:/web/*'],
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  apply(kernel) {
    getHttpHooks(kernel).httpRoutes.tapPromise('web', async (surfaces) => {
      const [{ createWebSurface }, { webFactsOf }] = await Promise.all([
        import('./create-web-surface.ts'),
        import('./web-facts.ts'),
      ]);
      const { kbctx } = kernel.use(serveService);
      surfaces.add(
        createWebSurface({
          store: kbctx.store,
          connectorLabels: kbctx.index.connectorLabels,
          facts: webFactsOf(kbctx),
        }),
      );
    });
  },
});

export default plugin; // a named constant: see test/architecture.test.ts
