// First-party plugin: the built-in tools search, get and sources, added through the `tools` hook
// at the fallback stage (their bodies are the REST answers; see src/app/tools.ts).
import { definePlugin, STAGE, indexService, builtinTools } from '../../core/api/plugin.ts';

const plugin = definePlugin({
  name: 'tools-builtin',
  version: '0.2.0',
  kbctx: '^0.2',
  provides: ['tool:search', 'tool:get', 'tool:sources'],
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  apply(kernel) {
    kernel.hooks.tools.tap({ name: 'tools-builtin', stage: STAGE.FALLBACK }, (tools) => {
      for (const tool of builtinTools(kernel.use(indexService))) {
        tools.add({ name: tool.name, description: tool.description, params: tool.params, builtin: true, readOnly: tool.readOnly, call: (params, ctx) => tool.run(params, { signal: ctx.signal }) });
      }
    });
  },
});

export default plugin; // a named constant: see test/architecture.test.ts
