// First-party plugin: the tool registry — every plugin's tools (tools-builtin's search, get and sources, the Lua
// bridge's script tools, extensions', a TypeScript plugin's `tools.add`) collected into one registry that REST, MCP,
// the CLI and the library call through: parameter validation, defaults, a token's `tools` scope, the `toolCall` and
// `toolResult` hooks, deadlines. Provided as the `kbctx.tools` service (ADR 0249), collected from the `tools` hook by
// this plugin (ADR 0254); dropped, there are no tools.
import { DEFAULT_CALL_TIMEOUT_SECS, definePlugin, hostService, requireOwn, STAGE } from '../../core/api/plugin.ts';
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
    let registry: ToolRegistry | undefined;
    // A later tool of the same name replaces an earlier one: the taps' stages decide (ToolRegistry.register).
    const collect = (into: ToolRegistry): void =>
      kernel.use(hostService).collect('tools', (def, { plugin, contextFor }) => into.add(def, contextFor, plugin));
    kernel.provide(toolsService, {
      registry() {
        if (registry) return registry;
        const host = kernel.use(hostService);
        const created = new (requireOwn<typeof Registry>(import.meta.url, './tool-registry.ts').ToolRegistry)(
          host.toolHooks,
          DEFAULT_CALL_TIMEOUT_SECS,
        );
        collect(created);
        return (registry = created);
      },
    });
    // Last of `boot`: what plugins added at boot (script tools, extension modules' plugins) joins a registry built
    // before.
    kernel.hooks.boot.tap({ name: 'tool-registry', stage: STAGE.FALLBACK }, () => {
      if (registry) collect(registry);
    });
  },
});

export default plugin; // a named constant: see test/architecture.test.ts
