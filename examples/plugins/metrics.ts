// A third-party plugin adding an HTTP route (docs/plugins-reference.md, "HTTP routes"): `GET /metrics` on the
// server of `kbctx serve mcp`, behind the same Bearer auth and Host guard as every other route.
// Only `import type` from kbctx: types are erased at run time, so the file needs no install. The hook is
// transport-http's own (plugins/transport-http/api.ts), asked for by the plugin's name. It replaces the bundled
// metrics plugin (plugins/metrics), so drop that one: `plugins = ["bundled", "!metrics", "./metrics.ts"]`.
import type { HttpHooks, Plugin } from 'kbctx';

let served = 0;

const plugin: Plugin = {
  name: 'metrics',
  version: '1.0.0',
  kbctx: '^0.2',
  provides: ['route:GET /metrics'],
  apply(kernel) {
    kernel.hooksOf<HttpHooks>('transport-http').httpRoutes.tap('metrics', (surfaces) => {
      surfaces.add({
        // `app` is this listener's fastify instance, scoped to this plugin: auth is already applied.
        register(app) {
          app.addHook('onResponse', async () => void served++);
          app.get('/metrics', async (_request, reply) => {
            void reply.type('text/plain; version=0.0.4');
            return `# TYPE kbctx_metrics_requests_total counter\nkbctx_metrics_requests_total ${served}\n`;
          });
        },
        describe: (base) => [`Metrics: ${base}/metrics`],
      });
    });
  },
};

export default plugin;
