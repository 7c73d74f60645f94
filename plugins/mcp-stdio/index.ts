// First-party plugin: MCP over stdin/stdout (`kbctx serve stdio`, `kbctx serve mcp --stdio`) for
// desktop clients that launch the server. Nothing may write to stdout while it runs.
import { definePlugin, STAGE } from '../../core/api/plugin.ts';
import { serveService } from '../cli/api.ts';
import { mcpServerService } from '../mcp-server/api.ts';

const plugin = definePlugin({
  name: 'mcp-stdio',
  version: '0.2.0',
  kbctx: '^0.2',
  provides: ['transport:stdio'],
  dependencies: ['mcp-server'],
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  apply(kernel) {
    kernel.hooks.createTransport.for('stdio').tapPromise({ name: 'mcp-stdio', stage: STAGE.FALLBACK }, async () => {
      const { runMcpStdio } = await import('./mcp-stdio.ts');
      const { kbctx, tools, agents, version, log, live } = kernel.use(serveService);
      log(`kbctx ${version}: MCP over stdio (${tools.list().length} tools, ${agents.list().length} prompts)`);
      const server = await kernel.use(mcpServerService).createFactory({
        kernel: kbctx.kernel,
        tools,
        agents,
        version,
        log,
        store: kbctx.store,
        syncStatus: live?.statusJson,
      });
      const done = runMcpStdio({ server, log, onIndexChanged: live?.onIndexChanged });
      // It ends when stdin closes or on SIGINT/SIGTERM (runMcpStdio listens for them itself).
      return { done, close: () => Promise.resolve() };
    });
  },
});

export default plugin; // a named constant: see test/architecture.test.ts
