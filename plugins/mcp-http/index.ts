// First-party plugin: the MCP endpoint (Streamable HTTP, `/mcp`) on the HTTP server, through
// `httpRoutes`. The MCP SDK is imported when the server starts, never by other commands.
import { definePlugin } from '../../core/api/plugin.ts';
import { serveService } from '../cli/api.ts';
import { mcpServerService } from '../mcp-server/api.ts';
import { getHttpHooks, serverConfigOf } from '../transport-http/api.ts';
import { getMcpHttpHooks, type McpExchange, type McpHttpHooks } from './api.ts';
import type { ExchangeObserver } from './mcp-http-handler.ts';

const plugin = definePlugin({
  name: 'mcp-http',
  version: '0.2.0',
  kbctx: '^0.2',
  provides: ['route:/mcp'],
  dependencies: ['mcp-server'],
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  apply(kernel) {
    const hooks = getMcpHttpHooks(kernel);
    getHttpHooks(kernel).httpRoutes.tapPromise('mcp-http', async (surfaces) => {
      const { createMcpHttpHandler, listenLimitsOf, mcpHttpSurface } = await import('./mcp-http-handler.ts');
      const { kbctx, tools, agents, version, log, live } = kernel.use(serveService);
      const config = serverConfigOf(kbctx.config);
      const server = await kernel.use(mcpServerService).createFactory({
        tools,
        agents,
        version,
        log,
        store: kbctx.store,
        syncStatus: live?.statusJson,
        kernel: kbctx.kernel,
      });
      const handler = createMcpHttpHandler({
        server,
        maxBodyBytes: config.maxBodyBytes,
        listenLimits: listenLimitsOf(config),
        log,
        exchanges: exchangeObserver(hooks, log),
      });
      live?.onIndexChanged((connector) => handler.resourcesChanged(connector));
      surfaces.add(mcpHttpSurface(handler));
    });
  },
});

/** Calls mcp-http's hooks when they have taps (read on each call); a failing tap is logged, the answer goes on. */
function exchangeObserver(hooks: McpHttpHooks, log: (line: string) => void): ExchangeObserver {
  const call = (hook: McpHttpHooks['exchangeOpened'], exchange: McpExchange): void => {
    if (hook.taps.length === 0) return;
    try {
      hook.call(exchange);
    } catch (error) {
      log(`warning: an ${hook.name ?? 'mcp-http'} tap failed: ${(error as Error).message}`);
    }
  };
  return {
    opened: (exchange) => call(hooks.exchangeOpened, exchange),
    closed: (exchange) => call(hooks.exchangeClosed, exchange),
  };
}

export default plugin; // a named constant: see test/architecture.test.ts
