// First-party plugin: the tool registry — every plugin's tools (tools-builtin's search, get and sources, the Lua
// bridge's script tools, extensions', a TypeScript plugin's `tools.add`) collected into one registry that REST, MCP,
// the CLI and the library call through: parameter validation, defaults, a token's `tools` scope, the `toolCall` and
// `toolResult` hooks, deadlines. Provided as the `kbctx.tools` service (ADR 0249), collected from the `tools` hook by
// this plugin (ADR 0254); dropped, there are no tools.
import {
  collectedRegistry,
  DEFAULT_CALL_TIMEOUT_SECS,
  definePlugin,
  hostService,
  requireOwn,
} from '../../core/api/plugin.ts';
import { toolsService } from './api.ts';
// Required when the host first builds its tool registry (`kbctx tool`, a server), not with this index (ADR 0130).
import type * as Registry from './tool-registry.ts';
import type { ToolRegistry } from './registry-types.ts';

const plugin = definePlugin({
  name: 'tool-registry',
  version: '0.2.0',
  kbctx: '^0.2',
  provides: ['service:kbctx.tools'],
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  apply(kernel) {
    // A later tool of the same name replaces an earlier one: the taps' stages decide (ToolRegistry.register).
    const registry = collectedRegistry(
      kernel,
      { plugin: 'tool-registry', hook: 'tools' },
      (): ToolRegistry =>
        new (requireOwn<typeof Registry>(import.meta.url, './tool-registry.ts').ToolRegistry)(
          kernel.use(hostService).toolHooks,
          DEFAULT_CALL_TIMEOUT_SECS,
        ),
      (into, def, { plugin, contextFor }) => into.add(def, contextFor, plugin),
    );
    kernel.provide(toolsService, { registry });
  },
});

export default plugin; // a named constant: see test/architecture.test.ts
