// First-party plugin: the HTTP server of `kbctx serve mcp` (node:http: bind, exposure policy and
// Bearer auth, Host guard, CORS, body limits, time-outs, GET /health). What it serves beyond that
// comes from the plugins tapping `httpRoutes` (rest, mcp-http, web, live-index, others).
import { definePlugin, STAGE, serveService } from '../../core/index.ts';

const plugin = definePlugin({
  name: 'transport-http',
  version: '0.2.0',
  kbctx: '^0.2',
  provides: ['transport:mcp', 'route:GET /health'],
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  apply(kernel) {
    kernel.hooks.createTransport.for('mcp').tapPromise({ name: 'transport-http', stage: STAGE.FALLBACK }, async (options) => {
      const { startHttpServer } = await import('./start-http-server.ts');
      return startHttpServer(kernel.use(serveService), options.bind);
    });
  },
});

export default plugin; // a named constant: see test/architecture.test.ts
