// First-party plugin: the Lua bridge. Script connectors (`[connectors.script.<name>]`) run in the
// sandboxed Lua runtime (ADR 0040) that the host provides as the `kbctx.scripting` service.
import { definePlugin, STAGE } from '../../core/index.ts';
import type { ScriptConfig } from '../../src/config/types.ts';
import { scriptingService } from '../../src/scripting/scripting-service.ts';

const plugin = definePlugin({
  name: 'lua-bridge',
  version: '0.2.0',
  kbctx: '^0.2',
  provides: ['connector:script'],
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  apply(kernel) {
    kernel.hooks.createConnector.for('script').tapPromise({ name: 'lua-bridge', stage: STAGE.FALLBACK }, async (instance) =>
      (await kernel.use(scriptingService)()).connector(instance.name, instance.options as unknown as ScriptConfig),
    );
  },
});

export default plugin; // a named constant: see test/architecture.test.ts
