// First-party plugin: the tool registry — every plugin's tools (tools-builtin's search, get and sources, the Lua
// bridge's script tools, extensions', a TypeScript plugin's `tools.add`) collected into one registry that REST, MCP,
// the CLI and the library call through: parameter validation, defaults, a token's `tools` scope, the `toolCall` and
// `toolResult` hooks, deadlines. Provided as the `kbctx.tools` service (ADR 0249); dropped, there are no tools.
import { definePlugin, requireOwn, toolsService } from '../../core/api/plugin.ts';
// Required when the host first builds its tool registry (`kbctx tool`, a server), not with this index (ADR 0130).
import type * as Registry from './tool-registry.ts';

const plugin = definePlugin({
  name: 'tool-registry',
  version: '0.2.0',
  kbctx: '^0.2',
  provides: ['service:kbctx.tools'],
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  apply(kernel) {
    kernel.provide(toolsService, {
      createRegistry: (hooks, defaultTimeoutSecs) =>
        new (requireOwn<typeof Registry>(import.meta.url, './tool-registry.ts').ToolRegistry)(
          hooks,
          defaultTimeoutSecs,
        ),
    });
  },
});

export default plugin; // a named constant: see test/architecture.test.ts
