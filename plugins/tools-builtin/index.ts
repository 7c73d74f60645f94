// First-party plugin: the built-in tools search, get and sources (their bodies are the REST answers:
// builtin-tools.ts), added through the `tools` hook at the fallback stage; the same answers as plugins'
// `ctx.search/get/sources` (the `kbctx.index-tools` service); and the commands `kbctx search`, `get`,
// `sources` (each named in its own `commands` tap, so the CLI imports a command's module only when it runs).
import type { Command } from 'commander';
import {
  definePlugin,
  requireOwn,
  STAGE,
  indexService,
  indexToolsService,
  type IndexServices,
} from '../../core/api/plugin.ts';
import { cliService, type CliContext } from '../cli/api.ts';
// Required on first use (the `tools` hook, a plugin's ctx.search), not with this index (ADR 0130).
import type * as BuiltinTools from './builtin-tools.ts';
import type * as IndexTools from './index-tools.ts';

/** A command module's register function (commander's Command at run time: core's CliProgram is its shape). */
type Register = (program: Command, ctx: CliContext) => void;

const plugin = definePlugin({
  name: 'tools-builtin',
  version: '0.2.0',
  kbctx: '^0.2',
  provides: ['tool:search', 'tool:get', 'tool:sources', 'command:search', 'command:get', 'command:sources'],
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  apply(kernel) {
    kernel.hooks.tools.tap({ name: 'tools-builtin', stage: STAGE.FALLBACK }, (tools) => {
      const { builtinTools } = requireOwn<typeof BuiltinTools>(import.meta.url, './builtin-tools.ts');
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
    let tools: IndexServices | undefined;
    const indexTools = (): IndexServices =>
      (tools ??= requireOwn<typeof IndexTools>(import.meta.url, './index-tools.ts').indexToolsOf(() =>
        kernel.use(indexService),
      ));
    kernel.provide(indexToolsService, {
      search: async (input) => indexTools().search(input),
      get: async (id) => indexTools().get(id),
      sources: async () => indexTools().sources(),
    });
    // One tap per command, so `kbctx search` imports search.ts alone (ADR 0130); in help order.
    const commands: Readonly<Record<string, () => Promise<Register>>> = {
      search: async () => (await import('./commands/search.ts')).registerSearch,
      get: async () => (await import('./commands/get.ts')).registerGet,
      sources: async () => (await import('./commands/sources.ts')).registerSources,
    };
    for (const [name, load] of Object.entries(commands))
      kernel.hooks.commands.tapPromise({ name: 'tools-builtin', commands: [name] }, async (program) =>
        (await load())(program as unknown as Command, kernel.use(cliService)),
      );
  },
});

export default plugin; // a named constant: see test/architecture.test.ts
