// First-party plugin: the MCP server the MCP transports share (mcp-http, mcp-stdio), as the service
// `kbctx.mcp-server` (api.ts). Tools, prompts and resources come from the registries, the store and
// the plugins' `resources` taps. The MCP SDK is imported when a transport builds its server, never by
// other commands.
import { definePlugin } from '../../core/api/plugin.ts';
import { mcpServerService } from './api.ts';

const plugin = definePlugin({
  name: 'mcp-server',
  version: '0.2.0',
  kbctx: '^0.2',
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  apply(kernel) {
    kernel.provide(mcpServerService, {
      createFactory: async (options) => (await import('./server-factory.ts')).createServerFactory(options),
    });
  },
});

export default plugin; // a named constant: see test/architecture.test.ts
