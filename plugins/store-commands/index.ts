// First-party plugin: the index's own commands, for whichever store holds it: `kbctx stats`,
// `kbctx export` (documents and chunks as JSON) and `kbctx migrate` (one store copied into another
// through the store interface: migrate-index.ts). Named in the `commands` tap, so the CLI imports
// commands/ only when one of them runs.
import { definePlugin } from '../../core/api/plugin.ts';
import { cliService } from '../cli/api.ts';

const plugin = definePlugin({
  name: 'store-commands',
  version: '0.2.0',
  kbctx: '^0.2',
  provides: ['command:stats', 'command:export', 'command:migrate'],
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  apply(kernel) {
    kernel.hooks.commands.tapPromise(
      { name: 'store-commands', commands: ['stats', 'export', 'migrate'] },
      async (program) => (await import('./commands/index.ts')).registerCommands(program, kernel.use(cliService)),
    );
  },
});

export default plugin; // a named constant: see test/architecture.test.ts
