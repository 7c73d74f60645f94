// First-party plugin: `kbctx registry …` (list, install, update, search, info, add, override, init)
// through the `commands` hook (called only for a command name the CLI does not know), over the
// registry library in registry/, imported when a registry command runs.
import { cliService, definePlugin } from '../../core/index.ts';
import { registerRegistry } from './registry-command.ts';

const plugin = definePlugin({
  name: 'registry-commands',
  version: '0.2.0',
  kbctx: '^0.2',
  provides: ['command:registry'],
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  apply(kernel) {
    kernel.hooks.commands.tap('registry-commands', (program) => registerRegistry(program, kernel.use(cliService)));
  },
});

export default plugin; // a named constant: see test/architecture.test.ts
