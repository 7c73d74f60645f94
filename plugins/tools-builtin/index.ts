// First-party plugin: the built-in tools search, get and sources (their bodies are the REST answers:
// builtin-tools.ts), added through the `tools` hook at the fallback stage; the same answers as plugins'
// `ctx.search/get/sources` (the `kbctx.index-tools` service); and the commands `kbctx search`, `get`,
// `sources` (named in the `commands` tap, so the CLI imports commands/ only when one of them runs).
import { definePlugin, STAGE, indexService, indexToolsService } from '../../core/api/plugin.ts';
import { cliService } from '../cli/api.ts';
import { builtinTools } from './builtin-tools.ts';
import { indexToolsOf } from './index-tools.ts';

const plugin = definePlugin({
  name: 'tools-builtin',
  version: '0.2.0',
  kbctx: '^0.2',
  provides: ['tool:search', 'tool:get', 'tool:sources', 'command:search', 'command:get', 'command:sources'],
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  apply(kernel) {
    kernel.hooks.tools.tap({ name: 'tools-builtin', stage: STAGE.FALLBACK }, (tools) => {
      for (const tool of builtinTools(kernel.use(indexService))) {
        tools.add({
          name: tool.name,
          description: tool.description,
          params: tool.params,
          builtin: true,
          readOnly: tool.readOnly,
          call: (params, ctx) => tool.run(params, { signal: ctx.signal }),
        });
      }
    });
    kernel.provide(
      indexToolsService,
      indexToolsOf(() => kernel.use(indexService)),
    );
    kernel.hooks.commands.tapPromise(
      { name: 'tools-builtin', commands: ['search', 'get', 'sources'] },
      async (program) => (await import('./commands/index.ts')).registerCommands(program, kernel.use(cliService)),
    );
  },
});

export default plugin; // a named constant: see test/architecture.test.ts
