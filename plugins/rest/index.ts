// First-party plugin: the REST API (/tools/*, /agents/*) on the HTTP server, through `httpRoutes`.
// Handlers call the same tool and agent registries as MCP and the CLI (rest-routes.ts).
import { definePlugin } from '../../core/api/plugin.ts';
import { serveService } from '../cli/api.ts';
import { getHttpHooks } from '../transport-http/api.ts';

const plugin = definePlugin({
  name: 'rest',
  version: '0.2.0',
  kbctx: '^0.2',
  provides: ['route:/tools/*', 'route:/agents/*'],
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  apply(kernel) {
    getHttpHooks(kernel).httpRoutes.tapPromise('rest', async (surfaces) => {
      const { restSurface } = await import('./rest-routes.ts');
      const { tools, agents } = kernel.use(serveService);
      surfaces.add(restSurface({ tools, agents }));
    });
  },
});

export default plugin; // a named constant: see test/architecture.test.ts
