// First-party plugin: the HTTP server of `kbctx serve mcp` on fastify (one instance per listener:
// bind, exposure policy and Bearer auth, Host guard, CORS, body limits, time-outs, the error body,
// GET /health). What it serves beyond that comes from the plugins tapping its `httpRoutes` (api.ts: rest,
// mcp-http, web, live-index, others). fastify is imported when the server starts, never by
// other commands. `createTransport.for("http-handler")` is the same server without listening, for
// the library's createHttpHandler. `kbctx token hash` and doctor's token lines are its too (ADR 0223).
import { definePlugin, hostService, STAGE } from '../../core/api/plugin.ts';
import { cliService, serveService } from '../cli/api.ts';
import { getHttpHooks, HTTP_HANDLER_TRANSPORT } from './api.ts';
import { serverSection } from './server-section.ts';

const plugin = definePlugin({
  name: 'transport-http',
  version: '0.2.0',
  kbctx: '^0.2',
  provides: ['transport:mcp', 'transport:http-handler', 'route:GET /health', 'command:token'],
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  configSections: { server: serverSection },
  apply(kernel) {
    // Its own hook (api.ts), created now so plugins naming it by id alone find it.
    const hooks = getHttpHooks(kernel);
    kernel.hooks.createTransport
      .for('mcp')
      .tapPromise({ name: 'transport-http', stage: STAGE.FALLBACK }, async (options) => {
        const { startHttpServer } = await import('./start-http-server.ts');
        return startHttpServer(kernel.use(serveService), hooks, options.bind);
      });
    kernel.hooks.createTransport
      .for(HTTP_HANDLER_TRANSPORT)
      .tapPromise({ name: 'transport-http', stage: STAGE.FALLBACK }, async (options) => {
        const { createHttpListener } = await import('./start-http-server.ts');
        return createHttpListener(kernel.use(serveService), hooks, options.bind);
      });
    kernel.hooks.commands.tapPromise({ name: 'transport-http', commands: ['token'] }, async (program) =>
      (await import('./token-command.ts')).registerToken(program, kernel.use(cliService)),
    );
    kernel.hooks.doctor.tapPromise('transport-http', async (checks) => {
      const { config, env } = kernel.use(hostService);
      for (const check of (await import('./token-checks.ts')).tokenChecks(config, env)) checks.add(check);
    });
  },
});

export default plugin; // a named constant: see test/architecture.test.ts
