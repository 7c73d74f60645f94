// First-party plugin: the command line. The process entry (registry/cli.ts) runs its runner
// (run-cli.ts: the commander program, the error → exit code table, help and completions), which owns
// the host's commands (init, start, sync, embed, serve, doctor, connector, tool, agent, plugins,
// completions, imported one at a time as they run); this index adds `kbctx config schema` through the
// `commands` tap, named, so the CLI imports commands/config.ts only when it runs (ADR 0162, 0170).
import { definePlugin } from '../../core/api/plugin.ts';
import { cliService } from './api.ts';

const plugin = definePlugin({
  name: 'cli',
  version: '0.2.0',
  kbctx: '^0.2',
  provides: ['command:config'],
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  apply(kernel) {
    kernel.hooks.commands.tapPromise({ name: 'cli', commands: ['config'] }, async (program) =>
      (await import('./commands/config.ts')).registerConfig(program, kernel.use(cliService)),
    );
  },
});

export default plugin; // a named constant: see test/architecture.test.ts
